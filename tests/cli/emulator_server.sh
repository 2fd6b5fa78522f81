#!/usr/bin/env bash
# The emulated switches' command server (tests/lab/emulators/zygote.py and its client emu_client.c, the
# ForceCommand of every emulated switch's sshd) is invisible: a command run through it prints the same
# standard output and error and ends with the same exit status as the emulator run by itself, reads its
# standard input, and sees SSH_ORIGINAL_COMMAND; a client whose server is gone says so and exits 255, as
# a shell reports a lost command. (No fabricctl here: what fabricctl sees through it, the collect and
# apply tests check.)
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
emulators="$root/tests/lab/emulators"
/usr/bin/python3 "$emulators/zygote.py" --client "$work/emu-client"
mkdir -p "$work/state"
printf '{"Ethernet0": {"speed": "400G", "oper": "up"}, "Ethernet4": {"speed": "400G", "oper": "up"}}\n' >"$work/state/ports.json"
/usr/bin/python3 "$emulators/sonic.py" "$work/state" --factory
setsid /usr/bin/python3 "$emulators/zygote.py" "$work/sock" "$emulators/sonic.py" >/dev/null 2>"$work/zygote.log" &
server=$!
trap 'kill -TERM -- -$server 2>/dev/null || true; rm -rf "$work"' EXIT
for i in $(seq 250); do [ -S "$work/sock" ] && break; sleep 0.02; done
[ -S "$work/sock" ] || fail "the server did not start: $(cat "$work/zygote.log")"

# same COMMAND [STDIN]: the command through the server and by itself agree on all three.
same() {
  local how
  for how in served direct; do
    set +e
    if [ $how = served ]; then
      printf '%s' "${2:-}" | SSH_ORIGINAL_COMMAND="$1" "$work/emu-client" "$work/sock" "$work/state" >"$work/$how.out" 2>"$work/$how.err"
    else
      printf '%s' "${2:-}" | SSH_ORIGINAL_COMMAND="$1" /usr/bin/python3 "$emulators/sonic.py" "$work/state" >"$work/$how.out" 2>"$work/$how.err"
    fi
    echo $? >"$work/$how.rc"
    set -e
  done
  for part in out err rc; do
    cmp -s "$work/served.$part" "$work/direct.$part" ||
      fail "\`$1\`: $part differs: served $(head -c 500 "$work/served.$part"); direct $(head -c 500 "$work/direct.$part")"
  done
}
same "show runningconfiguration all"
[ "$(cat "$work/served.rc")" = 0 ] && [ -s "$work/served.out" ] || fail "show runningconfiguration all: $(cat "$work/served.err")"
same "show no-such-thing"
[ "$(cat "$work/served.rc")" != 0 ] && [ -s "$work/served.err" ] || fail "an unknown command was not refused"
# A patch on standard input, refused (an MTU out of the range SONiC's YANG allows): read, then refused alike.
same "config apply-patch /dev/stdin" '[{"op": "replace", "path": "/PORT/Ethernet0/mtu", "value": "70000"}]'
[ "$(cat "$work/served.rc")" = 2 ] || fail "apply-patch of a bad MTU: exit $(cat "$work/served.rc"): $(cat "$work/served.err")"

kill -TERM -- -$server
wait $server 2>/dev/null || true
set +e
SSH_ORIGINAL_COMMAND="show runningconfiguration all" "$work/emu-client" "$work/sock" "$work/state" >/dev/null 2>"$work/err"
rc=$?
set -e
[ $rc -eq 255 ] && grep -q "emu-client: $work/sock" "$work/err" || fail "no server: exit $rc: $(cat "$work/err")"
echo "ok emulator_server"

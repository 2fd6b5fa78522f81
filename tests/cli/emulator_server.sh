#!/usr/bin/env bash
# The emulated switches' command server (tests/lab/emulators/zygote.py and its client emu_client.c, the
# ForceCommand of every emulated switch's sshd) is invisible: a command run through it prints the same
# standard output and error and ends with the same exit status as the emulator run by itself, reads its
# standard input, and sees SSH_ORIGINAL_COMMAND; a client whose server is gone says so and exits 255, as
# a shell reports a lost command. (No fabricctl here: what fabricctl sees through it, the collect and
# apply tests check.)
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/sshd.sh"    # start_emulator (no sshd needed)
emulator="$root/tests/lab/emulators/sonic.py"
mkdir -p "$work/state"
printf '{"Ethernet0": {"speed": "400G", "oper": "up"}, "Ethernet4": {"speed": "400G", "oper": "up"}}\n' >"$work/state/ports.json"
/usr/bin/python3 "$emulator" "$work/state" --factory
start_emulator sw "$emulator"

# same COMMAND [STDIN]: the command through the server and by itself agree on all three.
same() {
  local how
  local -A runner=([served]="$work/emu-client $work/sw.sock" [direct]="/usr/bin/python3 $emulator")
  for how in served direct; do
    set +e
    # shellcheck disable=SC2086  # the runner's words: paths without spaces ($work, the repository)
    printf '%s' "${2:-}" | SSH_ORIGINAL_COMMAND="$1" ${runner[$how]} "$work/state" >"$work/$how.out" 2>"$work/$how.err"
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

kill -TERM -- "-$server_sw"
wait "$server_sw" 2>/dev/null || true
run env SSH_ORIGINAL_COMMAND="show runningconfiguration all" "$work/emu-client" "$work/sw.sock" "$work/state"
[ $rc -eq 255 ] && grep -q "emu-client: $work/sw.sock" "$work/err" || fail "no server: exit $rc: $(cat "$work/err")"
echo "ok emulator_server"

#!/usr/bin/env bash
# fabricctl plan and apply against an Arista EOS switch: a real sshd on 127.0.0.1 in front of the EOS CLI
# emulator (tests/lab/emulators/eos.py) started at its factory default. plan shows the session lines,
# apply stages them in a configure session with EOS's commit timer, verifies and confirms; afterwards
# verify is clean, the change is saved as startup-config, and a second plan has nothing to change. While
# another session holds EOS's commit timer, apply refuses and changes nothing.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/sshd.sh"
need_sshd
emulator="$root/tests/lab/emulators/eos.py"
user=$(id -un)

mkdir -p "$work/sw1/state" "$work/inv"
cat >"$work/sw1/state/ports.json" <<JSON
{"Ethernet1": {"speed": 400000, "oper": "up"}, "Ethernet2": {"speed": 400000, "oper": "up"}}
JSON
/usr/bin/python3 "$emulator" "$work/sw1/state" --factory
start_emulated sw1 "$emulator" "$work/sw1/state"
cat >"$work/inv/fabric.yaml" <<YAML
defaults:
  profile: roce-lossless
  mgmt: {address: 127.0.0.1, user: $user, key: $work/client_key}
devices:
  sw1:
    role: switch
    platform: eos
    mgmt: {port: $port_sw1}
    ports: {Ethernet1: {speed: 400G}, Ethernet2: {speed: 400G}}
YAML
inv="$work/inv"
kh="$work/known_hosts"
: >"$kh"

run "$bin" plan -i "$inv" --known-hosts "$kh" --accept-new-host-keys -o native --detailed-exitcode
[ $rc -eq 1 ] || fail "plan of a factory switch: exit $rc: $(cat "$work/err")"
grep -q '^interface Ethernet2$' "$work/out" || fail "plan: no Ethernet2 block: $(cat "$work/out")"
grep -q '^   priority-flow-control priority 3 no-drop$' "$work/out" || fail "plan: no PFC line: $(cat "$work/out")"
! grep -q 'no priority-flow-control priority 0' "$work/out" || fail "plan: removes what a factory switch lacks"

# Another operator's session holds the switch's commit timer: plan (and the plan apply makes) reads `show
# configuration sessions detail` first, refuses naming that session and when its timer ends, and apply
# sends nothing. (That apply checks again right before stage is src/ops/apply_test.cpp's.)
eos() { SSH_ORIGINAL_COMMAND="$1" /usr/bin/python3 "$emulator" "$work/sw1/state"; }
eos $'configure session change-42\ninterface Ethernet1\n   mtu 9000\nend' >/dev/null
eos 'configure session change-42 commit timer 00:10:00'
cp "$work/sw1/state/config.json" "$work/operator.json"
run "$bin" plan -i "$inv" --known-hosts "$kh"
[ $rc -eq 3 ] || fail "plan beside another session's commit timer: exit $rc: $(cat "$work/out" "$work/err")"
grep -q 'refuses the change: configuration session "change-42" holds EOS.s commit timer' "$work/out" ||
  fail "plan does not say which session holds the timer: $(cat "$work/out" "$work/err")"
run "$bin" apply -i "$inv" --known-hosts "$kh" --yes --confirm-timeout 60 --audit-dir "$work/audit"
[ $rc -eq 3 ] || fail "apply beside another session's commit timer: exit $rc: $(cat "$work/out" "$work/err")"
grep -q 'refuses the change: configuration session "change-42" holds EOS.s commit timer (it expires at 20[0-9-]*T[0-9:]*Z)' \
  "$work/out" "$work/err" || fail "the refusal does not name the session and its expiry: $(cat "$work/out" "$work/err")"
cmp -s "$work/sw1/state/config.json" "$work/operator.json" || fail "apply changed running beside another timer"
! grep -q fabricctl- "$work/sw1/state/sessions.json" || fail "apply opened a session: $(cat "$work/sw1/state/sessions.json")"
! grep -Eqs '"event":"(stage|rolled_back)"' "$work/audit"/*.jsonl || fail "a refused check staged or rolled back"
rm -rf "$work/audit"
eos 'configure session change-42 abort'

# Another apply of this inventory runs on this controller (its lock, held here by flock(1)): refused
# before anything is read, nothing sent.
cp "$work/sw1/state/config.json" "$work/before-lock.json"
lockfile="$work/audit/.locks/$(printf %s "$(realpath "$inv")" | sha256sum | cut -d' ' -f1).lock"
mkdir -p "$work/audit/.locks"
# The holder is the sleep itself (a subshell that takes the lock, then execs), its output not ctest's:
# killed below, nothing of it outlives the test or holds ctest's pipe open for 30 s.
(exec 9>"$lockfile" && flock -n 9 && exec sleep 30) >/dev/null 2>&1 &
holder=$!
for _ in $(seq 1 50); do flock -n "$lockfile" true 2>/dev/null || break; pause 0.1; done
run "$bin" apply -i "$inv" --known-hosts "$kh" --yes --confirm-timeout 60 --audit-dir "$work/audit" -q
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null || true
[ $rc -eq 3 ] || fail "apply beside another apply of the inventory: exit $rc: $(cat "$work/out" "$work/err")"
grep -q 'another apply of ".*" is running: one apply of an inventory at a time; nothing was changed' "$work/err" ||
  fail "the refusal does not say so: $(cat "$work/err")"
cmp -s "$work/sw1/state/config.json" "$work/before-lock.json" || fail "apply changed running beside another apply"
rm -rf "$work/audit"

run "$bin" apply -i "$inv" --known-hosts "$kh" --yes --confirm-timeout 60 --audit-dir "$work/audit" -q
[ $rc -eq 0 ] || fail "apply: exit $rc: $(cat "$work/out" "$work/err")"
grep -q '"mtu": 9100' "$work/sw1/state/startup.json" || fail "apply did not save startup-config"
[ -z "$(ls "$work/sw1/state/timers" 2>/dev/null)" ] || fail "a commit timer still runs after confirm"

run "$bin" verify -i "$inv" --known-hosts "$kh" -q
[ $rc -eq 0 ] || fail "verify after apply: exit $rc: $(cat "$work/out" "$work/err")"
run "$bin" plan -i "$inv" --known-hosts "$kh" -o native --detailed-exitcode
[ $rc -eq 0 ] || fail "a second plan is not empty: exit $rc: $(cat "$work/out" "$work/err")"
echo "apply eos: ok"

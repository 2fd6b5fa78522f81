#!/usr/bin/env bash
# fabricctl plan and apply against an Arista EOS switch: a real sshd on 127.0.0.1 in front of the EOS CLI
# emulator (tests/lab/emulators/eos.py) started at its factory default. plan shows the session lines,
# apply stages them in a configure session with EOS's commit timer, verifies and confirms; afterwards
# verify is clean, the change is saved as startup-config, and a second plan has nothing to change.
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

run "$bin" apply -i "$inv" --known-hosts "$kh" --yes --confirm-timeout 60 --audit-dir "$work/audit" -q
[ $rc -eq 0 ] || fail "apply: exit $rc: $(cat "$work/out" "$work/err")"
grep -q '"mtu": 9100' "$work/sw1/state/startup.json" || fail "apply did not save startup-config"
[ -z "$(ls "$work/sw1/state/timers" 2>/dev/null)" ] || fail "a commit timer still runs after confirm"

run "$bin" verify -i "$inv" --known-hosts "$kh" -q
[ $rc -eq 0 ] || fail "verify after apply: exit $rc: $(cat "$work/out" "$work/err")"
run "$bin" plan -i "$inv" --known-hosts "$kh" -o native --detailed-exitcode
[ $rc -eq 0 ] || fail "a second plan is not empty: exit $rc: $(cat "$work/out" "$work/err")"
echo "apply eos: ok"

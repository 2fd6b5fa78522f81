#!/usr/bin/env bash
# fabricctl plan and apply against a Cisco NX-OS switch: a real sshd on 127.0.0.1 in front of the NX-OS CLI
# emulator (tests/lab/emulators/nxos.py) started at its factory default. plan shows the blocks to send;
# apply takes a checkpoint, arms the EEM countdown that rolls back to it, sends the change, verifies and
# confirms; afterwards verify is clean, the change is saved as startup-config, no checkpoint or applet is
# left, and a second plan has nothing to change. While another transaction's revert applet is configured,
# plan and apply refuse and change nothing; an applet left by a killed apply rolls the switch back by
# itself (its countdown fired here by the emulator's hook).
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/sshd.sh"
need_sshd
emulator="$root/tests/lab/emulators/nxos.py"
user=$(id -un)

mkdir -p "$work/sw1/state" "$work/inv"
cat >"$work/sw1/state/ports.json" <<JSON
{"Ethernet1/1": {"speed": 400000, "oper": "up"}, "Ethernet1/2": {"speed": 400000, "oper": "up"}}
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
    platform: nxos
    mgmt: {port: $port_sw1}
    ports: {"Ethernet1/1": {speed: 400G}, "Ethernet1/2": {speed: 400G}}
YAML
inv="$work/inv"
kh="$work/known_hosts"
: >"$kh"
nxos() { SSH_ORIGINAL_COMMAND="$1" /usr/bin/python3 "$emulator" "$work/sw1/state"; }

run "$bin" plan -i "$inv" --known-hosts "$kh" --accept-new-host-keys -o native --detailed-exitcode
[ $rc -eq 1 ] || fail "plan of a factory switch: exit $rc: $(cat "$work/err")"
grep -q '^policy-map type network-qos FABRICCTL-NQ$' "$work/out" || fail "plan: no network-qos policy: $(cat "$work/out")"
grep -q '^    pause pfc-cos 3$' "$work/out" || fail "plan: no PFC line: $(cat "$work/out")"
grep -q '^interface Ethernet1/2$' "$work/out" || fail "plan: no Ethernet1/2 block: $(cat "$work/out")"

# A revert applet of another transaction is configured (its apply not confirmed yet): plan says so and
# apply sends nothing.
nxos 'terminal dont-ask ; checkpoint fabricctl-20261201T000000-aaaaaa' >/dev/null
nxos 'configure terminal ; event manager applet fabricctl-20261201T000000-aaaaaa ; event timer countdown time 600 ; action 1 cli rollback running-config checkpoint fabricctl-20261201T000000-aaaaaa ; end' >/dev/null
cp "$work/sw1/state/config.json" "$work/before.json"
run "$bin" plan -i "$inv" --known-hosts "$kh"
[ $rc -eq 3 ] || fail "plan beside another revert applet: exit $rc: $(cat "$work/out" "$work/err")"
grep -q 'a fabricctl revert is still armed on the switch (EEM applet fabricctl-20261201T000000-aaaaaa)' "$work/out" ||
  fail "plan does not name the armed applet: $(cat "$work/out" "$work/err")"
run "$bin" apply -i "$inv" --known-hosts "$kh" --yes --confirm-timeout 60 --audit-dir "$work/audit"
[ $rc -eq 3 ] || fail "apply beside another revert applet: exit $rc: $(cat "$work/out" "$work/err")"
cmp -s "$work/sw1/state/config.json" "$work/before.json" || fail "apply changed running beside another applet"
rm -rf "$work/audit"
# That transaction's fabricctl is gone: its countdown ends and NX-OS rolls back, the applet with it.
/usr/bin/python3 "$emulator" "$work/sw1/state" --fire-timers
! grep -q "event manager" "$work/sw1/state/config.json" || fail "the applet outlived its rollback"
nxos 'no checkpoint fabricctl-20261201T000000-aaaaaa' >/dev/null

run "$bin" apply -i "$inv" --known-hosts "$kh" --yes --confirm-timeout 60 --audit-dir "$work/audit" -q
[ $rc -eq 0 ] || fail "apply: exit $rc: $(cat "$work/out" "$work/err")"
grep -q '"  mtu 9100"\|"mtu 9100"' "$work/sw1/state/startup.json" || fail "apply did not save startup-config"
[ -z "$(ls "$work/sw1/state/timers" 2>/dev/null)" ] || fail "a countdown still runs after confirm"
[ "$(cat "$work/sw1/state/checkpoints.json")" = "{}" ] || fail "a checkpoint is left: $(cat "$work/sw1/state/checkpoints.json")"
! grep -q "event manager" "$work/sw1/state/config.json" || fail "the revert applet is left after confirm"

run "$bin" verify -i "$inv" --known-hosts "$kh" -q
[ $rc -eq 0 ] || fail "verify after apply: exit $rc: $(cat "$work/out" "$work/err")"
run "$bin" plan -i "$inv" --known-hosts "$kh" -o native --detailed-exitcode
[ $rc -eq 0 ] || fail "a second plan is not empty: exit $rc: $(cat "$work/out" "$work/err")"
echo "apply nxos: ok"

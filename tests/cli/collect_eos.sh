#!/usr/bin/env bash
# fabricctl collect against two Arista EOS switches, each a real sshd on 127.0.0.1 in front of the EOS CLI
# emulator (tests/lab/emulators/eos.py) loaded with the switch's rendered session.cfg: raw outputs kept
# without the secrets a running-config holds, snapshots that verify finds clean, --from-raw giving the
# same snapshots, the interface counters in neutral names, and a fault made through the switch's own
# configuration found by verify on that port.
# What collect does for every platform alike (host keys, unreachable devices, hostile output reaching the
# terminal) is proved by collect_sonic.sh.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/sshd.sh"
need_sshd
. "$(dirname "${BASH_SOURCE[0]}")/lib/switches.sh"  # two_switches, run
two_switches eos Ethernet1 Ethernet2
"$bin" validate -i "$inv" >/dev/null

# Each switch runs its rendered session, with secrets in its running-config, links up and LLDP seen.
"$bin" render -i "$inv" --out "$work/render" >/dev/null
for sw in sw1 sw2; do
  cat >"$work/$sw/state/preamble.txt" <<'CFG'
username admin privilege 15 role network-admin secret sha512 $6$s3cret
enable password sha512 $6$s3cret
snmp-server community s3cret-community ro
tacacs-server host 10.0.0.9 key 7 s3cret
radius-server host 10.0.0.8 key 7 s3cret
management ssh
   authorized-key ssh-ed25519 AAAAs3cret
CFG
  /usr/bin/python3 "$emulator" "$work/$sw/state" --load "$work/render/$sw/session.cfg" || fail "$sw: session.cfg not loaded"
done

# sw1's Ethernet1 has seen FCS errors and discards, flapped once, received PFC frames and ECN-marked
# packets on its RoCE queue (3, where session.cfg configures ECN; the other queues print "-").
echo '{"Ethernet1": {"inDiscards": 12, "linkStatusChanges": 3, "inputErrorsDetail": {"fcsErrors": 77}}}' \
  >"$work/sw1/state/counters.json"
echo '{"Ethernet1": {"pfc": {"rxFrames": 5000, "txFrames": 4}, "ecn": {"3": 321, "0": 9}}}' \
  >"$work/sw1/state/qos-counters.json"

run "$bin" collect -i "$inv" --out "$work/snaps" --known-hosts "$kh" --accept-new-host-keys -q
[ $rc -eq 0 ] || fail "collect: exit $rc: $(cat "$work/err")"
/usr/bin/python3 - "$work/snaps/sw1.json" <<'PY' || fail "counters: $(cat "$work/snaps/sw1.json")"
import json, sys
c = json.load(open(sys.argv[1]))["ports"]["Ethernet1"]["counters"]
assert c == {"fcs_errors": 77, "link_changes": 3, "rx_discards": 12, "symbol_errors": 0, "tx_discards": 0,
             "pfc_rx_pause": 5000, "pfc_tx_pause": 4, "ecn_marked_3": 321}, c
PY
grep -q '^collected 2 of 2 devices' "$work/out" || fail "summary: $(cat "$work/out")"
raw_saved running-config.txt interfaces.json lldp-neighbors.json pfc-counters.json ecn-counters.json
! grep -rq 's3cret' "$work/snaps" || fail "a secret reached the raw outputs: $(grep -rl s3cret "$work/snaps")"
grep -q 'priority-flow-control priority 3 no-drop' "$work/snaps/raw/sw1/running-config.txt" || fail "the QoS lines were not kept"

# What was collected is what the intent renders: verify is clean, with every check's data there. (EOS
# keeps traffic-class 7 for its control traffic, where session.cfg maps nothing; port.ets.drift judges
# only the priorities traffic is classified into.)
run "$bin" verify -i "$inv" --snapshots "$work/snaps" -o json
[ $rc -eq 0 ] || fail "verify of the collected state: exit $rc: $(cat "$work/err")"
/usr/bin/python3 - "$work/out" <<'PY' || fail "verify of the collected state: $(cat "$work/err")"
import json, sys
r = json.load(open(sys.argv[1]))
fails = [f for f in r["findings"] if f["status"] == "fail"]
assert not fails, fails
res = r["summary"]["results"]
assert res["missing"] == 0 and res["pass"] >= 30, res
PY

# --from-raw reads the saved outputs into the same snapshots.
replay_matches

# A fault made out of band, through the switch's own configuration: priority 3 lossy on sw2:Ethernet2.
printf 'interface Ethernet2\n   no priority-flow-control priority 3 no-drop\n!\n' >"$work/fault.cfg"
/usr/bin/python3 "$emulator" "$work/sw2/state" --load "$work/fault.cfg"
run "$bin" verify -i "$inv" --known-hosts "$kh" -q -o json
[ $rc -eq 1 ] || fail "live verify of the fault: exit $rc: $(cat "$work/err")"
/usr/bin/python3 - "$work/out" <<'PY' || fail "live verify does not name the fault on sw2:Ethernet2"
import json, sys
fails = [f for f in json.load(open(sys.argv[1]))["findings"] if f["status"] == "fail"]
ends = lambda f: {(f["a"]["device"], f["a"]["port"])} | ({(f["b"]["device"], f["b"]["port"])} if f["b"] else set())
assert fails and all(("sw2", "Ethernet2") in ends(f) for f in fails), fails
assert any(f["check"] == "port.pfc.drift" for f in fails), fails
PY

# plan --out saves the change as a whole, beside DIR and swapped in: over an earlier saved plan (an earlier
# release's too, which had no marker) it leaves this plan's files only; a directory that is not a saved
# plan is refused (exit 2) and kept.
mkdir -p "$work/saved/sw9"
echo '{}' >"$work/saved/plan.json"
run "$bin" plan -i "$inv" --known-hosts "$kh" -q --out "$work/saved"
[ $rc -eq 0 ] || fail "plan --out over an earlier plan: exit $rc: $(cat "$work/err")"
grep -q '"schema": "fabricctl.plan/v1"' "$work/saved/plan.json" && grep -q 'priority-flow-control priority 3 no-drop' "$work/saved/sw2/session.cfg" ||
  fail "plan --out: $(ls -A "$work/saved"; cat "$work/saved/plan.json")"
[ ! -e "$work/saved/sw9" ] && [ ! -e "$work/saved/sw1" ] || fail "plan --out kept the earlier plan's files: $(ls -A "$work/saved")"
mkdir -p "$work/notes"
echo mine >"$work/notes/todo.txt"
run "$bin" plan -i "$inv" --known-hosts "$kh" -q --out "$work/notes"
[ $rc -eq 2 ] && grep -q 'does not hold a previous fabricctl plan' "$work/err" || fail "plan --out into notes: exit $rc: $(cat "$work/err")"
[ "$(ls -A "$work/notes")" = todo.txt ] || fail "plan --out changed a directory that is not a plan: $(ls -A "$work/notes")"
! compgen -G "$work/.fabricctl-*" >/dev/null || fail "plan --out left its staging directory: $(ls -A "$work")"

# An unknown command is refused as EOS refuses it.
run env SSH_ORIGINAL_COMMAND="show version detail" /usr/bin/python3 "$emulator" "$work/sw1/state"
[ $rc -eq 1 ] && grep -q '^% Invalid input' "$work/err" || fail "the emulator accepted an unknown command"
echo "collect eos: ok"

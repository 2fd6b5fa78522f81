#!/usr/bin/env bash
# fabricctl collect against two Juniper Junos switches, each a real sshd on 127.0.0.1 in front of the Junos
# emulator (tests/lab/emulators/junos.py) loaded with the switch's rendered config.set: snapshots that
# verify finds clean, --from-raw giving the same snapshots, and the counters of `show interfaces extensive`
# (errors, FEC, PFC frames per priority, queues) in neutral names. What collect does for every platform
# alike (host keys, unreachable devices, hostile output) is proved by collect_sonic.sh.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/sshd.sh"
need_sshd
. "$(dirname "${BASH_SOURCE[0]}")/lib/switches.sh"  # two_switches, run
two_switches junos et-0/0/1 et-0/0/2 "junos: {ecn_buffer_kbytes: 15000}"
"$bin" validate -i "$inv" >/dev/null

"$bin" render -i "$inv" --out "$work/render" >/dev/null
for sw in sw1 sw2; do
  /usr/bin/python3 "$emulator" "$work/$sw/state" --load "$work/render/$sw/config.set" || fail "$sw: config.set not loaded"
done

# sw1's et-0/0/1 has seen FCS errors, drops, a change of its link, uncorrectable FEC codewords, PFC frames on
# priority 3 both ways and traffic on its RoCE queue.
cat >"$work/sw1/state/counters.json" <<'JSON'
{"et-0/0/1": {"framing-errors": 77, "input-drops": 12, "output-drops": 2, "carrier-transitions": 1,
              "fec_ccw_count": 900, "fec_nccw_count": 4, "pfc": {"3": {"input": 5000, "output": 4}},
              "queues": {"3": {"transmitted": 123456, "dropped": 0}}}}
JSON

run "$bin" collect -i "$inv" --out "$work/snaps" --known-hosts "$kh" --accept-new-host-keys -q
[ $rc -eq 0 ] || fail "collect: exit $rc: $(cat "$work/err")"
/usr/bin/python3 - "$work/snaps/sw1.json" "$work/snaps/sw2.json" <<'PY' || fail "counters: $(cat "$work/snaps/sw1.json")"
import json, sys
c = json.load(open(sys.argv[1]))["ports"]["et-0/0/1"]["counters"]
want = {"fcs_errors": 77, "rx_discards": 12, "tx_discards": 2, "link_changes": 1, "fec_corrected": 900,
        "fec_uncorrectable": 4, "queue_tx_packets_3": 123456, "queue_drops_3": 0}
for p in range(8):
    want["pfc_rx_pause_%d" % p] = 5000 if p == 3 else 0
    want["pfc_tx_pause_%d" % p] = 4 if p == 3 else 0
# The rendered forwarding classes' queues, and only those: each is counted.
queues = {k for k in c if k.startswith("queue_")}
assert {k: v for k, v in c.items() if not k.startswith("queue_") or k.endswith("_3")} == want, c
assert all(v == 0 for k, v in c.items() if k.startswith("queue_") and not k.endswith("_3")), c
assert len(queues) >= 4, queues
other = json.load(open(sys.argv[2]))["ports"]["et-0/0/2"]["counters"]
assert other["fcs_errors"] == 0 and other["pfc_rx_pause_3"] == 0, other
PY
raw_saved configuration.txt interfaces.json lldp-neighbors.json interfaces-extensive.json

# What was collected is what the intent renders: verify is clean.
run "$bin" verify -i "$inv" --snapshots "$work/snaps" -o json
[ $rc -eq 0 ] || fail "verify of the collected state: exit $rc: $(cat "$work/out")"

# --from-raw reads the saved outputs into the same snapshots, counters included.
replay_matches

# A live verify of the same switches is clean too.
run "$bin" verify -i "$inv" --known-hosts "$kh" -q
[ $rc -eq 0 ] || fail "live verify: exit $rc: $(cat "$work/out" "$work/err")"

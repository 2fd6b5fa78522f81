#!/usr/bin/env bash
# fabricctl collect against two Cisco NX-OS switches, each a real sshd on 127.0.0.1 in front of the NX-OS
# emulator (tests/lab/emulators/nxos.py) loaded with the switch's rendered config.cfg: snapshots that
# verify finds clean, --from-raw giving the same snapshots, and the counters of `show interface` (CRC
# errors, discards), `show queuing interface` (packets sent and dropped per queue, PFC frames per CoS) and
# `show queuing pfc-queue detail` (the watchdog's storms, restores and drops) in neutral names. What collect does for every platform alike (host keys, unreachable devices, hostile
# output) is proved by collect_sonic.sh.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/sshd.sh"
need_sshd
. "$(dirname "${BASH_SOURCE[0]}")/lib/switches.sh"  # two_switches, run
two_switches nxos Ethernet1/1 Ethernet1/2
"$bin" validate -i "$inv" >/dev/null

"$bin" render -i "$inv" --out "$work/render" >/dev/null
for sw in sw1 sw2; do
  /usr/bin/python3 "$emulator" "$work/$sw/state" --factory
  /usr/bin/python3 "$emulator" "$work/$sw/state" --load "$work/render/$sw/config.cfg" || fail "$sw: config.cfg not loaded"
done

# sw1's Ethernet1/1 has seen CRC errors, discards, PFC frames on CoS 3 both ways, traffic and drops on its
# RoCE queue (QoS group 3), and two storms its PFC watchdog caught there.
cat >"$work/sw1/state/counters.json" <<'JSON'
{"Ethernet1/1": {"eth_crc": 77, "eth_indiscard": 12, "eth_outdiscard": 2,
                 "pfc": {"3": {"rx": 5000, "tx": 4}}, "queues": {"3": {"tx": 123456, "drops": 9}},
                 "watchdog": {"3": {"storms": 2, "restored": 1, "drops": 400}}}}
JSON

run "$bin" collect -i "$inv" --out "$work/snaps" --known-hosts "$kh" --accept-new-host-keys -q
[ $rc -eq 0 ] || fail "collect: exit $rc: $(cat "$work/err")"
/usr/bin/python3 - "$work/snaps/sw1.json" "$work/snaps/sw2.json" <<'PY' || fail "counters: $(cat "$work/snaps/sw1.json")"
import json, sys
c = json.load(open(sys.argv[1]))["ports"]["Ethernet1/1"]["counters"]
want = {"fcs_errors": 77, "rx_discards": 12, "tx_discards": 2,
        "watchdog_storms_3": 2, "watchdog_restored_3": 1, "watchdog_drops_3": 400}
for q in range(8):
    want["queue_tx_packets_%d" % q] = 123456 if q == 3 else 0
    want["queue_drops_%d" % q] = 9 if q == 3 else 0
    want["pfc_rx_pause_%d" % q] = 5000 if q == 3 else 0
    want["pfc_tx_pause_%d" % q] = 4 if q == 3 else 0
assert c == want, c
other = json.load(open(sys.argv[2]))["ports"]["Ethernet1/1"]["counters"]
assert other["fcs_errors"] == 0 and other["pfc_rx_pause_3"] == 0 and other["watchdog_storms_3"] == 0, other
assert len(other) == len(want), other
PY
raw_saved running-config.txt interfaces.json lldp-neighbors.json queuing.json pfc-queue.json

# What was collected is what the intent renders: verify is clean.
run "$bin" verify -i "$inv" --snapshots "$work/snaps" -o json
[ $rc -eq 0 ] || fail "verify of the collected state: exit $rc: $(cat "$work/out")"

# --from-raw reads the saved outputs into the same snapshots, counters included.
replay_matches

# Health judges what the counters did between two readings: sw1's watchdog caught two more storms on
# Ethernet1/1, and its CRC errors rose; sw2's ports stayed quiet. (A second apart: health judges rates
# over the time between the readings, which must not be zero.)
sleep 1
/usr/bin/python3 - "$work/sw1/state/counters.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["Ethernet1/1"]["watchdog"]["3"]["storms"] += 2
c["Ethernet1/1"]["eth_crc"] += 5
json.dump(c, open(sys.argv[1], "w"))
PY
run "$bin" collect -i "$inv" --out "$work/snaps2" --known-hosts "$kh" -q
[ $rc -eq 0 ] || fail "second collect: exit $rc: $(cat "$work/err")"
run "$bin" health -i "$inv" --since "$work/snaps" --snapshots "$work/snaps2" -o json
[ $rc -eq 1 ] || fail "health over the storms: exit $rc: $(cat "$work/out" "$work/err")"
/usr/bin/python3 - "$work/out" <<'PY' || fail "health: $(cat "$work/out")"
import json, sys
r = json.load(open(sys.argv[1]))
assert sorted(f["check"] for f in r["findings"]) == ["health.link.errors", "health.pfc.storm"], r["findings"]
for f in r["findings"]:
    assert f["object"] in ("sw1:Ethernet1/1~sw2:Ethernet1/1", "sw2:Ethernet1/1~sw1:Ethernet1/1"), f
    assert "on sw1:Ethernet1/1" in f["message"], f
PY

# A row the reader cannot take (a count NX-OS would never print) makes that port unreadable, not the switch.
/usr/bin/python3 - "$work/snaps/raw/sw1/queuing.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for row in doc["TABLE_module"]["ROW_module"]["TABLE_queuing_interface"]["ROW_queuing_interface"]:
    if row["if_name_str"] == "Ethernet1/2" and "TABLE_pfc_stats" in row:
        row["TABLE_pfc_stats"]["ROW_pfc_stats"][3]["tx-pause-count"] = "4,000"
json.dump(doc, open(sys.argv[1], "w"))
PY
run "$bin" collect -i "$inv" --out "$work/bad" --from-raw "$work/snaps/raw" -q
[ $rc -eq 0 ] || fail "--from-raw with one bad row: exit $rc: $(cat "$work/err")"
/usr/bin/python3 - "$work/bad/sw1.json" <<'PY' || fail "one bad row: $(cat "$work/bad/sw1.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert "Ethernet1/2" not in d["ports"], d["ports"].keys()
assert d["unreadable"]["Ethernet1/2"].endswith('tx-pause-count: a string "4,000" is not a 64-bit count'), d
assert d["ports"]["Ethernet1/1"]["counters"]["pfc_rx_pause_3"] == 5000
PY

# A live verify of the same switches is clean too.
run "$bin" verify -i "$inv" --known-hosts "$kh" -q
[ $rc -eq 0 ] || fail "live verify: exit $rc: $(cat "$work/out" "$work/err")"

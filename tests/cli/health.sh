#!/usr/bin/env bash
# fabricctl health on the bundled lab's snapshots read twice, 60 s apart (snapshot --from-intent, with
# counters and collected_at written as collect writes them): moving at normal rates, no finding (exit
# 0); a PFC storm on leaf1:Ethernet0 named on host1's NIC that sends the pauses, FCS errors on the
# leaf-spine link, exit 1; every report format, Prometheus checked by promtool under fabricctl_health_;
# a device read once, exit 3; no first reading, exit 2. A clean window saved as a baseline (`baseline
# save`), and pauses at 20 times it named against it, by health and by triage; a bad baseline, exit 2;
# a NIC that sends most of its rail's pauses named as the rail's slow NIC.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
"$bin" snapshot --from-intent -i "$root/inventory/lab" --out "$work/first" >/dev/null
cp -r "$work/first" "$work/second"
# read DIR TIME [DEVICE:PORT:COUNTER+N]...: every port's counters, their base value plus what moved.
read_at() {
  /usr/bin/python3 - "$@" <<'PY'
import glob, json, os, sys
d, when, moves = sys.argv[1], sys.argv[2], sys.argv[3:]
base = {"pfc_rx_pause_3": 5000, "pfc_tx_pause_3": 5000, "fcs_errors": 3, "link_changes": 1, "watchdog_storms_3": 1}
for path in glob.glob(os.path.join(d, "*.json")):
    s = json.load(open(path))
    s["collected_at"] = when
    for name, p in s["ports"].items():
        p["counters"] = dict(base)
        for m in moves:
            dev, port, rest = m.split(":", 2)
            counter, n = rest.split("+")
            if dev == s["device"] and port == name:
                p["counters"][counter] += int(n)
    json.dump(s, open(path, "w"), indent=2)
PY
}
read_at "$work/first" 2026-12-05T12:00:00Z
read_at "$work/second" 2026-12-05T12:01:00Z leaf1:Ethernet0:pfc_rx_pause_3+600 host1:ens1f0np0:pfc_tx_pause_3+600
run "$bin" health -i "$root/inventory/lab" --since "$work/first" --snapshots "$work/second" -q
[ $rc -eq 0 ] || fail "clean: exit $rc: $(cat "$work/out" "$work/err")"
grep -qi "^no findings$" "$work/out" || fail "clean table: $(cat "$work/out")"

# A slow NIC under the pause threshold: host2's first NIC pauses leaf1 at 300/s, host1's at 10/s: it
# dominates rail 0, and is named for it alone.
cp -r "$work/second" "$work/slow"
read_at "$work/slow" 2026-12-05T12:01:00Z host2:ens1f0np0:pfc_tx_pause_3+18000 host1:ens1f0np0:pfc_tx_pause_3+600
run "$bin" health -i "$root/inventory/lab" --since "$work/first" --snapshots "$work/slow" -o json -q
/usr/bin/python3 - "$work/out" <<'PY' || fail "slow NIC: $(cat "$work/out")"
import json, sys
got = [(f["check"], f["status"], f["object"], f["observed"]) for f in json.load(open(sys.argv[1]))["findings"]]
assert got == [("health.pfc.slow_nic", "fail", "host2:ens1f0np0~leaf1:Ethernet8",
                "300/s pause frames sent, 97% of rail 0's; the others 10/s each")], got
PY

# The clean window saved as the fabric's normal; a third reading, at 20 times its pauses on one link but
# under the pause threshold, is named against the baseline (and as its rail's slow NIC), and triage puts
# that link first.
run "$bin" baseline save -i "$root/inventory/lab" --since "$work/first" --snapshots "$work/second" --out "$work/base"
[ $rc -eq 0 ] && [ -s "$work/base/baseline.json" ] && [ -s "$work/base/snapshots/leaf1.json" ] ||
  fail "baseline save: exit $rc: $(cat "$work/out" "$work/err")"
grep -q '"format": "fabricctl.baseline/v1"' "$work/base/baseline.json" || fail "baseline: $(head -c 500 "$work/base/baseline.json")"
cp -r "$work/second" "$work/third"
read_at "$work/third" 2026-12-05T12:02:00Z leaf1:Ethernet0:pfc_rx_pause_3+12600 host1:ens1f0np0:pfc_tx_pause_3+12600
run "$bin" health -i "$root/inventory/lab" --since "$work/second" --snapshots "$work/third" -q
[ $rc -eq 0 ] || fail "200 pauses a second without a baseline: exit $rc: $(cat "$work/out")"
run "$bin" health -i "$root/inventory/lab" --since "$work/second" --snapshots "$work/third" --baseline "$work/base" -o json -q
/usr/bin/python3 - "$work/out" <<'PY' || fail "against the baseline: $(cat "$work/out")"
import json, sys
got = {(f["check"], f["status"], f["object"], f["message"]) for f in json.load(open(sys.argv[1]))["findings"]}
# host1 now sends every pause of rail 0 (host2 none): the rail's slow NIC, the baseline's rates its
# consequences.
assert got == {("health.pfc.slow_nic", "fail", "host1:ens1f0np0~leaf1:Ethernet0",
                "host1:ens1f0np0 is the slow NIC of rail 0: it sends 100% of the rail's pauses"),
               ("health.baseline.rate", "consequence", "host1:ens1f0np0~leaf1:Ethernet0",
                "pfc_tx_pause_3 on host1:ens1f0np0 at 20x its baseline (200/s against 10/s)"),
               ("health.baseline.rate", "consequence", "leaf1:Ethernet0~host1:ens1f0np0",
                "pfc_rx_pause_3 on leaf1:Ethernet0 at 20x its baseline (200/s against 10/s)")}, got
PY
run "$bin" triage -i "$root/inventory/lab" --since "$work/second" --snapshots "$work/third" --baseline "$work/base"
[ $rc -eq 1 ] && grep -q '^1. host1:ens1f0np0~leaf1:Ethernet0  \[congestion, warning\]$' "$work/out" ||
  fail "triage against the baseline: exit $rc: $(cat "$work/out" "$work/err")"
echo '{"format": "fabricctl.baseline/v1", "devices": {"leaf1": {"window_ms": -1, "rises": {}}}}' >"$work/base/baseline.json"
run "$bin" health -i "$root/inventory/lab" --since "$work/second" --snapshots "$work/third" --baseline "$work/base"
[ $rc -eq 2 ] && grep -q 'baseline.json: devices.leaf1.window_ms: ' "$work/err" || fail "bad baseline: exit $rc: $(cat "$work/err")"

read_at "$work/second" 2026-12-05T12:01:00Z leaf1:Ethernet0:watchdog_storms_3+2 leaf1:Ethernet0:pfc_rx_pause_3+300000 \
  spine1:swp1:fcs_errors+40
run "$bin" health -i "$root/inventory/lab" --since "$work/first" --snapshots "$work/second" -o json -q
[ $rc -eq 1 ] || fail "faults: exit $rc: $(cat "$work/err")"
/usr/bin/python3 - "$work/out" <<'PY' || fail "findings: $(cat "$work/out")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema"] == "fabricctl.health/v1", r["schema"]
got = {(f["check"], f["status"], f["object"]) for f in r["findings"]}
assert got == {("health.pfc.storm", "fail", "host1:ens1f0np0~leaf1:Ethernet0"),
               ("health.pfc.pauses", "consequence", "host1:ens1f0np0~leaf1:Ethernet0"),
               ("health.pfc.slow_nic", "consequence", "host1:ens1f0np0~leaf1:Ethernet0"),
               ("health.link.errors", "fail", "spine1:swp1~leaf1:Ethernet48")}, got
PY
run "$bin" health -i "$root/inventory/lab" --since "$work/first" --snapshots "$work/second" -o prometheus -q
[ $rc -eq 1 ] || fail "prometheus: exit $rc"
promtool check metrics <"$work/out" || fail "promtool rejects the health metrics"
grep -q '^fabricctl_health_finding{check="health.pfc.storm",device="host1",peer="leaf1:Ethernet0",port="ens1f0np0",severity="error"} 1$' \
  "$work/out" || fail "no storm series: $(grep finding "$work/out")"
grep -q '^fabricctl_health_rate{counter="watchdog_storms_3",device="leaf1",port="Ethernet0"} 0.0333333$' "$work/out" ||
  fail "no storm rate gauge: $(grep '_rate' "$work/out" | head -5)"
# The Grafana dashboard of docs/fleet reads what health writes: each query is PromQL promtool parses (as a
# recording rule), and each metric it names is one the report above has.
/usr/bin/python3 - "$root/docs/fleet/grafana-health.json" "$work/out" "$work/rules.yml" <<'PY' || fail "grafana-health.json"
import json, re, sys
board, metrics = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
exprs = [t["expr"] for p in board["panels"] for t in p.get("targets", [])]
assert len(exprs) == len(board["panels"]), exprs
for e in exprs:
    for m in re.findall(r"fabricctl_[a-z_]+", e):
        assert re.search(r"^%s[{ ]" % m, metrics, re.M), "%s: no metric %s in health's output" % (e, m)
with open(sys.argv[3], "w") as f:
    f.write("groups:\n- name: dashboard\n  rules:\n")
    for i, e in enumerate(exprs):
        f.write("  - record: dashboard_query_%d\n    expr: %s\n" % (i, json.dumps(e)))
PY
promtool check rules "$work/rules.yml" >"$work/promtool" 2>&1 || fail "promtool rejects a dashboard query: $(cat "$work/promtool")"
run "$bin" health -i "$root/inventory/lab" --since "$work/first" --snapshots "$work/second" -o junit -q
/usr/bin/python3 -c "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); assert r.get('name') == 'fabricctl health', r.attrib" \
  "$work/out" || fail "junit: $(head -3 "$work/out")"

# A device with no second reading: named, the rest judged, exit 3.
rm "$work/second/spine1.json"
run "$bin" health -i "$root/inventory/lab" --since "$work/first" --snapshots "$work/second" -q
[ $rc -eq 3 ] || fail "a device read once: exit $rc"
grep -q "spine1: second reading" "$work/err" || fail "the missing reading is not named: $(cat "$work/err")"

run "$bin" health -i "$root/inventory/lab" --snapshots "$work/second"
[ $rc -eq 2 ] && grep -q -- "--since DIR is required" "$work/err" || fail "no --since: exit $rc: $(cat "$work/err")"
echo "ok health"

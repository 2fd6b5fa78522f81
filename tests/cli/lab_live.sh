#!/usr/bin/env bash
# The lab, live (tests/lab/lab.py; as root, which CI is): the lab inventory brought up in real network
# namespaces with sshd, lldpd and the NOS emulators, then read over SSH by fabricctl in the controller
# namespace. A clean lab collects as `snapshot --from-intent` says on every compared field, verifies clean,
# replays from its raw outputs; health and triage find nothing in a clean lab's counters, and each fault
# the lab's traffic model makes (tests/lab/traffic.py) is put first, alone, at its link; a full-MTU ping
# crosses it; the classic faults made out of band are found,
# exactly those, and the ping fails; an unreachable device is named while the others are verified
# (exit 3); `down` leaves nothing behind.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/lab.sh"     # lab_up, lab_down, ctl, run
lab_up "$root/inventory/lab"
inv="$state/inventory"
live=(-i "$inv" -p "$root/profiles" --known-hosts "$state/known_hosts")

# Collected live, the lab is what the intent says it is.
/usr/bin/python3 "$root/tests/lab/traffic.py" "$state" tick
run ctl "$bin" collect "${live[@]}" --out "$work/snaps" -q
[ $rc -eq 0 ] || fail "collect: exit $rc: $(cat "$work/err")"
"$bin" snapshot --from-intent -i "$inv" -p "$root/profiles" --out "$work/intent" >/dev/null
/usr/bin/python3 - "$work/snaps" "$work/intent" <<'PY' || fail "live collect differs from the intent"
import json, os, sys
live_dir, intent_dir = sys.argv[1:]
# Fields the intent's snapshot states and verify compares; what is left out is what no check judges:
SKIP = {
    "rdma.gids",  # the intent's are placeholders; the GID check only asks for a RoCE v2 one
}
def judged(platform, wp, gp):
    """What verify compares of a port: the priority->tc map at the priorities traffic reaches (with DSCP
    trust, those a DSCP maps to: EOS keeps traffic-class 7 for itself), the classes the intent uses, the
    watchdog's restoration where the platform can set it (not NVUE)."""
    wp, gp = json.loads(json.dumps(wp)), json.loads(json.dumps(gp))
    if wp.get("trust") == "dscp" and "priority_to_tc" in wp:
        used = set(wp["dscp_to_priority"])
        for x in (wp, gp):
            if "priority_to_tc" in x:
                x["priority_to_tc"] = [t if p in used else None for p, t in enumerate(x["priority_to_tc"])]
    if "ets" in wp and "ets" in gp:
        tcs = {e["tc"] for e in wp["ets"]}
        gp["ets"] = [e for e in gp["ets"] if e["tc"] in tcs]
    if platform == "nvue":
        for x in (wp, gp):
            x.get("pfc_watchdog", {}).pop("restoration_ms", None)
    return wp, gp
def flat(v, path=""):
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            out.update(flat(x, path + "." + k if path else k))
        return out
    return {path: v}
problems = []
for f in sorted(os.listdir(intent_dir)):
    want, got = json.load(open(os.path.join(intent_dir, f))), json.load(open(os.path.join(live_dir, f)))
    assert "unreadable" not in got, (f, got.get("unreadable"))
    for port, wp in want["ports"].items():
        gp = got["ports"].get(port)
        if gp is None:
            problems.append("%s %s: not collected" % (f, port))
            continue
        w, g = (flat(x) for x in judged(want.get("platform"), wp, gp))
        for k, v in w.items():
            if any(k == s or k.startswith(s + ".") for s in SKIP):
                continue
            if g.get(k) != v:
                problems.append("%s %s %s: %r, intent %r" % (f, port, k, g.get(k), v))
    if want.get("nccl") != got.get("nccl"):
        problems.append("%s nccl: %r, intent %r" % (f, got.get("nccl"), want.get("nccl")))
assert not problems, "\n".join(problems)
PY

# verify, live: clean, nothing missing.
run ctl "$bin" verify "${live[@]}" -q -o json
[ $rc -eq 0 ] || fail "live verify of the clean lab: exit $rc: $(head -c 3000 "$work/out") $(cat "$work/err")"
/usr/bin/python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["summary"]["results"]
assert s["missing"] == 0 and s["fail"] == 0, s' "$work/out" || fail "clean lab: $(cat "$work/out" | head -c 2000)"

# Health and triage over the lab's traffic (tests/lab/traffic.py: the counters of a working fabric, ticked
# before each reading, and faults made in them or, for a flap, in the real veths). Three windows of a clean
# lab: no finding from health, no suspect from triage, live and from saved readings alike. Then each fault
# in a window of its own: triage puts it first, alone, at its link, with health's finding as the evidence.
traffic() { /usr/bin/python3 "$root/tests/lab/traffic.py" "$state" "$@"; }
n=0
reading() {  # the counters ticked, then the lab read into $work/r$n
  traffic tick
  n=$((n + 1))
  run ctl "$bin" collect "${live[@]}" --out "$work/r$n" -q
  [ $rc -eq 0 ] || fail "collect r$n: exit $rc: $(cat "$work/err")"
}
offline=(-i "$inv" -p "$root/profiles")
ln -s "$work/snaps" "$work/r0"  # the first collect, ticked before it
for i in 1 2 3; do
  reading
  run "$bin" health "${offline[@]}" --since "$work/r$((n - 1))" --snapshots "$work/r$n"
  [ $rc -eq 0 ] && grep -qi '^no findings$' "$work/out" || fail "health of the clean lab, window $i: exit $rc: $(cat "$work/out" "$work/err")"
  run "$bin" triage "${offline[@]}" --since "$work/r$((n - 1))" --snapshots "$work/r$n"
  [ $rc -eq 0 ] && grep -q ': no suspect$' "$work/out" || fail "triage of the clean lab, window $i: exit $rc: $(cat "$work/out" "$work/err")"
done
# EOS's PFC frames and ECN marks move with the traffic, read from the counter commands as leaf2's emulator
# prints them: pauses both ways on its host ports, marks on the RoCE queue toward each host.
/usr/bin/python3 - "$work/r2/leaf2.json" "$work/r3/leaf2.json" <<'PY' || fail "leaf2's PFC and ECN counters"
import json, sys
a, b = ({n: p.get("counters", {}) for n, p in json.load(open(f))["ports"].items()} for f in sys.argv[1:])
for port in ("Ethernet1/1", "Ethernet2/1"):
    for c in ("pfc_rx_pause", "pfc_tx_pause", "ecn_marked_3"):
        assert b[port][c] > a[port][c], (port, c, a[port], b[port])
PY
# So do NVUE's, per priority, from each port's `counters qos` (spine1, toward the leaves).
/usr/bin/python3 - "$work/r2/spine1.json" "$work/r3/spine1.json" <<'PY' || fail "spine1's PFC counters"
import json, sys
a, b = ({n: p.get("counters", {}) for n, p in json.load(open(f))["ports"].items()} for f in sys.argv[1:])
for port in b:
    for c in ("pfc_rx_pause_3", "pfc_tx_pause_3"):
        assert b[port][c] > a[port][c], (port, c, a[port], b[port])
PY
traffic tick
run ctl "$bin" triage "${live[@]}" --since "$work/r$n" -q
[ $rc -eq 0 ] || fail "live triage of the clean lab: exit $rc: $(cat "$work/out" "$work/err")"

# fault KIND WHERE LINK CHECK: the fault for one window; triage names LINK alone, CHECK among its evidence.
fault() {
  traffic fault "$1" "$2"
  reading
  traffic clear
  run "$bin" triage "${offline[@]}" --since "$work/r$((n - 1))" --snapshots "$work/r$n" -o json
  [ $rc -eq 1 ] || fail "$1 on $2: triage exit $rc: $(cat "$work/out" "$work/err")"
  /usr/bin/python3 - "$work/out" "$3" "$4" <<'PY' || fail "$1 on $2: $(cat "$work/out")"
import json, sys
r, place, check = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
suspects = [(s["place"], [e["check"] for e in s["evidence"]]) for s in r["suspects"]]
assert len(suspects) == 1 and suspects[0][0] == place and check in suspects[0][1], suspects
PY
}
fault slow-receiver host1:ens1f0np0 host1:ens1f0np0~leaf1:Ethernet0 health.pfc.pauses
fault storm host1:ens1f0np0 host1:ens1f0np0~leaf1:Ethernet0 health.pfc.storm
grep -q '"health.pfc.pauses"' "$work/out" || fail "storm: its pauses are not evidence under it: $(cat "$work/out")"
fault cnp-broken host2:ens2f0np0 host2:ens2f0np0~leaf2:Ethernet2/1 health.dcqcn.cnp
fault rp-off host1:ens2f0np0 host1:ens2f0np0~leaf2:Ethernet1/1 health.dcqcn.reaction
fault lossless-drops host2:ens1f0np0 host2:ens1f0np0~leaf1:Ethernet8 health.lossless.drops
# SONiC's ingress PG of the lossless priority drops: the fix names the cable and the buffer table's row.
fault lossless-drops leaf1:Ethernet0 host1:ens1f0np0~leaf1:Ethernet0 health.lossless.drops
grep -q 'cable_lengths_m\|row' "$work/out" || fail "SONiC's lossless drops: no buffer row: $(cat "$work/out")"
fault crc leaf2:Ethernet1/1 host1:ens2f0np0~leaf2:Ethernet1/1 health.link.errors
fault crc spine1:swp2 leaf2:Ethernet48/1~spine1:swp2 health.link.errors  # NVUE's in-errors
fault retransmit host1:ens2f0np0 host1:ens2f0np0~leaf2:Ethernet1/1 health.rdma.retransmissions
fault flap host2:ens1f0np0 host2:ens1f0np0~leaf1:Ethernet8 health.link.flap
# The storm, as health tells it: the NIC that sends the pauses is named, the pause rate a consequence.
run "$bin" health "${offline[@]}" --since "$work/r4" --snapshots "$work/r5" -o json
[ $rc -eq 1 ] || fail "health of the storm: exit $rc: $(cat "$work/out" "$work/err")"
/usr/bin/python3 - "$work/out" <<'PY' || fail "health: $(cat "$work/out")"
import json, sys
got = {(f["check"], f["status"], f["object"]) for f in json.load(open(sys.argv[1]))["findings"]}
assert got == {("health.pfc.storm", "fail", "host1:ens1f0np0~leaf1:Ethernet0"),
               ("health.pfc.pauses", "consequence", "host1:ens1f0np0~leaf1:Ethernet0"),
               ("health.pfc.slow_nic", "consequence", "host1:ens1f0np0~leaf1:Ethernet0")}, got
PY

# health --watch, as a service runs it: two judgements a second apart, each replacing the Prometheus text
# file node_exporter reads (promtool accepts it); --samples alone is a usage error.
run ctl "$bin" health "${live[@]}" --watch 1 --samples 2 --textfile "$work/health.prom" --html "$work/health.html" -q
[ $rc -eq 0 ] && [ -s "$work/health.prom" ] || fail "health --watch: exit $rc: $(cat "$work/err")"
grep -q '<p>No findings.</p>' "$work/health.html" || fail "health --watch --html: $(head -c 2000 "$work/health.html")"
promtool check metrics <"$work/health.prom" || fail "promtool rejects the watch's file"
grep -q '^fabricctl_health_devices_checked 5$' "$work/health.prom" || fail "watch: $(cat "$work/health.prom")"
# --interval: both readings taken live, a second apart, one judgement with health's exit code.
run ctl "$bin" health "${live[@]}" --interval 1 -q
[ $rc -eq 0 ] && grep -qi '^no findings$' "$work/out" || fail "health --interval 1: exit $rc: $(cat "$work/out" "$work/err")"
run "$bin" health "${offline[@]}" --since "$work/r0" --samples 2
[ $rc -eq 2 ] && grep -q -- '--samples goes with --watch S' "$work/err" || fail "--samples alone: exit $rc: $(cat "$work/err")"

# Acceptance: each rail's pair of host ports runs ib_write_bw over SSH (the hosts' perftest double,
# tests/lab/perftest.py: real TCP between the hosts' management addresses, the bandwidth modelled): both at
# the bar; a NIC in a narrow PCIe slot (traffic.py slow-pcie) puts its rail's pair below it, alone; the
# kept reports judge the same again from --from-raw, and the JSON is kept beside a baseline.
run ctl "$bin" acceptance "${live[@]}" --out "$work/bw" --baseline "$work/accepted"
[ $rc -eq 0 ] && [ "$(ls "$work/bw/ib_write_bw" | wc -l)" -eq 2 ] || fail "acceptance: exit $rc: $(cat "$work/out" "$work/err")"
grep -q '"result": "pass"' "$work/accepted/acceptance.json" || fail "acceptance.json: $(cat "$work/accepted/acceptance.json")"
traffic fault slow-pcie host1:ens2f0np0
run ctl "$bin" acceptance "${live[@]}" -o json
traffic clear
[ $rc -eq 1 ] || fail "acceptance with a slow NIC: exit $rc: $(cat "$work/out" "$work/err")"
/usr/bin/python3 - "$work/out" <<'PY' || fail "acceptance with a slow NIC: $(cat "$work/out")"
import json, sys
got = {(p["client"], p["server"]): p["result"] for p in json.load(open(sys.argv[1]))["pairs"]}
assert got == {("host1:ens1f0np0", "host2:ens1f0np0"): "pass", ("host1:ens2f0np0", "host2:ens2f0np0"): "below"}, got
PY
run "$bin" acceptance "${offline[@]}" --from-raw "$work/bw"
[ $rc -eq 0 ] && grep -q '2 pairs: 2 at 90% of the line rate or more, 0 below' "$work/out" ||
  fail "acceptance --from-raw of the kept reports: exit $rc: $(cat "$work/out" "$work/err")"

# The raw outputs replay into the same snapshots.
run "$bin" collect -i "$inv" -p "$root/profiles" --out "$work/replay" --from-raw "$work/snaps/raw" -q
[ $rc -eq 0 ] || fail "--from-raw: exit $rc: $(cat "$work/err")"
for f in "$work/snaps"/*.json; do
  diff <(grep -v '"collected_at"\|"source"' "$f") <(grep -v '"collected_at"\|"source"' "$work/replay/$(basename "$f")") ||
    fail "--from-raw differs for $(basename "$f")"
done

# The data plane: a 9000-byte don't-fragment ping crosses leaf2 from host1 to host2 (rail 1).
"$state/ns" host1 ping -c 1 -W 2 -M do -s 8972 10.0.1.2 >/dev/null || fail "full-MTU ping of the clean lab"
# Across the spine, routed: host1's rail-0 NIC to host2's rail-1 address goes leaf1 -> spine1 -> leaf2
# (a TTL of 2 expires at spine1, whose swp1 is 10.255.0.1: tests/lab/dataplane.py).
"$state/ns" host1 ping -c 1 -W 2 -M do -s 8972 -I ens1f0np0 10.0.1.2 >/dev/null || fail "full-MTU ping across spine1"
hop=$("$state/ns" host1 ping -c 1 -W 2 -t 2 -I ens1f0np0 10.0.1.2 2>&1 || true)
grep -q '^From 10.255.0.1 .*Time to live exceeded' <<<"$hop" || fail "the second hop is not spine1: $hop"

# The classic faults, out of band: PFC priority 3 off on leaf1:Ethernet0 through SONiC's own CLI, and
# host2:ens2f0np0 at MTU 1500 with ip link. verify names those two ports and nothing else.
"$state/ns" leaf1 env SSH_ORIGINAL_COMMAND="config interface pfc priority Ethernet0 3 off" \
  /usr/bin/python3 "$root/tests/lab/emulators/sonic.py" "$state/leaf1/state"
"$state/ns" host2 ip link set ens2f0np0 mtu 1500
run ctl "$bin" verify "${live[@]}" -q -o json
[ $rc -eq 1 ] || fail "live verify of the faults: exit $rc: $(cat "$work/err")"
/usr/bin/python3 - "$work/out" <<'PY' || fail "the faults: $(head -c 3000 "$work/out")"
import json, sys
r = json.load(open(sys.argv[1]))
errors = {(f["check"], f["object"]) for f in r["findings"] if f["status"] == "fail" and f["severity"] == "error"}
roots = {(c, o) for c, o in errors}
assert ("port.pfc.drift", "leaf1:Ethernet0") in roots, errors
assert ("port.mtu.drift", "host2:ens2f0np0") in roots, errors
objects = {o for _, o in errors}
assert objects <= {"leaf1:Ethernet0", "host1:ens1f0np0", "host2:ens2f0np0", "leaf2:Ethernet2/1",
                   "host1:ens1f0np0 <-> leaf1:Ethernet0", "host2:ens2f0np0 <-> leaf2:Ethernet2/1"}, objects
PY
if "$state/ns" host1 ping -c 1 -W 2 -M do -s 8972 10.0.1.2 >/dev/null 2>&1; then
  fail "the full-MTU ping passed with host2's NIC at MTU 1500"
fi

# An unreachable device: spine1's sshd stopped. It is named with the reason, the others are verified,
# and the exit code is 3.
kill "$(cat "$state/spine1/sshd.pid")"
run ctl "$bin" verify "${live[@]}" -q -o json --connect-timeout 2
[ $rc -eq 3 ] || fail "unreachable spine1: exit $rc: $(cat "$work/err")"
grep -q 'spine1' "$work/err" || fail "unreachable spine1 not named: $(cat "$work/err")"
grep -q '"object": "host2:ens2f0np0"' "$work/out" || fail "the other devices were not verified"

lab_down
echo "ok lab_live"

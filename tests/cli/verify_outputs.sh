#!/usr/bin/env bash
# verify's filters, exit codes and report formats on the lab's classic snapshot set, read back by
# real consumers: python3-junitparser for JUnit, promtool for Prometheus.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
v() { "$bin" verify -i inventory/lab --snapshots "$snaps" "$@"; }
snaps=tests/snapshots/lab-classic

# JUnit: one test case per check x object; counts agree with the JSON report.
set +e; v -o junit >"$work/junit.xml"; rc=$?; v -o json >"$work/report.json"; set -e
[ $rc -eq 1 ] || fail "junit run: exit $rc, want 1"
/usr/bin/python3 - "$work/junit.xml" "$work/report.json" <<'PY'
import json, sys
from junitparser import JUnitXml, Failure, Skipped
xml = JUnitXml.fromfile(sys.argv[1])
report = json.load(open(sys.argv[2]))
cases = [(s.name, c.name, c.result) for s in xml for c in s]
names = [(s, n) for s, n, _ in cases]
assert len(names) == len(set(names)), "test case names are not unique"
failures = sum(1 for _, _, r in cases if any(isinstance(x, Failure) for x in r))
skipped = sum(1 for _, _, r in cases if any(isinstance(x, Skipped) for x in r))
res = report["summary"]["results"]
assert len(cases) == res["pass"] + res["fail"] + res["missing"] + res["consequence"], (len(cases), res)
# The two faults fail; what they cause is skipped, naming its cause, so JUnit counts faults like verify.
assert failures == res["fail"] == 2, (failures, res)
assert skipped == res["missing"] + res["consequence"], (skipped, res)
consequences = [x for _, _, r in cases for x in r if isinstance(x, Skipped) and x.message.startswith("consequence of ")]
assert len(consequences) == res["consequence"] == 3, (consequences, res)
assert ("link.pfc.mismatch", "host2:ens1f0np0~leaf1:Ethernet8") in names
PY

# Prometheus: accepted by promtool, and counts the findings.
set +e; v -o prometheus >"$work/metrics.prom"; set -e
promtool check metrics <"$work/metrics.prom" || fail "promtool rejects the metrics"
grep -q '^fabricctl_verify_findings{check="port.pfc.drift",severity="error"} 1$' "$work/metrics.prom" ||
  fail "no port.pfc.drift series: $(grep findings "$work/metrics.prom" | head -5)"
grep -q '^fabricctl_verify_findings{check="link.pfc.mismatch",severity="error"} 0$' "$work/metrics.prom" ||
  fail "a consequence is counted as a finding"
grep -q '^fabricctl_verify_results{status="consequence"} 3$' "$work/metrics.prom" || fail "consequences not counted apart"
grep -q '^fabricctl_verify_links_checked 6$' "$work/metrics.prom" || fail "links_checked is not 6"
# Where: the drifted port by name, so an alert can say which one; the consequences have no series.
grep -q '^fabricctl_verify_finding{check="port.pfc.drift",device="leaf1",peer="",port="Ethernet8",severity="error"} 1$' \
  "$work/metrics.prom" || fail "no series for the drifted port: $(grep '^fabricctl_verify_finding{' "$work/metrics.prom")"
grep -q '^fabricctl_verify_finding{check="link.pfc.mismatch"' "$work/metrics.prom" && fail "a consequence has a finding series"
# When: the run's time, for a staleness alert.
ran=$(sed -n 's/^fabricctl_verify_run_timestamp_seconds \([0-9]*\)$/\1/p' "$work/metrics.prom")
[ -n "$ran" ] && [ $(($(date +%s) - ran)) -ge 0 ] && [ $(($(date +%s) - ran)) -lt 600 ] ||
  fail "run timestamp ${ran:-absent}, now $(date +%s)"

# Filters.
set +e
v --check 'link.*' -o json >"$work/links.json"; rc=$?
set -e
[ $rc -eq 1 ] || fail "--check link.*: exit $rc"
# Without the port checks, the PFC disagreement and RoCE landing in a lossy priority have no reported
# cause: each is a fault of its own again.
/usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert {f['check'] for f in r['findings'] if f['status']=='fail'} == {'link.pfc.mismatch', 'link.roce.class'}, r" "$work/links.json"
v --skip 'link.pfc.*' --skip 'link.roce.*' --skip 'port.*' --skip 'rdma.*' -o json >/dev/null ||
  fail "all failing checks skipped should exit 0"
v --limit spine1 -o json >/dev/null || fail "--limit spine1 should see no errors"
set +e; v --limit 'host*' -o json >/dev/null; rc=$?; set -e
[ $rc -eq 1 ] || fail "--limit host*: exit $rc, want 1"
set +e; v --limit leaves --check 'link.pfc.*' -o json >"$work/group.json"; rc=$?; set -e
[ $rc -eq 1 ] || fail "--limit leaves (a group): exit $rc, want 1"
v --severity error --check 'port.watchdog.*' -o json >/dev/null || fail "--severity error without errors should exit 0"

# Usage errors exit 2 and name the problem.
set +e
out=$(v --check 'link.pfc.mismatc' 2>&1); rc=$?
set -e
[ $rc -eq 2 ] && grep -q 'did you mean "link.pfc.mismatch"' <<<"$out" || fail "unknown check: exit $rc: $out"
set +e; out=$(v -o yaml 2>&1); rc=$?; set -e
[ $rc -eq 2 ] || fail "-o yaml: exit $rc"
set +e; out=$(v --limit nothing-matches 2>&1); rc=$?; set -e
[ $rc -eq 2 ] || fail "--limit without match: exit $rc"

# A device without a snapshot: reported, the rest verified, exit 3.
cp -r tests/snapshots/lab-good "$work/partial"
rm "$work/partial/leaf2.json"
set +e; "$bin" verify -i inventory/lab --snapshots "$work/partial" -o json >"$work/partial.json" 2>"$work/partial.err"; rc=$?; set -e
[ $rc -eq 3 ] || fail "missing snapshot: exit $rc, want 3"
grep -q "leaf2" "$work/partial.err" || fail "missing snapshot not reported on stderr"
/usr/bin/python3 -c "
import json,sys
r=json.load(open(sys.argv[1]))
assert 'leaf2' in r['summary']['unreadable'], r['summary']
assert r['summary']['devices_checked'] == 4, r['summary']
assert r['summary']['results']['fail'] == 0, r['summary']
assert r['summary']['results']['missing'] > 0, r['summary']
" "$work/partial.json"

# A corrupt snapshot is unreadable too (exit 3), never a crash.
cp -r tests/snapshots/lab-good "$work/corrupt"
printf '{"schema": "fabricctl.snapshot/v1", "device": "leaf1", "ports": ' >"$work/corrupt/leaf1.json"
set +e; "$bin" verify -i inventory/lab --snapshots "$work/corrupt" -o json >/dev/null 2>"$work/corrupt.err"; rc=$?; set -e
[ $rc -eq 3 ] || fail "corrupt snapshot: exit $rc, want 3"
grep -q "leaf1" "$work/corrupt.err" || fail "corrupt snapshot not reported"
# One bad port makes that port unreadable, not its device: the rest of leaf1 is still verified.
cp -r tests/snapshots/lab-good "$work/badport"
/usr/bin/python3 - "$work/badport/leaf1.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); s["ports"]["Ethernet8"]["mtu"] = "lots"; json.dump(s, open(sys.argv[1], "w"))
PY
set +e; "$bin" verify -i inventory/lab --snapshots "$work/badport" -o json >"$work/badport.json" 2>"$work/badport.err"; rc=$?; set -e
[ $rc -eq 3 ] || fail "bad port: exit $rc, want 3"
grep -q '^fabricctl: leaf1: port Ethernet8 unreadable: ports.Ethernet8.mtu: expected an integer, got a string "lots"$' \
  "$work/badport.err" || fail "bad port not named on stderr: $(cat "$work/badport.err")"
/usr/bin/python3 - "$work/badport.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["summary"]["unreadable"] == {}, r["summary"]
assert r["summary"]["devices_checked"] == 5, r["summary"]
missing = {(f["check"], f["object"]) for f in r["findings"] if f["status"] == "missing"}
assert missing and all("leaf1:Ethernet8" in o for _, o in missing), missing
PY

# A readable snapshot that lacks the ports the checks need: incomplete, exit 3, never "no findings".
cp -r tests/snapshots/lab-good "$work/hollow"
/usr/bin/python3 - "$work/hollow/leaf1.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); s["ports"] = {}; json.dump(s, open(sys.argv[1], "w"))
PY
set +e; "$bin" verify -i inventory/lab --snapshots "$work/hollow" -o table >"$work/hollow.txt" 2>"$work/hollow.err"; rc=$?; set -e
[ $rc -eq 3 ] || fail "snapshot without ports: exit $rc, want 3"
grep -q "no findings" "$work/hollow.txt" && fail "incomplete audit printed 'no findings'"
grep -q "lack of required state" "$work/hollow.err" || fail "incomplete audit not reported on stderr"
# stderr and the report count the same results.
n=$(sed -n 's/^fabricctl: \([0-9]*\) results* could not be compared for lack of required state.*/\1/p' "$work/hollow.err")
grep -q "missing data: .*$n of them for lack of required state\|missing data: $n results* could not be compared, all for lack" "$work/hollow.txt" ||
  fail "stderr says $n results lack required state; the table: $(grep 'missing data' "$work/hollow.txt")"

# Selections that leave nothing to run are usage errors.
set +e; out=$(v --check 'link.*' --skip 'link.*' 2>&1); rc=$?; set -e
[ $rc -eq 2 ] || fail "empty selection: exit $rc, want 2: $out"

# A report that cannot be written is never a clean audit.
if [ -w /dev/full ]; then
  set +e; "$bin" verify -i inventory/lab --snapshots tests/snapshots/lab-good -o json >/dev/full 2>/dev/null; rc=$?; set -e
  [ $rc -eq 3 ] || fail "write to /dev/full: exit $rc, want 3"
fi

# --severity hides warnings from Prometheus instead of reporting them as 0.
v -o prometheus --severity error >"$work/sev.prom" || true
grep -q 'severity="warning"' "$work/sev.prom" && fail "--severity error still exports warning series"
promtool check metrics <"$work/sev.prom" || fail "promtool rejects --severity output"
echo "verify outputs: ok"

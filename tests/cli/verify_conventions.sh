#!/usr/bin/env bash
# verify's output and exit conventions (docs/cli.md): the table is the default with or without a
# terminal; colour follows --color and NO_COLOR; --report writes several formats from one run, read
# back by real consumers (junitparser, promtool); compact JUnit; --exit-zero; --severity counts what
# it hides; progress only on a terminal (a real pty from script(1)) and never with -q; a down port
# is a finding whose speed is not applicable rather than missing.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
classic=tests/snapshots/lab-classic
v() { "$bin" verify -i inventory/lab "$@"; }
run() { set +e; "$@"; rc=$?; set -e; }
# In a pseudo-terminal: stdout and stderr of the command, as a terminal user sees them.
on_tty() { script -qec "$*" /dev/null; }

# Table by default, also into a file or a pipe; no colour without a terminal.
run v -s $classic >"$work/default.out"
[ $rc -eq 1 ] || fail "default run: exit $rc, want 1"
grep -qE '^2 errors, 0 warnings, 0 info \(\+3 caused by them\); [0-9]+ checks passed' "$work/default.out" ||
  fail "default output is not the table: $(head -3 "$work/default.out")"
! grep -q $'\e\[' "$work/default.out" || fail "colour in a file without --color always"
run v -s $classic --color always >"$work/always.out"
grep -q $'\e\[' "$work/always.out" || fail "--color always: no colour"
on_tty "$bin verify -i inventory/lab -s $classic" >"$work/tty.out" || true
grep -q $'\e\[31m' "$work/tty.out" || fail "auto on a terminal: no colour"
on_tty "NO_COLOR=1 $bin verify -i inventory/lab -s $classic -q" >"$work/nocolor.out" || true
! grep -q $'\e\[3' "$work/nocolor.out" || fail "NO_COLOR=1 on a terminal: still coloured"
on_tty "NO_COLOR=1 $bin verify -i inventory/lab -s $classic --color always" >"$work/forced.out" || true
grep -q $'\e\[31m' "$work/forced.out" || fail "--color always must win over NO_COLOR"
run v -s $classic --color sometimes
[ $rc -eq 2 ] || fail "--color sometimes: exit $rc, want 2"

# Progress on a terminal's stderr, erased; none with -q, none without a terminal.
grep -q 'fabricctl: running [0-9]* checks\.\.\.' "$work/tty.out" || fail "no progress on a terminal: $(head -c 300 "$work/tty.out")"
grep -q 'fabricctl: running' "$work/nocolor.out" && fail "-q still shows progress"
# Errors of the intent never land on a progress line.
on_tty "$bin verify -i $work/no-such-inventory -s $classic" >"$work/tty-invalid.out" || true
grep -q 'no such inventory' "$work/tty-invalid.out" || fail "invalid input on a terminal: $(cat "$work/tty-invalid.out")"
! grep -q '\.\.\.' "$work/tty-invalid.out" || fail "progress before an input error: $(cat -v "$work/tty-invalid.out")"
run v -s $classic 2>"$work/pipe.err" >/dev/null
! grep -q 'running' "$work/pipe.err" || fail "progress without a terminal: $(cat "$work/pipe.err")"

# Several reports from one run, plus stdout in another format.
run v -s $classic -o json --report junit="$work/r.xml" --report prometheus="$work/r.prom" --report table="$work/r.txt" >"$work/r.json"
[ $rc -eq 1 ] || fail "--report run: exit $rc, want 1"
promtool check metrics <"$work/r.prom" || fail "promtool rejects the --report prometheus file"
grep -q '^fabricctl_verify_results{status="consequence"} 3$' "$work/r.prom" || fail "prometheus report file content"
grep -q '^2 errors' "$work/r.txt" || fail "table report file content"
! grep -q $'\e\[' "$work/r.txt" || fail "a report file is coloured"
/usr/bin/python3 - "$work/r.xml" "$work/r.json" <<'PY'
import json, sys
from junitparser import JUnitXml, Failure
xml = JUnitXml.fromfile(sys.argv[1]); report = json.load(open(sys.argv[2]))
cases = [c for s in xml for c in s]
res = report["summary"]["results"]
assert len(cases) == res["pass"] + res["fail"] + res["missing"] + res["consequence"], (len(cases), res)
assert sum(1 for c in cases if any(isinstance(x, Failure) for x in c.result)) == 2
PY
ls -a "$work" | grep -q '\.tmp$' && fail "a temporary report file was left behind"
for bad in 'junit' 'jnit=x.xml' 'json=' ; do
  run v -s $classic --report "$bad"
  [ $rc -eq 2 ] || fail "--report $bad: exit $rc, want 2"
done
out=$(v -s $classic --report jnit=x.xml 2>&1 || true)
grep -q 'unknown report format "jnit"; did you mean "junit"?' <<<"$out" || fail "--report typo: $out"
out=$(v -s $classic --report json="$work/a" --report junit="$work/a" 2>&1 || true)
grep -q 'names ".*/a" twice' <<<"$out" || fail "--report to one file twice: $out"
run v -s $classic --report json="$work/no/such/dir/r.json" >/dev/null 2>"$work/nodir.err"
[ $rc -eq 3 ] || fail "--report into a missing directory: exit $rc, want 3"
grep -q 'no/such/dir/r.json' "$work/nodir.err" || fail "unwritable report not named: $(cat "$work/nodir.err")"

# Compact JUnit: failures, missing and consequences, plus one case per check that passed everywhere.
run v -s $classic -o junit --junit-cases compact >"$work/compact.xml"
[ $rc -eq 1 ] || fail "compact junit: exit $rc"
/usr/bin/python3 - "$work/compact.xml" "$work/r.json" <<'PY'
import json, sys
from junitparser import JUnitXml, Failure, Skipped
xml = JUnitXml.fromfile(sys.argv[1]); report = json.load(open(sys.argv[2]))
res = report["summary"]["results"]
suites = list(xml)
everywhere = [s.name for s in suites for c in s if c.name == "passed everywhere"]
listed = [c for s in suites for c in s if c.name != "passed everywhere"]
assert len(listed) == res["fail"] + res["missing"] + res["consequence"], (len(listed), res)
assert sum(1 for c in listed if any(isinstance(x, Failure) for x in c.result)) == 2
assert everywhere, "no check passed everywhere"
# A check with a failure gets no 'passed everywhere' case; one without gets exactly one.
failing = {s.name for s in suites for c in s if any(isinstance(x, Failure) for x in c.result)}
assert not failing & set(everywhere), failing & set(everywhere)
assert len(everywhere) == len(set(everywhere))
for s in suites:
    assert s.tests == len(list(s)), (s.name, s.tests, len(list(s)))
passed = {s.name: int(p.value) for s in suites for p in s.properties() if p.name == "passed"}
assert sum(passed.values()) == res["pass"], (sum(passed.values()), res["pass"])
PY
run v -s $classic -o junit --junit-cases some
[ $rc -eq 2 ] || fail "--junit-cases some: exit $rc, want 2"

# --exit-zero: findings do not fail the run; an incomplete audit still does.
run v -s $classic --exit-zero -o json >/dev/null
[ $rc -eq 0 ] || fail "--exit-zero with findings: exit $rc, want 0"
cp -r tests/snapshots/lab-good "$work/partial" && rm "$work/partial/leaf2.json"
run v -s "$work/partial" --exit-zero -q >/dev/null 2>&1
[ $rc -eq 3 ] || fail "--exit-zero with a device unread: exit $rc, want 3"

# --severity says what it hid.
run v -s $classic --severity error -o json >"$work/sev.json"
/usr/bin/python3 -c "import json,sys; h=json.load(open(sys.argv[1]))['summary']['hidden']; assert h['min_severity']=='error' and set(h)=={'min_severity','warning','info'}, h" "$work/sev.json"

# A down port is the finding; its missing speed is not applicable, not missing data (exit 1, not 3).
cp -r tests/snapshots/lab-good "$work/down"
/usr/bin/python3 - "$work/down/leaf1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); p = d["ports"]["Ethernet0"]
p["oper_status"] = "down"; p.pop("speed_mbps")
json.dump(d, open(sys.argv[1], "w"), indent=1)
PY
run v -s "$work/down" -o json >"$work/down.json"
[ $rc -eq 1 ] || fail "a down port: exit $rc, want 1 (a finding, nothing missing)"
/usr/bin/python3 - "$work/down.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
fails = [f for f in r["findings"] if f["status"] == "fail"]
assert [f["check"] for f in fails] == ["link.oper.down"], fails
assert r["summary"]["results"]["missing"] == 0, r["summary"]
assert r["summary"]["results"]["not_applicable"] >= 1, r["summary"]
assert not any(f["check"] == "link.speed.mismatch" for f in r["findings"]), r["findings"]
PY

# The check catalog for tools.
v --list-checks -o json >"$work/checks.json"
v --list-checks >"$work/checks.txt"
/usr/bin/python3 - "$work/checks.json" "$work/checks.txt" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["schema"] == "fabricctl.checks/v1"
ids = [c["id"] for c in doc["checks"]]
assert ids == [l.split()[0] for l in open(sys.argv[2]) if l.strip()], ids
assert all(c["severity"] in ("error", "warning", "info") and c["summary"] for c in doc["checks"])
PY
run v --list-checks -o junit
[ $rc -eq 2 ] || fail "--list-checks -o junit: exit $rc, want 2"
echo "verify conventions: ok"

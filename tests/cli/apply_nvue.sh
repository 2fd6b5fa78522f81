#!/usr/bin/env bash
# fabricctl plan and apply against two NVUE switches at factory defaults, each a real sshd on 127.0.0.1 in
# front of the NVUE emulator (tests/lab/emulators/nvue.py: pending and applied revisions, a real-time
# confirm timer): the plan of a factory switch and its detailed exit code; a saved plan applied exactly,
# verified and confirmed; a second apply that changes nothing; a saved plan refused once a switch changed;
# a switch whose apply fails rolled back and named while the other completes (exit 3); SIGINT or SIGTERM
# between stage and confirm rolling back at once; SIGKILL there leaving the switch to its own timer (fired
# by the emulator's hook: lab_revert.sh waits for one in real time); the audit record. (The lab runs every
# platform together: lab_apply.sh.)
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/sshd.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib/wait.sh"   # newest_record, records_in, staged_in, until_ok
need_sshd
. "$(dirname "${BASH_SOURCE[0]}")/lib/switches.sh"  # two_switches, run
two_switches nvue swp1 swp2
# NVUE has no restoration time (PFC comes back one polling interval after a storm): the profile says so.
mkdir -p "$work/profiles"
sed 's/^  restoration_ms: .*/  restoration_ms: 100/' "$root/profiles/roce-lossless.yaml" >"$work/profiles/roce-lossless.yaml"
for sw in sw1 sw2; do /usr/bin/python3 "$emulator" "$work/$sw/state" --factory; done
live=(-i "$inv" -p "$work/profiles" --known-hosts "$kh" -q)
"$bin" collect "${live[@]}" --accept-new-host-keys --out "$work/first" >/dev/null
audit="$work/audit"
nv() { SSH_ORIGINAL_COMMAND="$2" /usr/bin/python3 "$emulator" "$work/$1/state"; }
status_of() {  # status_of JSON DEVICE: its plan status
  /usr/bin/python3 -c 'import json,sys; print({d["device"]: d["status"] for d in json.load(open(sys.argv[1]))["devices"]}[sys.argv[2]])' "$1" "$2"
}

# Factory switches: both change; --detailed-exitcode says so (1); the native change is NVUE commands.
run "$bin" plan "${live[@]}" --detailed-exitcode -o json
[ $rc -eq 1 ] || fail "plan of factory switches: exit $rc: $(cat "$work/err")"
[ "$(status_of "$work/out" sw1)" = change ] && [ "$(status_of "$work/out" sw2)" = change ] || fail "plan: $(head -c 2000 "$work/out")"
grep -q 'nv set' "$work/out" || fail "plan: no nv set in the change"
run "$bin" plan "${live[@]}" --out "$work/plan"
[ $rc -eq 0 ] || fail "plan --out: exit $rc: $(cat "$work/err")"
[ -s "$work/plan/plan.json" ] && [ -s "$work/plan/sw1/commands.nvue" ] || fail "plan --out wrote $(ls -R "$work/plan")"
grep -q '^DEVICE  PLATFORM  PLAN' "$work/out" || fail "plan table: $(head -5 "$work/out")"

# Changing devices takes --yes: without it (no terminal), nothing is changed.
run "$bin" apply "${live[@]}" --plan "$work/plan" --audit-dir "$audit" </dev/null
[ $rc -eq 2 ] && grep -q 'give --yes' "$work/err" || fail "apply without --yes: exit $rc: $(cat "$work/err")"
! compgen -G "$audit/*.jsonl" >/dev/null || fail "apply without --yes wrote an audit record: $(ls "$audit")"
# Steps that cannot be: refused before anything is read, each value quoted; --pause needs a terminal.
for bad in "--batch 0" "--batch 101%" "--by pod" "--health-gate -1"; do
  run "$bin" apply "${live[@]}" --yes --audit-dir "$audit" $bad
  [ $rc -eq 2 ] && grep -q -- "${bad#* }" "$work/err" || fail "apply $bad: exit $rc: $(cat "$work/err")"
done
run "$bin" apply "${live[@]}" --yes --audit-dir "$audit" --baseline "$work"
[ $rc -eq 2 ] && grep -q -- '--baseline is what --health-gate judges against' "$work/err" || fail "apply --baseline alone: exit $rc: $(cat "$work/err")"
run "$bin" apply "${live[@]}" --yes --audit-dir "$audit" --pause </dev/null
[ $rc -eq 2 ] && grep -q -- '--pause asks at a terminal' "$work/err" || fail "apply --pause: exit $rc: $(cat "$work/err")"
! compgen -G "$audit/*.jsonl" >/dev/null || fail "a refused apply wrote an audit record: $(ls "$audit")"

# The saved plan, applied: both switches applied, verify clean, the record complete.
run "$bin" apply "${live[@]}" --plan "$work/plan" --yes --audit-dir "$audit" -o json
[ $rc -eq 0 ] || fail "apply --plan: exit $rc: $(cat "$work/out" "$work/err")"
/usr/bin/python3 - "$work/out" <<'PY' || fail "apply outcome: $(cat "$work/out")"
import json, sys
r = json.load(open(sys.argv[1]))
out = {d["device"]: d for d in r["devices"]}
assert all(d["outcome"] == "applied" for d in out.values()), out
assert all(d["before_sha256"] != d["after_sha256"] and len(d["after_sha256"]) == 64 for d in out.values()), out
PY
record=$(ls "$audit"/fabricctl-*.jsonl)
/usr/bin/python3 - "$record" <<'PY' || fail "audit record: $(cat "$record")"
import json, sys
events = [json.loads(l) for l in open(sys.argv[1])]
kinds = [e["event"] for e in events]
assert kinds[0] == "start" and kinds[-1] == "end", kinds
assert kinds.count("staged") == 2 and kinds.count("confirmed") == 2, kinds
assert " (uid " in events[0]["who"] and events[0]["plan"].endswith("plan"), events[0]
assert events[-1]["exit"] == 0 and all(e["at"].endswith("Z") for e in events), events[-1]
PY
[ "$(stat -c %a "$record")" = 600 ] || fail "audit record mode $(stat -c %a "$record")"
run "$bin" verify "${live[@]}" -o json
[ $rc -eq 0 ] || fail "verify after apply: exit $rc: $(head -c 3000 "$work/out")"

# A second apply changes nothing, and writes no record.
run "$bin" plan "${live[@]}" --detailed-exitcode
[ $rc -eq 0 ] || fail "plan after apply: exit $rc: $(cat "$work/out")"
run "$bin" apply "${live[@]}" --yes --audit-dir "$audit"
[ $rc -eq 0 ] && grep -q 'Nothing to change' "$work/out" || fail "second apply: exit $rc: $(cat "$work/out")"
[ "$(ls "$audit" | wc -l)" -eq 1 ] || fail "a second apply wrote a record"

# A plan saved, then a switch changed out of band: the plan is refused as a whole, nothing changes.
nv sw1 "nv set interface swp1 link mtu 1500" >/dev/null
nv sw1 "nv config apply --assume-yes" >/dev/null
nv sw2 "nv set interface swp2 link mtu 1500" >/dev/null
nv sw2 "nv config apply --assume-yes" >/dev/null
run "$bin" plan "${live[@]}" --out "$work/plan2"
grep -q "nv set 'interface' 'swp2' 'link' 'mtu'\|interface swp2 link mtu" "$work/plan2/sw2/commands.nvue" || fail "plan2: $(cat "$work/plan2/sw2/commands.nvue")"
nv sw2 "nv set interface swp1 link mtu 1400" >/dev/null
nv sw2 "nv config apply --assume-yes" >/dev/null
run "$bin" apply "${live[@]}" --plan "$work/plan2" --yes --audit-dir "$audit"
[ $rc -eq 2 ] || fail "stale plan: exit $rc: $(cat "$work/err")"
grep -q 'sw2: its configuration changed since the plan was made' "$work/err" || fail "stale plan: $(cat "$work/err")"
run "$bin" plan "${live[@]}" -o json
[ "$(status_of "$work/out" sw1)" = change ] || fail "the refused plan changed sw1"

# sw2's apply fails (its apply step refused): it is rolled back and named, sw1 completes, exit 3. In steps
# of one device (--batch 1): sw1's, then sw2's, each its own step in the record, with the health gate
# between them (the counters of sw1 and its far end read twice, a second apart: well, so sw2's starts).
echo '{"nv config apply --confirm 5m*": {"stdout": "Error: the apply was refused\n", "exit": 1}}' >"$work/sw2/state/answers.json"
records_in "$audit"
before=$records
run "$bin" apply "${live[@]}" --yes --audit-dir "$audit" -o json --batch 1 --health-gate 1
[ $rc -eq 3 ] || fail "failing sw2: exit $rc: $(cat "$work/out" "$work/err")"
/usr/bin/python3 - "$work/out" <<'PY' || fail "failing sw2: $(cat "$work/out")"
import json, sys
out = {d["device"]: d for d in json.load(open(sys.argv[1]))["devices"]}
assert out["sw1"]["outcome"] == "applied", out
assert out["sw2"]["outcome"] == "failed" and out["sw2"]["rolled_back"], out
assert "refused" in out["sw2"]["reason"], out
assert out["sw2"]["after_sha256"] == out["sw2"]["before_sha256"], out
PY
record=$(ls -t "$audit"/fabricctl-*.jsonl | head -1)
records_in "$audit"
[ "$records" -gt "$before" ] || fail "the stepped apply wrote no record"
/usr/bin/python3 - "$record" <<'PY' || fail "stepped apply's record: $(cat "$record")"
import json, sys
events = [json.loads(l) for l in open(sys.argv[1])]
steps = [e["step"] for e in events if e["event"] == "step"]
assert steps == ["wave 1/2", "wave 2/2"], steps
gates = [e for e in events if e["event"] == "health_gate"]
assert [(g["step"], g["findings"]) for g in gates] == [("wave 1/2", [])], gates
assert events[0]["health_gate_s"] == 1 and events[0]["batch"] == "1", events[0]
PY
rm "$work/sw2/state/answers.json"
run "$bin" plan "${live[@]}" -o json
[ "$(status_of "$work/out" sw1)" = "no change" ] && [ "$(status_of "$work/out" sw2)" = change ] || fail "after the failure: $(cat "$work/out")"

# Interrupted between stage and confirm (verify reads sw2 slowly, so there is time): SIGINT or SIGTERM rolls
# sw2 back at once; SIGKILL leaves it to NVUE's confirm timer, which reverts it by itself.
back_to_change() { run "$bin" plan "${live[@]}" -o json --limit sw2 && [ "$(status_of "$work/out" sw2)" = change ]; }
new_record() { records_in "$audit"; [ "$records" -gt "$before" ]; }
for sig in INT TERM KILL; do
  records_in "$audit"
  before=$records
  echo '{"nv config show -o json": {"sleep": 4}}' >"$work/sw2/state/answers.json"
  # A background job starts with SIGINT ignored (and fabricctl keeps it so, like nohup): env gives it
  # the default action a foreground apply has, where Ctrl-C sends it.
  env --default-signal=INT "$bin" apply "${live[@]}" --yes --audit-dir "$audit" --confirm-timeout 8 --limit sw2 \
    >"$work/out" 2>"$work/err" &
  apply=$!
  until_ok 60 new_record || fail "SIG$sig: no audit record in 60 s: $(cat "$work/err")"
  until_ok 120 staged_in "$audit" sw2 || fail "SIG$sig: sw2 not staged in 120 s: $(cat "$(newest_record "$audit")")"
  staged_at=$SECONDS
  kill -$sig $apply
  # Reads after the signal (the rollback's) are quick again; the read in flight finishes slowly.
  rm "$work/sw2/state/answers.json"
  set +e; wait $apply; rc=$?; set -e
  if [ $sig != KILL ]; then  # Ctrl-C or a service manager's stop: rolled back now, then the signal's status
    [ $rc -eq $((128 + $(kill -l $sig))) ] || fail "SIG$sig: exit $rc: $(cat "$work/err")"
    grep -q '"event":"rolled_back".*"ok":true' "$(newest_record "$audit")" || fail "SIG$sig: no rollback recorded"
    back_to_change || fail "after SIG$sig sw2 was not back to its previous configuration: $(cat "$work/out")"
  else
    [ $rc -eq 137 ] || fail "SIGKILL: exit $rc"
    # sw2 runs the staged change, and plan names its trial awaiting confirmation, never "no change".
    run "$bin" plan "${live[@]}" -o json --limit sw2
    [ "$(status_of "$work/out" sw2)" = failed ] && grep -q 'has a transaction in flight: .*(state confirm, message \\"fabricctl-' "$work/out" ||
      fail "SIGKILL: plan does not name sw2's trial: $(cat "$work/out")"
    run "$bin" verify "${live[@]}" --limit sw2
    [ $rc -eq 0 ] || fail "SIGKILL: sw2 does not run the staged change: $(cat "$work/out")"
    # NVUE's confirm time is in minutes: the 8 s timeout is armed as 1m, so sw2 still runs the change
    # past 8 s. The timer's own firing in real time is lab_revert.sh's; here the emulator's fire hook
    # runs it, and sw2 is back.
    pause_until $((staged_at + 10))
    run "$bin" verify "${live[@]}" --limit sw2
    [ $rc -eq 0 ] || fail "SIGKILL: sw2 reverted before its minute (the 8 s timeout armed as less than 1m): $(cat "$work/out")"
    /usr/bin/python3 "$emulator" "$work/sw2/state" --fire-timers >/dev/null
    back_to_change || fail "SIGKILL: NVUE's confirm timer, fired, did not restore sw2: $(cat "$work/out")"
  fi
done
echo "ok apply_nvue"

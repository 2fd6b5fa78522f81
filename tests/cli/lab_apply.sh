#!/usr/bin/env bash
# Bring-up and change on the lab (tests/lab/lab.py --factory; as root, which CI is), every platform at
# once: a factory lab planned and applied from a saved plan, verified clean, a full-MTU ping across it; a
# second apply that changes nothing; the classic faults made out of band planned as exactly their two
# fixes and applied; a saved plan refused after a device changed; a host whose apply fails rolled back
# and an unreachable switch named while the others complete (exit 3); a PFC fix applied although two
# host cables are swapped elsewhere, a fault it did not cause (with and without a canary). Each
# platform's own revert timer, in real time: lab_revert.sh.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/wait.sh"    # newest_record, staged_in, until_ok
. "$(dirname "${BASH_SOURCE[0]}")/lib/lab.sh"     # lab_up, lab_down, ctl, run, $live
# LLDP every second: host1's recabling below is seen in lldpd's hold time (4 intervals), not in 20 s.
lab_up "$root/inventory/lab" --factory --lldp-interval 1
audit="$work/audit"
ping_full() { "$state/ns" host1 ping -c 1 -W 2 -M do -s 8972 10.0.1.2 >/dev/null 2>&1; }

# The bring-up: the factory lab's plan, saved and applied exactly; verify clean; the ping passes.
run ctl "$bin" plan "${live[@]}" --detailed-exitcode --out "$work/plan"
[ $rc -eq 1 ] || fail "factory plan: exit $rc: $(cat "$work/err")"
[ "$(grep -c '^--- ' "$work/out")" -eq 5 ] || fail "factory plan: not all 5 devices change: $(grep '^[a-z]' "$work/out")"
ping_full && fail "the full-MTU ping passed at factory MTUs"
run ctl "$bin" apply "${live[@]}" --plan "$work/plan" --yes --audit-dir "$audit" -o json
[ $rc -eq 0 ] || fail "bring-up apply: exit $rc: $(cat "$work/out" "$work/err")"
run ctl "$bin" verify "${live[@]}" -o json
[ $rc -eq 0 ] || fail "verify after bring-up: exit $rc: $(head -c 4000 "$work/out")"
ping_full || fail "the full-MTU ping after bring-up"

# A second apply changes nothing.
run ctl "$bin" plan "${live[@]}" --detailed-exitcode
[ $rc -eq 0 ] || fail "plan after bring-up: exit $rc: $(cat "$work/out")"
run ctl "$bin" apply "${live[@]}" --yes --audit-dir "$audit"
grep -q 'Nothing to change' "$work/out" || fail "second apply: $(cat "$work/out")"

# The classic faults: the plan is exactly their two fixes.
"$state/ns" leaf1 env SSH_ORIGINAL_COMMAND="config interface pfc priority Ethernet0 3 off" \
  /usr/bin/python3 "$root/tests/lab/emulators/sonic.py" "$state/leaf1/state"
"$state/ns" host2 ip link set ens2f0np0 mtu 1500
ping_full && fail "the ping passed with host2's NIC at MTU 1500"
run ctl "$bin" plan "${live[@]}" --out "$work/plan2"
[ "$(ls "$work/plan2" | grep -v plan.json | tr '\n' ' ')" = "host2 leaf1 " ] || fail "fault plan: $(cat "$work/out")"
grep -q 'mtu 9000' "$work/plan2/host2/"* || fail "host2's fix: $(cat "$work/plan2/host2/"*)"
grep -q 'Ethernet0' "$work/plan2/leaf1/"* || fail "leaf1's fix: $(cat "$work/plan2/leaf1/"*)"
grep -q 'port.pfc.drift' "$work/out" && grep -q 'port.mtu.drift' "$work/out" || fail "the plan's why: $(cat "$work/out")"

# host1 changes after the plan was made: the saved plan is refused, nothing changes.
"$state/ns" host1 ip link set ens1f0np0 mtu 1500
run ctl "$bin" apply "${live[@]}" --plan "$work/plan2" --yes --audit-dir "$audit"
[ $rc -eq 2 ] && grep -q 'host1: its configuration changed since the plan was made' "$work/err" || fail "stale plan: exit $rc: $(cat "$work/err")"
plan_json
[ "$(field leaf1 status)" = change ] || fail "the refused plan changed leaf1"

# host2's apply fails, spine1 is unreachable: host2 is rolled back and named, spine1 named, leaf1 and
# host1 complete, exit 3.
cp "$state/host2/fabricctl" "$state/host2/fabricctl.real"
printf '#!/bin/sh\n[ "$1 $2" = "host apply" ] && { echo "ens2f0np0: refused by the test" >&2; exit 1; }\nexec %s "$@"\n' \
  "$state/host2/fabricctl.real" >"$state/host2/fabricctl"
kill "$(cat "$state/spine1/sshd.pid")"
run ctl "$bin" apply "${live[@]}" --yes --audit-dir "$audit" -o json --connect-timeout 2
[ $rc -eq 3 ] || fail "failures: exit $rc: $(cat "$work/out" "$work/err")"
/usr/bin/python3 - "$work/out" <<'PY' || fail "failures: $(cat "$work/out")"
import json, sys
out = {d["device"]: d for d in json.load(open(sys.argv[1]))["devices"]}
assert out["spine1"]["outcome"] == "unreachable", out["spine1"]
assert out["host2"]["outcome"] == "failed" and out["host2"]["rolled_back"], out["host2"]
assert "refused by the test" in out["host2"]["reason"], out["host2"]
assert out["leaf1"]["outcome"] == "applied" and out["host1"]["outcome"] == "applied", out
PY
mv "$state/host2/fabricctl.real" "$state/host2/fabricctl"
grep -q '"event":"end"' "$(newest_record "$audit")" || fail "no end in the record"

# host1's two cables swapped (its NICs renamed into each other's place: each now reaches the other's
# leaf), then PFC off on leaf1:Ethernet8 (host2's port). The plan is only that fix, and apply keeps it:
# the swap's consequence on leaf1's link was there before and no setting of leaf1 fixes it.
swap_nics() {
  "$state/ns" host1 ip link set ens1f0np0 down
  "$state/ns" host1 ip link set ens2f0np0 down
  "$state/ns" host1 ip link set ens1f0np0 name fabtmp0
  "$state/ns" host1 ip link set ens2f0np0 name ens1f0np0
  "$state/ns" host1 ip link set fabtmp0 name ens2f0np0
  "$state/ns" host1 ip link set ens1f0np0 up
  "$state/ns" host1 ip link set ens2f0np0 up
}
sees_swap() {
  "$state/ns" leaf1 env SSH_ORIGINAL_COMMAND="show lldp table" \
    /usr/bin/python3 "$root/tests/lab/emulators/sonic.py" "$state/leaf1/state" 2>/dev/null | grep -q 'host1 *ens2f0np0'
}
swap_nics
until_ok_every 0.5 30 sees_swap || fail "leaf1's LLDP does not see host1's swapped cables in 30 s"
for canary in 0 1; do
  "$state/ns" leaf1 env SSH_ORIGINAL_COMMAND="config interface pfc priority Ethernet8 3 off" \
    /usr/bin/python3 "$root/tests/lab/emulators/sonic.py" "$state/leaf1/state"
  run ctl "$bin" apply "${live[@]}" --limit leaf1 --yes --audit-dir "$audit" -o json --canary $canary --connect-timeout 2
  /usr/bin/python3 - "$work/out" <<'PY' || fail "a fix rolled back for a swapped cable (canary $canary): exit $rc: $(cat "$work/out" "$work/err")"
import json, sys
out = {d["device"]: d for d in json.load(open(sys.argv[1]))["devices"]}
assert out["leaf1"]["outcome"] == "applied", out["leaf1"]
PY
  [ $rc -eq 0 ] || fail "swapped cables, canary $canary: exit $rc: $(cat "$work/out" "$work/err")"
done
run ctl "$bin" verify "${live[@]}" --limit host1 -o json
grep -q cabling.swapped "$work/out" || fail "verify no longer reports the swapped cables: $(head -c 4000 "$work/out")"

lab_down
echo "ok lab_apply"

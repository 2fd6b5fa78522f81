#!/usr/bin/env bash
# Bring-up and change on the lab (tests/lab/lab.py --factory; as root, which CI is), every platform at
# once: a factory lab planned and applied from a saved plan, verified clean, a full-MTU ping across it; a
# second apply that changes nothing; the classic faults made out of band planned as exactly their two
# fixes and applied; a saved plan refused after a device changed; for each platform an apply killed
# (SIGKILL) between stage and confirm, the device reverting by its own timer; a host whose apply fails
# rolled back and an unreachable switch named while the others complete (exit 3); a PFC fix applied
# although two host cables are swapped elsewhere, a fault it did not cause (with and without a canary).
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/wait.sh"    # newest_record, staged_in, until_ok
if [ "$(id -u)" -ne 0 ] || ! command -v lldpd >/dev/null || [ ! -x /usr/sbin/sshd ]; then
  [ -n "${CI:-}" ] && fail "CI is set but the lab needs root, sshd and lldpd (scripts/install-deps)"
  echo "SKIP: the lab needs root, sshd and lldpd"
  exit 77
fi
lab() { /usr/bin/python3 "$root/tests/lab/lab.py" "$@"; }
state="$work/lab"
chmod 755 "$work"  # lldpcli reaches the lab's lldpd sockets under it as lldpd's group, not as root
trap 'lab down "$state" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
lab up "$root/inventory/lab" "$state" --fabricctl "$bin" --factory || fail "lab up --factory"
ctl() { ip netns exec fablab-ctl "$@"; }
run() { set +e; "$@" >"$work/out" 2>"$work/err"; rc=$?; set -e; }
audit="$work/audit"
live=(-i "$state/inventory" -p "$root/profiles" --known-hosts "$state/known_hosts" -q)
ping_full() { ip netns exec fablab-host1 ping -c 1 -W 2 -M do -s 8972 10.0.1.2 >/dev/null 2>&1; }
plan_json() { run ctl "$bin" plan "${live[@]}" -o json "$@"; }
field() {  # field DEVICE KEY: from the plan JSON in $work/out
  /usr/bin/python3 -c 'import json,sys; print({d["device"]: d for d in json.load(open(sys.argv[1]))["devices"]}[sys.argv[2]].get(sys.argv[3], ""))' \
    "$work/out" "$1" "$2"
}
# The first command a device's collector runs: made slow, it holds an apply between stage and confirm.
slow_read() {  # slow_read DEVICE on|off
  local d=$1 f
  case $d in
    leaf1) f="show runningconfiguration all" ;;
    leaf2) f="show running-config" ;;
    spine1) f="nv config show -o json" ;;
    host*)
      if [ "$2" = on ]; then
        cp "$state/$d/fabricctl" "$state/$d/fabricctl.real"
        printf '#!/bin/sh\n[ "$1 $2" = "host collect" ] && sleep 4\nexec %s "$@"\n' "$state/$d/fabricctl.real" >"$state/$d/fabricctl"
      else
        mv "$state/$d/fabricctl.real" "$state/$d/fabricctl"
      fi
      return ;;
  esac
  if [ "$2" = on ]; then echo "{\"$f\": {\"sleep\": 4}}" >"$state/$d/state/answers.json"; else rm -f "$state/$d/state/answers.json"; fi
}

# Interrupted at factory, one device of each platform: killed between stage and confirm, it runs the
# staged change until its own revert timer (8 s from the stage) takes it back to the factory configuration.
timer_s=8
back_at_factory() { plan_json --limit "$d" && [ $rc -eq 0 ] && [ "$(field "$d" base_sha256)" = "$factory" ]; }
for d in leaf1 leaf2 spine1 host1; do
  plan_json --limit "$d"
  [ "$(field "$d" status)" = change ] || fail "$d: factory plan: $(cat "$work/out" "$work/err")"
  factory=$(field "$d" base_sha256)
  slow_read "$d" on
  # ip netns exec execs fabricctl: $! is the apply itself, not a shell around it
  ip netns exec fablab-ctl "$bin" apply "${live[@]}" --yes --audit-dir "$audit" --confirm-timeout $timer_s \
    --limit "$d" >"$work/apply.out" 2>&1 &
  apply=$!
  until_ok 120 staged_in "$audit" "$d" || fail "$d: not staged in 120 s: $(cat "$work/apply.out" "$(newest_record "$audit")")"
  staged_at=$SECONDS
  kill -KILL $apply
  wait $apply 2>/dev/null || true
  slow_read "$d" off
  plan_json --limit "$d"
  [ "$(field "$d" status)" = "no change" ] ||
    fail "$d: killed after stage, it does not run the staged change ($((SECONDS - staged_at)) s after the stage, its timer ${timer_s} s): $(cat "$work/out" "$work/err")"
  until_ok $((timer_s + 30)) back_at_factory ||
    fail "$d: its revert timer did not restore the factory configuration in $((timer_s + 30)) s: $(cat "$work/out" "$work/err")"
done

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
ip netns exec fablab-leaf1 env SSH_ORIGINAL_COMMAND="config interface pfc priority Ethernet0 3 off" \
  /usr/bin/python3 "$root/tests/lab/emulators/sonic.py" "$state/leaf1/state"
ip -n fablab-host2 link set ens2f0np0 mtu 1500
ping_full && fail "the ping passed with host2's NIC at MTU 1500"
run ctl "$bin" plan "${live[@]}" --out "$work/plan2"
[ "$(ls "$work/plan2" | grep -v plan.json | tr '\n' ' ')" = "host2 leaf1 " ] || fail "fault plan: $(cat "$work/out")"
grep -q 'mtu 9000' "$work/plan2/host2/"* || fail "host2's fix: $(cat "$work/plan2/host2/"*)"
grep -q 'Ethernet0' "$work/plan2/leaf1/"* || fail "leaf1's fix: $(cat "$work/plan2/leaf1/"*)"
grep -q 'port.pfc.drift' "$work/out" && grep -q 'port.mtu.drift' "$work/out" || fail "the plan's why: $(cat "$work/out")"

# host1 changes after the plan was made: the saved plan is refused, nothing changes.
ip -n fablab-host1 link set ens1f0np0 mtu 1500
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
  ip -n fablab-host1 link set ens1f0np0 down
  ip -n fablab-host1 link set ens2f0np0 down
  ip -n fablab-host1 link set ens1f0np0 name fabtmp0
  ip -n fablab-host1 link set ens2f0np0 name ens1f0np0
  ip -n fablab-host1 link set fabtmp0 name ens2f0np0
  ip -n fablab-host1 link set ens1f0np0 up
  ip -n fablab-host1 link set ens2f0np0 up
}
sees_swap() {
  ip netns exec fablab-leaf1 env SSH_ORIGINAL_COMMAND="show lldp table" \
    /usr/bin/python3 "$root/tests/lab/emulators/sonic.py" "$state/leaf1/state" 2>/dev/null | grep -q 'host1 *ens2f0np0'
}
swap_nics
until_ok 30 sees_swap || fail "leaf1's LLDP does not see host1's swapped cables in 30 s"
for canary in 0 1; do
  ip netns exec fablab-leaf1 env SSH_ORIGINAL_COMMAND="config interface pfc priority Ethernet8 3 off" \
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

lab down "$state"
[ -z "$(ip netns list | grep '^fablab-' || true)" ] || fail "lab down left namespaces: $(ip netns list)"
echo "ok lab_apply"

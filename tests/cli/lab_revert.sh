#!/usr/bin/env bash
# Each platform's own revert timer, in real time, on the lab at factory defaults (tests/lab/lab.py
# --factory; as root, which CI is): for one device of each platform, an apply killed (SIGKILL) between
# stage and confirm leaves the device running the staged change until its timer (12 s from the stage)
# takes it back to the factory configuration by itself. The one real-timer case per platform: the unit
# tests fire the emulators' timers instead (tests/lab/emulators/common.py).
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/wait.sh"    # newest_record, staged_in, until_ok
. "$(dirname "${BASH_SOURCE[0]}")/lib/lab.sh"     # lab_up, lab_down, ctl, run, $live
lab_up "$root/inventory/lab" --factory
audit="$work/audit"
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
# staged change until its own revert timer takes it back to the factory configuration. 12 s from the
# stage leaves room for the check that it runs the change on a loaded machine.
timer_s=12
back_at_factory() { plan_json --limit "$d" && [ $rc -eq 0 ] && [ "$(field "$d" base_sha256)" = "$factory" ]; }
for d in leaf1 leaf2 spine1 host1; do
  plan_json --limit "$d"
  [ "$(field "$d" status)" = change ] || fail "$d: factory plan: $(cat "$work/out" "$work/err")"
  factory=$(field "$d" base_sha256)
  slow_read "$d" on
  # ns and ip netns exec exec fabricctl: $! is the apply itself, not a shell around it
  "$state/ns" ctl "$bin" apply "${live[@]}" --yes --audit-dir "$audit" --confirm-timeout $timer_s \
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

lab_down
echo "ok lab_revert"

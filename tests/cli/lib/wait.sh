# Sourced by the apply tests: waiting, bounded in wall time, on what an apply does in the background. Its
# audit records (one JSON-lines file per apply under --audit-dir, docs/apply.md) are read while it runs,
# as an operator watching it would; a device's own revert timer is waited for until it has acted.

# The polls below run ten times a second for tens of seconds while other tests compete for two cores:
# they use shell builtins only (pause from lib/common.sh, a glob, a file read), no process per try.

newest_in() {  # newest_in DIR: sets $newest to the newest record's path, empty when there is none
  local f
  newest=""
  for f in "$1"/*.jsonl; do
    [ -e "$f" ] || continue
    [[ -z $newest || $f -nt $newest ]] && newest=$f
  done
  return 0
}
newest_record() { newest_in "$1"; printf '%s\n' "$newest"; }  # newest_record DIR: the same, printed

records_in() {  # records_in DIR: sets $records to how many records DIR holds
  local f
  records=0
  for f in "$1"/*.jsonl; do [ -e "$f" ] && records=$((records + 1)); done
  return 0
}

# staged_in DIR DEVICE: the newest record says DEVICE is staged. Waited for with until_ok in seconds of
# wall time, not in polls: on a loaded two-core machine under ASan a stage can take tens of seconds.
staged_in() {
  local text="" staged='"event":"staged","at":"[^"]*","device":"'"$2"'"'
  newest_in "$1"
  [ -n "$newest" ] || return 1
  IFS= read -r -d '' text <"$newest" || true
  [[ $text =~ $staged ]]
}

# until_ok LIMIT_S COMMAND...: runs COMMAND until it succeeds (0), 1 after LIMIT_S seconds. It polls every
# 0.1 s, so a short window (a stage to kill) is not missed. For a device's own revert timer: the test waits
# as long as the timer takes, not a fixed guess.
until_ok() { until_ok_every 0.1 "$@"; }

# until_ok_every PAUSE_S LIMIT_S COMMAND...: the same, PAUSE_S seconds between tries: for a COMMAND that is
# a run of fabricctl over devices (a plan), which would otherwise run back to back for the whole wait.
until_ok_every() {
  local pause=$1 end=$((SECONDS + $2))
  shift 2
  while [ $SECONDS -lt "$end" ]; do
    "$@" && return 0
    pause "$pause"
  done
  return 1
}

# pause_until T: returns when bash's $SECONDS reaches T (at once if it has). Before polling for a revert
# timer with plans: the timer cannot act before its deadline, and a plan a second until then costs the
# tests running beside this one a fabricctl start, an SSH login and an emulator run each.
pause_until() {
  local left=$(($1 - SECONDS))
  [ "$left" -le 0 ] || pause "$left"
}

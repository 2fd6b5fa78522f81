# Sourced by the apply tests: waiting, bounded in wall time, on what an apply does in the background. Its
# audit records (one JSON-lines file per apply under --audit-dir, docs/apply.md) are read while it runs,
# as an operator watching it would; a device's own revert timer is waited for until it has acted.

newest_record() {  # newest_record DIR: the newest record's path, empty when there is none
  ls -t "$1"/*.jsonl 2>/dev/null | head -1 || true
}

# staged_in DIR DEVICE: the newest record says DEVICE is staged. Waited for with until_ok in seconds of
# wall time, not in polls: on a loaded two-core machine under ASan an NVUE switch's factory stage (some
# sixty `nv set` commands, one SSH exec each) takes over 30 s.
staged_in() {
  local r
  r=$(newest_record "$1")
  [ -n "$r" ] && grep -qs "\"event\":\"staged\",\"at\":\"[^\"]*\",\"device\":\"$2\"" "$r"
}

# until_ok LIMIT_S COMMAND...: runs COMMAND until it succeeds (0), 1 after LIMIT_S seconds. It polls every
# 0.1 s, so a short window (a stage to kill) is not missed; a slow COMMAND (a plan) paces itself. For a
# device's own revert timer: the test waits as long as the timer takes, not a fixed guess.
until_ok() {
  local end=$((SECONDS + $1))
  shift
  while [ $SECONDS -lt "$end" ]; do
    "$@" && return 0
    sleep 0.1
  done
  return 1
}

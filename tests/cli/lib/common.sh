# Sourced first by tests/cli/*.sh, which ctest runs as `bash SCRIPT FABRICCTL` from the repository root:
# strict mode, the binary under test ($bin), the repository root ($root), a private work directory
# removed on exit ($work), fail MESSAGE, run COMMAND... (its output in $work/out and $work/err, its
# status in $rc), need_shared PATH... (skip without shared/), leaks_off/leaks_on (LeakSanitizer off for the runs of a loop after its first), and
# pause SECONDS (a sleep without a process, for polls).
set -euo pipefail
bin=$(realpath "$1")
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# need_shared PATH...: what a test reads from shared/ beside the repository (the real device outputs, the
# YANG checker). Without one the test skips (exit 77, SKIP_RETURN_CODE in CMakeLists.txt), or fails when
# CI is set, since CI places shared/ there.
need_shared() {
  local need
  for need in "$@"; do
    [ -e "$need" ] && continue
    [ -n "${CI:-}" ] && fail "CI is set but $need is missing (shared/ must sit beside the repository)"
    echo "SKIP: $need is missing (shared/ does not sit beside the repository; set CI=1 to require it)"
    exit 77
  done
}
run() { set +e; "$@" >"$work/out" 2>"$work/err"; rc=$?; set -e; }
# A loop that runs the binary over many cases of the same paths checks leaks on its first case only:
# LeakSanitizer's scan at exit is a third of a sanitizer run's cost. No-ops when ASAN_OPTIONS is unset.
asan_options=${ASAN_OPTIONS:-}
leaks_off() { [ -z "$asan_options" ] || export ASAN_OPTIONS="$asan_options:detect_leaks=0"; }
leaks_on() { [ -z "$asan_options" ] || export ASAN_OPTIONS="$asan_options"; }
# pause SECONDS: a sleep without a process, for loops that poll while other tests compete for the cores:
# a read with a timeout on a pipe nothing writes to (the shell holds both of its ends).
exec {pause_fd}<> <(:)
pause() { read -r -t "$1" -u "$pause_fd" _ || true; }

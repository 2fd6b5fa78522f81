#!/usr/bin/env bash
# Command-line contract: exit codes and messages for help, version and usage mistakes.
set -uo pipefail
bin=$(realpath "$1")
fail() { echo "FAIL: $*"; exit 1; }
expect() {  # expect CODE PATTERN-ON-STDOUT+STDERR ARGS...
  local want=$1 pattern=$2; shift 2
  out=$("$bin" "$@" 2>&1); rc=$?
  [ $rc -eq "$want" ] || fail "fabricctl $*: exit $rc, want $want: $out"
  grep -qE -- "$pattern" <<<"$out" || fail "fabricctl $*: output lacks /$pattern/: $out"
}
expect 0 "^usage: fabricctl <command>" --help
expect 0 "validate +check profiles and inventory" help
expect 0 "^fabricctl [0-9]+\.[0-9]+\.[0-9]+$" --version
expect 2 "^usage: fabricctl <command>"
expect 2 'unknown command validat; did you mean "validate"\?' validat
expect 2 "unknown command val" val                       # never a prefix match
expect 2 "too many positional options" validate inventory/lab extra
expect 2 "--inventory is required" validate
expect 2 "the option '--out' is required" render -i inventory/lab
expect 2 "unrecognised option '--bogus'" validate --bogus
expect 2 "no such inventory file or directory" validate -i inventory/nope
expect 0 "^ok: 5 devices, 12 ports, 6 links$" validate inventory/lab
expect 0 "^usage: fabricctl render" render --help
echo "usage: ok"

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
expect 0 "^fabricctl [0-9]+\.[0-9]+\.[0-9]+ \(([0-9a-f]{12}|unknown)\)$" --version
expect 2 "^usage: fabricctl <command>"
expect 2 'unknown command validat; did you mean "validate"\?' validat
expect 2 "unknown command val" val                       # never a prefix match
expect 2 'unexpected argument "extra" \(the inventory is "inventory/lab"' validate inventory/lab extra
expect 2 'unexpected argument "stray" \(the inventory is "inventory/lab"' verify -i inventory/lab --list-checks stray
expect 2 "--inventory is required" validate
expect 2 "the option '--out' is required" render -i inventory/lab
expect 2 "unknown option --bogus$" validate --bogus
expect 2 "unknown option --inventroy; did you mean --inventory\?" validate --inventroy inventory/lab
# No prefix guessing: --inv is not --inventory, whatever boost would guess; it gets a suggestion.
expect 2 "unknown option --inv; did you mean --inventory\?" validate --inv inventory/lab
expect 2 "unknown option --snap; did you mean --snapshots\?" verify -i inventory/lab --snap tests/snapshots/lab-good
expect 2 'unknown report format "jsn"; did you mean "json"\?' verify -i inventory/lab -s tests/snapshots/lab-good -o jsn
expect 2 'unknown severity "warn"; did you mean "warning"\?' verify -i inventory/lab -s tests/snapshots/lab-good --severity warn
expect 2 "no such inventory file or directory" validate -i inventory/nope
expect 0 "^ok: 5 devices, 12 ports, 6 links$" validate inventory/lab
expect 0 "^usage: fabricctl render" render --help
# help CMD is CMD --help; every command's help has examples.
expect 0 "^usage: fabricctl verify" help verify
expect 2 'unknown command verfy; did you mean "verify"' help verfy
for c in validate render verify snapshot diff; do
  out=$("$bin" help $c) || fail "help $c: exit $?"
  grep -q "^examples:" <<<"$out" || fail "help $c has no examples"
  grep -qE "^  fabricctl $c " <<<"$out" || fail "help $c: examples do not run $c"
  [ "$out" = "$("$bin" $c --help)" ] || fail "help $c differs from $c --help"
done
# apply reads the devices themselves: its help offers only what it takes, and plan's offline inputs are
# unknown to it.
out=$("$bin" apply --help) || fail "apply --help: exit $?"
! grep -qE -- "--from-raw|--snapshots" <<<"$out" || fail "apply --help lists options apply refuses: $out"
grep -qE -- "--from-raw" <<<"$("$bin" plan --help)" || fail "plan --help lost --from-raw"
expect 2 "unknown option --from-raw" apply -i inventory/lab --from-raw /tmp
echo "usage: ok"

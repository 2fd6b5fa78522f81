#!/usr/bin/env bash
# The SONiC emulator refuses what SONiC refuses, as SONiC says it, and no more: the table of cases with
# their sources (tests/lab/sonic_refusals.py: GCU's field validators per branch and HWSKU, its illegal
# removals, YANG's MTU range, empty tables, the dry run, rollback through the same validators, and the
# whole-config YANG validation with SONiC's own models, which needs shared/ beside the repository: its
# rows are skipped without it, and fail the test when CI is set).
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
export PYTHONDONTWRITEBYTECODE=1
/usr/bin/python3 "$root/tests/lab/sonic_refusals.py" >"$work/out" || fail "$(tail -1 "$work/out")"
if grep -q '^skip:' "$work/out"; then
  [ -n "${CI:-}" ] && fail "CI is set but $(grep '^skip:' "$work/out")"
  grep '^skip:' "$work/out"
fi
echo "sonic refusals: ok ($(grep -c '^ok: refused' "$work/out") refused, $(grep -c '^ok: accepted' "$work/out") accepted)"

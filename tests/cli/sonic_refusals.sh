#!/usr/bin/env bash
# The SONiC emulator refuses what SONiC refuses, as SONiC says it, and no more: the table of cases with
# their sources (tests/lab/sonic_refusals.py: GCU's field validators per branch and HWSKU, its illegal
# removals, YANG's MTU range, empty tables, the dry run, rollback through the same validators).
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
export PYTHONDONTWRITEBYTECODE=1
/usr/bin/python3 "$root/tests/lab/sonic_refusals.py" >"$work/out" || fail "$(tail -1 "$work/out")"
echo "sonic refusals: ok ($(grep -c '^ok: refused' "$work/out") refused, $(grep -c '^ok: accepted' "$work/out") accepted)"

#!/usr/bin/env bash
# The EOS emulator refuses what EOS refuses, with EOS's `%` messages: the table of cases with their sources
# (tests/lab/emulators/eos_grammar.py REFUSALS) and one commit timer per switch (tests/lab/eos_refusals.py).
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
export PYTHONDONTWRITEBYTECODE=1
/usr/bin/python3 "$root/tests/lab/eos_refusals.py" >"$work/out" || fail "$(tail -1 "$work/out")"
echo "eos refusals: ok ($(grep -c '^ok: ' "$work/out") cases)"

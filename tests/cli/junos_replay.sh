#!/usr/bin/env bash
# The Junos emulator: its grammar and configuration semantics (tests/lab/emulators/junos_test.py), then
# against real Junos material (tests/lab/junos_replay.py): it takes the JVD devices' class-of-service
# configurations through NETCONF and prints them back alike, refuses what the YANG and its must-constraints
# refuse with their texts, answers `show interfaces | display json` in the vQFX's shape, and rolls a confirmed
# commit back (tests/fixtures/junos, in the repository).
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
export PYTHONDONTWRITEBYTECODE=1
/usr/bin/python3 "$root/tests/lab/emulators/junos_test.py" >"$work/out" 2>&1 || fail "junos_test.py: $(cat "$work/out")"
cat "$work/out"
/usr/bin/python3 "$root/tests/lab/junos_replay.py" "$root/tests/fixtures/junos" >"$work/out" || fail "$(tail -1 "$work/out")"
cat "$work/out"

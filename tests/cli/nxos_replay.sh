#!/usr/bin/env bash
# The NX-OS emulator against real NX-OS output (tests/lab/nxos_replay.py): it takes the real leaf's QoS
# configuration and prints it back alike, refuses values beyond Cisco's model, and its JSON answers have
# the keys and types of the real ones (tests/fixtures/nxos, in the repository).
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
export PYTHONDONTWRITEBYTECODE=1
/usr/bin/python3 "$root/tests/lab/nxos_replay.py" "$root/tests/fixtures/nxos" >"$work/out" || fail "$(tail -1 "$work/out")"
cat "$work/out"

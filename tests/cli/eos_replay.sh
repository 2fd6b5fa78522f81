#!/usr/bin/env bash
# The EOS emulator against real EOS output (tests/lab/eos_replay.py): it takes every line of the real
# running-config that has the shape of a command it models, and its JSON answers have the keys, types and
# words of the real ones. The outputs live in shared/ beside the repository (need_shared).
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
outputs=$(realpath -m ../shared/reference/outputs/eos)
need_shared "$outputs/running-config_qos-pfc-ecn_avd-intended.txt"
export PYTHONDONTWRITEBYTECODE=1
/usr/bin/python3 "$root/tests/lab/eos_replay.py" "$outputs" >"$work/out" || fail "$(tail -1 "$work/out")"
cat "$work/out"

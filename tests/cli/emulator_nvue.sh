#!/usr/bin/env bash
# The NVUE emulator against what NVIDIA documents (tests/lab/emulators/nvue_test.py): every command in
# its table of refusals refused as NVUE refuses it, with its source; both generations of the RoCE switch
# (5.14 `enable on|off`, 5.15 `state enabled|disabled`); range keys kept by 5.15's `nv config show` and
# expanded by `--expand`; the watchdog refused at apply on a port without PFC. (No fabricctl here.)
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 "$root/tests/lab/emulators/nvue_test.py" >"$work/out" 2>&1 ||
  fail "nvue_test.py: $(cat "$work/out")"
echo "ok emulator_nvue"

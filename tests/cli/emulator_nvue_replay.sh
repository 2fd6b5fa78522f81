#!/usr/bin/env bash
# The NVUE emulator's answers replayed against the real NVUE outputs in shared/reference/outputs/nvue
# (tests/lab/emulators/nvue_test.py --replay): the shapes the emulator prints are NVIDIA's. The outputs
# live in shared/ beside the repository: without them the test skips (exit 77, SKIP_RETURN_CODE in
# CMakeLists.txt), or fails when CI is set, since CI places shared/ there.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
shared=$(realpath -m "$root/../shared")
need_shared "$shared/reference/outputs/nvue"
PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 "$root/tests/lab/emulators/nvue_test.py" --replay "$shared" >"$work/out" 2>&1 ||
  fail "nvue_test.py --replay: $(cat "$work/out")"
echo "ok emulator_nvue_replay"

#!/usr/bin/env bash
# The SONiC emulator against real SONiC output (tests/lab/sonic_replay.py): its show tables have the real
# layout and columns, and SONiC's own QoS renders load as they would, buffermgrd's PG write included. The
# outputs live in shared/ beside the repository: without them the test skips (exit 77,
# SKIP_RETURN_CODE in CMakeLists.txt), or fails when CI is set, since CI places shared/ there.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
outputs=$(realpath -m ../shared/reference/outputs/sonic)
if [ ! -f "$outputs/config-db_port-qos-map-buffer-pg_update-qos.json" ]; then
  [ -n "${CI:-}" ] && { echo "FAIL: CI is set but $outputs is missing (shared/ must sit beside the repository)"; exit 1; }
  echo "SKIP: $outputs is missing (shared/ does not sit beside the repository; set CI=1 to require it)"; exit 77
fi
export PYTHONDONTWRITEBYTECODE=1
/usr/bin/python3 "$root/tests/lab/sonic_replay.py" "$outputs" >"$work/out" || fail "$(tail -1 "$work/out")"
cat "$work/out"

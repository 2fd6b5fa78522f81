#!/usr/bin/env bash
# The SONiC emulator against real SONiC output (tests/lab/sonic_replay.py): its show tables have the real
# layout and columns, SONiC's own QoS renders load as they would, buffermgrd's PG write included, and the
# emulator's factory tables are the render's and valid for SONiC's YANG models, and its counter commands print
# what SONiC prints, byte for byte. The outputs and the YANG
# checker live in shared/ beside the repository (need_shared).
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
outputs=$(realpath -m ../shared/reference/outputs/sonic)
need_shared "$outputs/config-db_port-qos-map-buffer-pg_update-qos.json" "$(realpath -m ../shared/tools/sonic-yang-check)"
export PYTHONDONTWRITEBYTECODE=1
/usr/bin/python3 "$root/tests/lab/sonic_replay.py" "$outputs" >"$work/out" || fail "$(tail -1 "$work/out")"
cat "$work/out"

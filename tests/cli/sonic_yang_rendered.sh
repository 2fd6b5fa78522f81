#!/usr/bin/env bash
# Every SONiC config_db.json rendered from the shipped inventories (both profiles), merged with the
# PORT fields the switch itself carries (lanes, speed), passes SONiC's YANG models with every table
# checked. The checker lives in shared/ beside the repository: without it the test skips (exit 77,
# SKIP_RETURN_CODE in CMakeLists.txt), or fails when CI is set, since CI places shared/ there.
set -euo pipefail
bin=$(realpath "$1")
checker=$(realpath -m ../shared/tools/sonic-yang-check)
if [ ! -x "$checker" ]; then
  [ -n "${CI:-}" ] && { echo "FAIL: CI is set but $checker is missing (shared/ must sit beside the repository)"; exit 1; }
  echo "SKIP: $checker is missing (shared/ does not sit beside the repository; set CI=1 to require it)"; exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

checked=0
for inv in lab rail-optimized; do
  "$bin" render -i "inventory/$inv" --out "$work/$inv" >/dev/null
  for cfg in "$work/$inv"/*/config_db.json; do
    merged="$work/merged-$(basename "$(dirname "$cfg")").json"
    python3 - "$cfg" "$merged" <<'PY'
import json, sys
cfg = json.load(open(sys.argv[1]))
for i, (name, port) in enumerate(sorted(cfg["PORT"].items(), key=lambda kv: int(kv[0][len("Ethernet"):]))):
    lane = int(name[len("Ethernet"):])
    port.update({"lanes": ",".join(str(lane + k) for k in range(8)), "speed": "400000", "admin_status": "up"})
json.dump(cfg, open(sys.argv[2], "w"), indent=4)
PY
    if ! out=$("$checker" --strict-tables "$merged" 2>&1); then
      echo "FAIL: $inv/$(basename "$(dirname "$cfg")")/config_db.json"; echo "$out"; exit 1
    fi
    grep -q "RESULT: VALID" <<<"$out" || { echo "FAIL: no VALID result"; echo "$out"; exit 1; }
    checked=$((checked + 1))
  done
done
[ $checked -ge 5 ] || { echo "FAIL: only $checked SONiC configs rendered"; exit 1; }
echo "sonic yang: $checked rendered CONFIG_DBs valid"

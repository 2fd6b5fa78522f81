#!/usr/bin/env bash
# Every SONiC config_db.json rendered from the shipped inventories (both profiles), loaded the way
# `config load` loads it (field by field; a null entry deleted) onto the QoS and buffer tables SONiC's
# own templates render (shared/reference/outputs/sonic: sonic-utilities' `config qos reload` render),
# with the PORT fields the switch itself carries (lanes, speed), passes SONiC's YANG models with every
# table checked: what the switch would hold is valid, references to SONiC's buffer profiles included.
# The checker and the render live in shared/ beside the repository: without them the test skips (exit
# 77, SKIP_RETURN_CODE in CMakeLists.txt), or fails when CI is set, since CI places shared/ there.
set -euo pipefail
bin=$(realpath "$1")
checker=$(realpath -m ../shared/tools/sonic-yang-check)
defaults=$(realpath -m ../shared/reference/outputs/sonic/config-db_qos-tables_qos-reload-render.json)
for need in "$checker" "$defaults"; do
  if [ ! -e "$need" ]; then
    [ -n "${CI:-}" ] && { echo "FAIL: CI is set but $need is missing (shared/ must sit beside the repository)"; exit 1; }
    echo "SKIP: $need is missing (shared/ does not sit beside the repository; set CI=1 to require it)"; exit 77
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

checked=0
for inv in lab rail-optimized; do
  "$bin" render -i "inventory/$inv" --out "$work/$inv" >/dev/null
  for cfg in "$work/$inv"/*/config_db.json; do
    merged="$work/merged-$(basename "$(dirname "$cfg")").json"
    /usr/bin/python3 - "$defaults" "$cfg" "$merged" <<'PY'
import json, sys
db = json.load(open(sys.argv[1]))
cfg = json.load(open(sys.argv[2]))
db.pop("MPLS_TC_TO_TC_MAP", None)  # no YANG model in shared/; fabricctl does not touch it
# The switch's own PORT entries (port_config.ini): lanes and speed, which fabricctl never writes; for
# its ports and the render's.
ports = set(cfg["PORT"]) | set(db["CABLE_LENGTH"]["AZURE"]) | {k.split("|")[0] for k in db["BUFFER_QUEUE"]}
for name in sorted(ports, key=lambda n: int(n[len("Ethernet"):])):
    lane = int(name[len("Ethernet"):])
    db.setdefault("PORT", {})[name] = {"lanes": ",".join(str(lane + k) for k in range(8)), "speed": "400000",
                                       "admin_status": "up"}
# config load: sonic-cfggen --write-to-db, ConfigDBConnector.mod_config.
for table, entries in cfg.items():
    if entries is None:
        db.pop(table, None)
        continue
    for key, fields in entries.items():
        if fields is None:
            db.get(table, {}).pop(key, None)
        else:
            db.setdefault(table, {}).setdefault(key, {}).update(fields)
json.dump(db, open(sys.argv[3], "w"), indent=4)
PY
    if ! out=$("$checker" --strict-tables "$merged" 2>&1); then
      echo "FAIL: $inv/$(basename "$(dirname "$cfg")")/config_db.json"; echo "$out"; exit 1
    fi
    grep -q "RESULT: VALID" <<<"$out" || { echo "FAIL: no VALID result"; echo "$out"; exit 1; }
    checked=$((checked + 1))
  done
done
# The lab has one SONiC switch, rail-optimized three (two rail leaves and a spine).
[ $checked -ge 4 ] || { echo "FAIL: only $checked SONiC configs rendered"; exit 1; }
echo "sonic yang: $checked rendered CONFIG_DBs valid once loaded on SONiC's default tables"

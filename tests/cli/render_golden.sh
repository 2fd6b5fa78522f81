#!/usr/bin/env bash
# Renders both shipped inventories and compares every file byte for byte with tests/golden/.
# Also checks that rendering is deterministic and that a render replaces its output whole.
# UPDATE=1 rewrites the golden files (review the diff before committing).
set -euo pipefail
bin=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for inv in lab rail-optimized; do
  "$bin" render -i "inventory/$inv" --out "$work/$inv" >"$work/$inv.summary"
  "$bin" render -i "inventory/$inv" --out "$work/$inv-again" >/dev/null
  diff -r "$work/$inv" "$work/$inv-again" >/dev/null || { echo "FAIL: $inv renders differently twice"; exit 1; }
  if [ "${UPDATE:-}" = 1 ]; then
    rm -rf "tests/golden/$inv"; mkdir -p tests/golden; cp -r "$work/$inv" "tests/golden/$inv"
  fi
  diff -ru "tests/golden/$inv" "$work/$inv" || { echo "FAIL: $inv differs from tests/golden/$inv"; exit 1; }
  # The summary names the output directory; compare it with the temporary prefix removed.
  sed -i "s#$work/##" "$work/$inv.summary"
  [ "${UPDATE:-}" = 1 ] && cp "$work/$inv.summary" "tests/golden/$inv.summary"
  diff -u "tests/golden/$inv.summary" "$work/$inv.summary" || { echo "FAIL: $inv summary differs"; exit 1; }
done

# Every platform and both profiles are covered by the golden set.
for f in config_db.json config_db.patch.json session.cfg commands.nvue nic-state.json apply.sh; do
  find tests/golden -name "$f" | grep -q . || { echo "FAIL: no golden $f"; exit 1; }
done
grep -q '"profile": "roce-lossless"' tests/golden/lab/host1/nic-state.json || { echo "FAIL: lab is not roce-lossless"; exit 1; }
grep -q '"profile": "roce-pfc-only"' tests/golden/rail-optimized/gpu01/nic-state.json || { echo "FAIL: rail is not roce-pfc-only"; exit 1; }
echo "golden: 2 inventories match"

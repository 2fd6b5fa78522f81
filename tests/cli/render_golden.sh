#!/usr/bin/env bash
# Renders the shipped inventories and compares every file byte for byte with tests/golden/.
# Determinism is checked against the golden files too, not by rendering twice alike: a second render
# runs in another process from a copy of the inputs in which everything whose order carries no meaning is
# listed in reverse (devices, ports, groups, links and the two ends of each link; profile keys), whose
# files were created in reverse order, from another working directory, in another environment (locale,
# time zone, umask, HOME, memory filled with junk by the allocator: jemalloc's junk, or glibc's perturbation
# in a build without jemalloc), and must give the golden bytes as well.
# Also checks that a render replaces its output whole.
# UPDATE=1 rewrites the golden files (review the diff before committing).
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail

# reversed_inputs <inventory dir> <dest>: dest/inv, dest/profiles and dest/templates, reordered as above.
reversed_inputs() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import os, shutil, sys, yaml
src, dst = sys.argv[1], sys.argv[2]
rev = lambda m: dict(reversed(list(m.items())))

def inventory(doc):
    if not isinstance(doc, dict):
        return doc
    if isinstance(doc.get("devices"), dict):
        for d in doc["devices"].values():
            if isinstance(d, dict) and isinstance(d.get("ports"), dict):
                d["ports"] = rev(d["ports"])
        doc["devices"] = rev(doc["devices"])
    if isinstance(doc.get("groups"), dict):
        doc["groups"] = rev(doc["groups"])
    if isinstance(doc.get("links"), list):
        doc["links"] = [dict(l, a=l["b"], b=l["a"]) for l in reversed(doc["links"])]
    return rev(doc)

def profile(doc):
    if isinstance(doc, dict):
        return rev({k: profile(v) for k, v in doc.items()})
    return doc

def write(path, doc):
    with open(path, "w") as f:
        yaml.safe_dump(doc, f, sort_keys=False, default_flow_style=False)

for sub in ("inv", "profiles"):
    os.makedirs(os.path.join(dst, sub))
for name in sorted(os.listdir(src), reverse=True):
    write(os.path.join(dst, "inv", name), inventory(yaml.safe_load(open(os.path.join(src, name)))))
for name in sorted(os.listdir("profiles"), reverse=True):
    write(os.path.join(dst, "profiles", name), profile(yaml.safe_load(open(os.path.join("profiles", name)))))
# Templates unchanged, created in reverse order.
for base, dirs, files in sorted(os.walk("templates"), reverse=True):
    os.makedirs(os.path.join(dst, base), exist_ok=True)
    for name in sorted(files, reverse=True):
        shutil.copyfile(os.path.join(base, name), os.path.join(dst, base, name))
PY
}

for inv in lab lab-mixed rail-optimized; do
  "$bin" render -i "inventory/$inv" --out "$work/$inv" >"$work/$inv.summary"
  if [ "${UPDATE:-}" = 1 ]; then
    rm -rf "tests/golden/$inv"; mkdir -p tests/golden; cp -r "$work/$inv" "tests/golden/$inv"
  fi
  diff -ru "tests/golden/$inv" "$work/$inv" || { echo "FAIL: $inv differs from tests/golden/$inv"; exit 1; }
  # The summary names the output directory; compare it with the temporary prefix removed.
  sed -i "s#$work/##" "$work/$inv.summary"
  [ "${UPDATE:-}" = 1 ] && cp "$work/$inv.summary" "tests/golden/$inv.summary"
  diff -u "tests/golden/$inv.summary" "$work/$inv.summary" || { echo "FAIL: $inv summary differs"; exit 1; }

  # The same fabric, written in another order, rendered in another process and environment.
  alt="$work/alt-$inv"
  reversed_inputs "inventory/$inv" "$alt"
  cmp -s "inventory/$inv/fabric.yaml" "$alt/inv/fabric.yaml" && { echo "FAIL: the reordered $inv is not reordered"; exit 1; }
  (
    cd "$alt"
    umask 077
    env -i PATH=/usr/bin:/bin LC_ALL=C.UTF-8 LANG=C.UTF-8 TZ=Pacific/Kiritimati HOME="$alt/home" \
      MALLOC_CONF=junk:true MALLOC_PERTURB_=165 "$bin" render -i inv -p profiles --templates templates --out "$inv" >"$alt.summary"
  ) || { echo "FAIL: render of the reordered $inv failed"; exit 1; }
  diff -ru "tests/golden/$inv" "$alt/$inv" ||
    { echo "FAIL: $inv written in another order and rendered in another environment differs from tests/golden/$inv"; exit 1; }
  diff -u "tests/golden/$inv.summary" "$alt.summary" || { echo "FAIL: reordered $inv summary differs"; exit 1; }
done

# Every platform and both profiles are covered by the golden set.
for f in config_db.json config_db.patch.json session.cfg commands.nvue config.cfg config.set nic-state.json apply.sh; do
  find tests/golden -name "$f" | grep -q . || { echo "FAIL: no golden $f"; exit 1; }
done
grep -q '"profile": "roce-lossless"' tests/golden/lab/host1/nic-state.json || { echo "FAIL: lab is not roce-lossless"; exit 1; }
grep -q '"profile": "roce-pfc-only"' tests/golden/rail-optimized/gpu01/nic-state.json || { echo "FAIL: rail is not roce-pfc-only"; exit 1; }
echo "golden: 3 inventories match, also written in reverse order and rendered in another environment"

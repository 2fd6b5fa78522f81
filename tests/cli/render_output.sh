#!/usr/bin/env bash
# The output directory contract: an invalid fabric writes nothing; a directory that is not a
# previous render is never replaced; a new render drops files of devices that are gone.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail

cp -r "$root/profiles" "$work/profiles"
cp -r "$root/inventory/lab" "$work/inv"
cp -r "$root/templates" "$work/templates"
cd "$work"

"$bin" render -i inv -p profiles --templates templates --out out >/dev/null
[ -f out/leaf1/config_db.json ] || fail "first render wrote no config_db.json"
[ -f out/.fabricctl-render ] || fail "no render marker"
before=$(find out -type f -exec sha256sum {} + | sort)

# Invalid input: exit 2 and the previous render is untouched.
sed -i 's/probability: 20/probability: 200/' profiles/roce-lossless.yaml
set +e; "$bin" render -i inv -p profiles --templates templates --out out >/dev/null 2>err; rc=$?; set -e
[ $rc -eq 2 ] || fail "invalid profile: exit $rc, want 2"
grep -q 'roce-lossless.yaml:.*probability: "200" is out of range 0-100' err || fail "no located error: $(cat err)"
[ "$(find out -type f -exec sha256sum {} + | sort)" = "$before" ] || fail "invalid input changed the output"
sed -i 's/probability: 200/probability: 20/' profiles/roce-lossless.yaml

# A broken template: exit 2, nothing written.
echo '{{#ports}}' > templates/eos/session.cfg.mustache
set +e; "$bin" render -i inv -p profiles --templates templates --out out >/dev/null 2>err; rc=$?; set -e
[ $rc -eq 2 ] || fail "broken template: exit $rc, want 2"
grep -q 'templates/eos/session.cfg.mustache: invalid template' err || fail "template error not reported: $(cat err)"
[ "$(find out -type f -exec sha256sum {} + | sort)" = "$before" ] || fail "broken template changed the output"
cp "$root/templates/eos/session.cfg.mustache" templates/eos/

# SONiC CONFIG_DB and nic-state.json are data, not templates: a site's old copy of their former
# templates is not read (even a broken one), and the render is unchanged.
mkdir -p templates/sonic
echo '{{#ports}}' > templates/sonic/config_db.json.mustache
echo '{{#ports}}' > templates/linux/nic-state.json.mustache
"$bin" render -i inv -p profiles --templates templates --out out >/dev/null || fail "leftover data templates broke render"
[ "$(find out -type f -exec sha256sum {} + | sort)" = "$before" ] || fail "leftover data templates changed the output"

# A device removed from the inventory disappears from the output.
python3 - <<'PY'
import re
p = "inv/fabric.yaml"
s = open(p).read()
s = re.sub(r"\n  host2:\n(    .*\n)+", "\n", s)
s = "\n".join(l for l in s.splitlines() if "host2:" not in l) + "\n"
open(p, "w").write(s)
PY
"$bin" render -i inv -p profiles --templates templates --out out >/dev/null
[ ! -e out/host2 ] || fail "stale device directory survived"
[ -f out/host1/apply.sh ] || fail "host1 missing after re-render"

# "out/" names the same directory as "out".
"$bin" render -i inv -p profiles --templates templates --out out/ >/dev/null || fail "render --out out/ failed"
[ -f out/host1/apply.sh ] && [ ! -e out/out ] || fail "render --out out/ wrote to the wrong place"

# A directory that is not a render is never replaced.
mkdir precious && echo keep > precious/file
set +e; "$bin" render -i inv -p profiles --templates templates --out precious >/dev/null 2>err; rc=$?; set -e
[ $rc -eq 2 ] || fail "non-render directory: exit $rc, want 2"
grep -q 'refusing to replace' err || fail "no refusal message: $(cat err)"
[ "$(cat precious/file)" = keep ] || fail "non-render directory was modified"
echo "render output contract: ok"

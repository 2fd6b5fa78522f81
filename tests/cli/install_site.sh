#!/usr/bin/env bash
# Install, then use the installed fabricctl from a site repository of its own (docs/install.md):
# `cmake --install` into a temporary prefix; a git repository with its inventory, a profile that
# extends a shipped one, its own templates and a fabricctl.yaml naming both; validate, render,
# snapshot --from-intent, verify, diff and render --check with the INSTALLED binary, run from the
# site repository.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail

build=$(dirname "$bin")
skip() {
  [ -z "${CI:-}" ] || fail "$1 (CI is set, so this test may not skip)"
  echo "SKIP: $1"; exit 77
}
[ -f "$build/cmake_install.cmake" ] || skip "$bin is not in a CMake build tree"
command -v git >/dev/null || skip "git is not installed"
unset FABRICCTL_PROFILES FABRICCTL_TEMPLATES

prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
fab=$prefix/bin/fabricctl
for f in bin/fabricctl share/fabricctl/profiles/roce-lossless.yaml share/fabricctl/profiles/roce-pfc-only.yaml \
         share/fabricctl/templates/eos/session.cfg.mustache share/fabricctl/templates/nvue/commands.nvue.mustache \
         share/fabricctl/templates/linux/apply.sh.mustache share/man/man1/fabricctl.1.gz \
         share/fabricctl/schemas/snapshot-v1.schema.json share/fabricctl/schemas/verify-v1.schema.json \
         share/fabricctl/schemas/nic-state-v1.schema.json share/fabricctl/schemas/validate-v1.schema.json \
         share/bash-completion/completions/fabricctl share/doc/fabricctl/cli.md; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
[ ! -e "$prefix/bin/fabricctl.datadir" ] || fail "the build tree's data directory marker was installed"
[ -x "$fab" ] || fail "installed fabricctl is not executable"

# The site repository.
site=$work/site
mkdir -p "$site/inventory" "$site/profiles"
cd "$site"
git init -q .
sed 's/^  profile: roce-lossless$/  profile: site-lossless/' "$root/inventory/lab/fabric.yaml" >inventory/fabric.yaml
grep -q 'profile: site-lossless' inventory/fabric.yaml || fail "the lab inventory no longer selects roce-lossless in defaults"
cat >profiles/site-lossless.yaml <<'YAML'
# Our fabric: the shipped roce-lossless with jumbo switch ports and gentler ECN marking.
description: site RoCE
extends: roce-lossless
mtu:
  switch: 9200
ecn:
  tc:
    3: {probability: 7}
YAML
# Site templates: only the one file the site overrides; the others come from the shipped set.
mkdir -p templates/eos
sed 's/^}}! fabricctl: {{device}}/}}! site acme: {{device}}/' "$prefix/share/fabricctl/templates/eos/session.cfg.mustache" \
  >templates/eos/session.cfg.mustache
grep -q '! site acme' templates/eos/session.cfg.mustache || fail "the EOS template's first line changed; update this test"
cat >fabricctl.yaml <<'YAML'
profiles: profiles
templates: [templates]
YAML
printf 'out/\nsnapshots/\n' >.gitignore
git add -A && git -c user.name=site -c user.email=site@localhost commit -qm "site fabric"

"$fab" validate -i inventory >validate.out || fail "validate exited $?"
[ "$(cat validate.out)" = "ok: 5 devices, 12 ports, 6 links" ] || fail "validate: $(cat validate.out)"

"$fab" render -i inventory --out out >render.out || fail "render exited $?"
grep -q '^leaf2 .* site-lossless ' render.out || fail "render summary does not name the site profile: $(cat render.out)"
head -1 out/leaf2/session.cfg | grep -qx '! site acme: leaf2 profile site-lossless' ||
  fail "the site's EOS template was not used: $(head -1 out/leaf2/session.cfg)"
grep -q '^   mtu 9200$' out/leaf2/session.cfg || fail "the extended profile's switch MTU is not in the EOS render"
grep -q '"mtu": "9200"' out/leaf1/config_db.json || fail "the extended profile's switch MTU is not in the SONiC render"
grep -q 'minimum-threshold 153600 bytes maximum-threshold 1536000 bytes max-mark-probability 7 ' out/leaf2/session.cfg ||
  fail "the extended profile's ECN probability is not in the EOS render"
grep -q 'mtu 9000' out/host1/apply.sh || fail "the inherited host MTU is not in the host render"
grep -q '^nv set ' out/spine1/commands.nvue || fail "the shipped NVUE template (no site copy) was not used"

"$fab" snapshot --from-intent -i inventory --out snapshots >/dev/null || fail "snapshot exited $?"
set +e; "$fab" verify -i inventory --snapshots snapshots -o json >verify.json; rc=$?; set -e
[ $rc -eq 0 ] || fail "verify of the intent's own snapshots exited $rc"
/usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["summary"]; sys.exit(0 if r["results"]["fail"] == 0 and r["results"]["pass"] > 0 else 1)' verify.json ||
  fail "verify reported failures: $(head -c 400 verify.json)"

# The review of a change, with the installed binary: ECN probability 7 -> 9 against the commit.
"$fab" render -i inventory --out out --check >/dev/null || fail "render --check of a fresh render exited $?"
sed -i 's/probability: 7}/probability: 9}/' profiles/site-lossless.yaml
set +e; "$fab" diff -i inventory --base-rev HEAD >diff.out; rc=$?; set -e
[ $rc -eq 1 ] || fail "diff of a change exited $rc: $(cat diff.out)"
grep -qE '^  ecn\[tc=3\]\.probability_pct 7 -> 9 on leaf1-2, spine1: [0-9]+ ports$' diff.out ||
  fail "diff's intent change: $(head -5 diff.out)"
grep -q '^+.*max-mark-probability 9 ' diff.out || fail "diff lacks the EOS line: $(grep -c . diff.out) lines"
set +e; "$fab" render -i inventory --out out --check >/dev/null 2>&1; rc=$?; set -e
[ $rc -eq 1 ] || fail "render --check after the change exited $rc, want 1 (stale)"
git checkout -q profiles/site-lossless.yaml

# The installed tree may move as a whole: the data directory is found beside the executable.
mv "$prefix" "$work/moved"
"$work/moved/bin/fabricctl" validate -i inventory >/dev/null || fail "validate after moving the installed tree"
# ... and the shipped profile really came from there.
rm "$work/moved/share/fabricctl/profiles/roce-lossless.yaml"
set +e; "$work/moved/bin/fabricctl" validate -i inventory >/dev/null 2>err; rc=$?; set -e
[ $rc -eq 2 ] || fail "validate without the shipped base exited $rc"
grep -q '^profiles/site-lossless.yaml:3:10: extends: unknown profile "roce-lossless"' err ||
  fail "the missing base is not reported at the site profile: $(cat err)"
echo "install site: ok"

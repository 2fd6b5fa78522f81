#!/usr/bin/env bash
# Where profiles and templates come from (docs/cli.md#where-profiles-and-templates-come-from): -p and
# --templates, then FABRICCTL_PROFILES / FABRICCTL_TEMPLATES, then fabricctl.yaml beside the
# inventory, then the data directory; errors name the path and how it was chosen.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
unset FABRICCTL_PROFILES FABRICCTL_TEMPLATES
cd "$work"

# expect_error WANT_FILE CMD...: exit 2, nothing on stdout, exactly WANT_FILE on stderr.
expect_error() {
  local want=$1; shift
  set +e; "$@" >out 2>err; local rc=$?; set -e
  [ $rc -eq 2 ] || fail "$*: exit $rc, want 2; stderr: $(cat err)"
  [ ! -s out ] || fail "$*: stdout: $(cat out)"
  diff -u "$want" err || fail "$*: stderr differs"
}
ok="ok: 5 devices, 12 ports, 6 links"
expect_ok() {
  "$@" >out 2>err || fail "$*: exit $?; stderr: $(cat err)"
  [ "$(cat out)" = "$ok" ] || fail "$*: $(cat out)"
}

# The build tree's binary finds the repository's data from any directory (its fabricctl.datadir marker).
expect_ok "$bin" validate -i "$root/inventory/lab"

# A site layout: inventory selecting a profile that extends a shipped one.
mkdir -p site/inventory site/profiles site/more
sed 's/^  profile: roce-lossless$/  profile: site/' "$root/inventory/lab/fabric.yaml" >site/inventory/fabric.yaml
printf 'extends: base\n' >site/profiles/site.yaml
printf 'extends: roce-lossless\nmtu: {switch: 9200}\n' >site/more/base.yaml

# -p repeats; a profile extends one in another directory, which extends a shipped one.
expect_ok "$bin" validate -i site/inventory -p site/profiles -p site/more
# Environment: a ':' list; -p wins over it.
FABRICCTL_PROFILES=site/profiles:site/more expect_ok "$bin" validate -i site/inventory
FABRICCTL_PROFILES=nowhere expect_ok "$bin" validate -i site/inventory -p site/profiles -p site/more
printf 'fabricctl: error: profiles directory "nowhere" (from FABRICCTL_PROFILES) does not exist\nfabricctl: 1 error; nothing was changed\n' >want
FABRICCTL_PROFILES=nowhere expect_error want "$bin" validate -i site/inventory
printf 'fabricctl: error: profiles directory "site/inventory/fabric.yaml" (from -p) is not a directory\nfabricctl: 1 error; nothing was changed\n' >want
expect_error want "$bin" validate -i site/inventory -p site/inventory/fabric.yaml

# fabricctl.yaml beside the inventory, paths relative to it; the environment wins over it.
printf 'profiles:\n  - profiles\n  - more\n' >site/fabricctl.yaml
expect_ok "$bin" validate -i site/inventory
(cd site && expect_ok "$bin" validate -i inventory/)
printf 'fabricctl: error: profiles directory "nowhere" (from FABRICCTL_PROFILES) does not exist\nfabricctl: 1 error; nothing was changed\n' >want
FABRICCTL_PROFILES=nowhere expect_error want "$bin" validate -i site/inventory
printf 'profiles: [profiles, gone]\n' >site/fabricctl.yaml
printf 'fabricctl: error: profiles directory "site/gone" (from site/fabricctl.yaml:1:22) does not exist\nfabricctl: 1 error; nothing was changed\n' >want
expect_error want "$bin" validate -i site/inventory
# Strict: an unknown key is a located error (with the inventory's own errors, if any).
printf 'profiles: [profiles, more]\ntemplate: t\n' >site/fabricctl.yaml
printf 'site/fabricctl.yaml:2:1: unknown key "template" in fabricctl.yaml; did you mean "templates"?\nfabricctl: 1 error; nothing was changed\n' >want
expect_error want "$bin" validate -i site/inventory
printf 'profiles: [profiles, more]\n' >site/fabricctl.yaml

# One name in two site directories: an error naming both files, even when the two agree.
mkdir -p site/copy && cp site/more/base.yaml site/copy/
printf 'site/copy/base.yaml:1:1: profile "base" is also defined in site/more/base.yaml\nfabricctl: 1 error; nothing was changed\n' >want
expect_error want "$bin" validate -i site/inventory -p site/profiles -p site/more -p site/copy
# An unknown base, with a suggestion.
printf 'extends: bass\n' >site/profiles/site.yaml
printf 'site/profiles/site.yaml:1:10: extends: unknown profile "bass"; did you mean "base"?\nfabricctl: 1 error; nothing was changed\n' >want
expect_error want "$bin" validate -i site/inventory
printf 'extends: base\n' >site/profiles/site.yaml

# The site profile's value reaches the render; templates: --templates, then FABRICCTL_TEMPLATES,
# then fabricctl.yaml, then the shipped ones.
"$bin" render -i site/inventory --out r1 >/dev/null || fail "render with fabricctl.yaml"
grep -q '^   mtu 9200$' r1/leaf2/session.cfg || fail "the extended profile's MTU is not in the render"
cp -r "$root/templates" site/templates
sed -i '1s/^/{{! site }}site-template /' site/templates/eos/session.cfg.mustache
printf 'profiles: [profiles, more]\ntemplates: templates\n' >site/fabricctl.yaml
"$bin" render -i site/inventory --out r2 >/dev/null || fail "render with site templates"
head -1 r2/leaf2/session.cfg | grep -q '^site-template ' || fail "fabricctl.yaml's templates were not used"
FABRICCTL_TEMPLATES="$root/templates" "$bin" render -i site/inventory --out r3 >/dev/null || fail "render, env templates"
cmp -s r1/leaf2/session.cfg r3/leaf2/session.cfg || fail "FABRICCTL_TEMPLATES did not win over fabricctl.yaml"
FABRICCTL_TEMPLATES=site/templates "$bin" render -i site/inventory --templates "$root/templates" --out r4 >/dev/null ||
  fail "render, --templates"
cmp -s r1/leaf2/session.cfg r4/leaf2/session.cfg || fail "--templates did not win over FABRICCTL_TEMPLATES"
printf 'fabricctl: error: templates directory "tpl" (from --templates) does not exist\nfabricctl: 1 error; nothing was changed\n' >want
expect_error want "$bin" render -i site/inventory --templates tpl --out r5
[ ! -e r5 ] || fail "a failed render wrote its output"

# A binary with no data directory: beside it neither a marker nor ../share/fabricctl.
# The built-in place is the data directory of the prefix the build was configured for.
builtin="$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$(dirname "$bin")/CMakeCache.txt" 2>/dev/null)/share/fabricctl"
if [ "$builtin" != /share/fabricctl ] && [ ! -d "$builtin" ]; then
  mkdir -p lone/bin && cp "$bin" lone/bin/fabricctl
  cat >want <<EOF2
fabricctl: error: no profiles directory: give -p DIR, set FABRICCTL_PROFILES or name profiles: in fabricctl.yaml beside the inventory; no data directory was found (looked in "$work/lone/share/fabricctl", "$builtin")
fabricctl: error: no templates directory: give --templates DIR, set FABRICCTL_TEMPLATES or name templates: in fabricctl.yaml beside the inventory; no data directory was found (looked in "$work/lone/share/fabricctl", "$builtin")
fabricctl: 2 errors; nothing was changed
EOF2
  expect_error want lone/bin/fabricctl validate -i "$root/inventory/lab"
  # A marker names the data directory, relative to the binary's directory.
  printf '%s\n' "$root" >lone/bin/fabricctl.datadir
  expect_ok lone/bin/fabricctl validate -i "$root/inventory/lab"
fi
echo "install resolution: ok"

#!/usr/bin/env bash
# fabricctl design rail-optimized (docs/design.md) as a user runs it: the shipped example is exactly
# what designs/rail-optimized.yaml makes; a new inventory is written whole and validates; growing by
# half a pod and then a pod leaves every existing device's rendered configuration as it was (the spines
# gain ports) and every existing cable in place; a hand edit, a shrink, a bad spec and a design whose
# inventory does not validate are refused with exit 2, located, and nothing is written.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
cd "$work"
cp -r "$root/profiles" profiles
design() { "$bin" design rail-optimized "$@" -p profiles; }
tree_sum() { (cd "$1" && find . -type f -exec sha256sum {} + | sort); }
no_stage() { [ -z "$(ls -A | grep '^\.fabricctl-design-' || true)" ] || fail "a staging directory was left: $(ls -A)"; }

# The shipped example is the design's output, byte for byte.
run design "$root/designs/rail-optimized.yaml" --check "$root/inventory/rail-optimized"
[ $rc -eq 0 ] || fail "inventory/rail-optimized is not what designs/rail-optimized.yaml makes: $(cat out err)"
cp "$root/designs/rail-optimized.yaml" renamed.yaml  # the header names the spec; a rename is no edit
run design renamed.yaml --check "$root/inventory/rail-optimized"
[ $rc -eq 0 ] || fail "--check after renaming the spec: exit $rc: $(cat out)"
cp -r "$root/inventory/rail-optimized" edited
sed -i 's/rail3-leaf:Ethernet2\/1/rail3-leaf:Ethernet3\/1/' edited/links.yaml
run design "$root/designs/rail-optimized.yaml" --check edited
[ $rc -eq 1 ] || fail "--check of an edited inventory: exit $rc, want 1"
grep -q '^edited/links.yaml:[0-9]*: differs from what the design makes$' "$work/out" || fail "--check: $(cat "$work/out")"

# A new inventory at two pods: the report's numbers, four files, valid.
run design "$root/designs/scale.yaml" --hosts 64 --out inv
[ $rc -eq 0 ] || fail "design --out: exit $rc: $(cat "$work/err")"
grep -q 'servers    64 in 2 pods of up to 32' "$work/out" || fail "report: $(cat "$work/out")"
grep -q 'oversubscription  1.00:1' "$work/out" || fail "report: $(cat "$work/out")"
grep -q 'optics     1024 (512 cables longer than 3 m, two each); 512 copper (DAC) cables' "$work/out" ||
  fail "report: $(cat "$work/out")"
grep -q '^wrote inv: 112 devices, 2048 ports, 1024 links, valid$' "$work/out" || fail "summary: $(cat "$work/out")"
[ "$(ls inv | tr '\n' ' ')" = "fabric.yaml hosts.yaml links.yaml switches.yaml " ] || fail "files: $(ls -A inv)"
"$bin" validate -i inv -p profiles | grep -q '^ok: 112 devices' || fail "the written inventory does not validate"
no_stage
"$bin" render -i inv -p profiles --out render-64 >/dev/null

# --out never writes into a directory that holds something.
before=$(tree_sum inv)
run design "$root/designs/scale.yaml" --hosts 96 --out inv
[ $rc -eq 2 ] || fail "--out into a full directory: exit $rc, want 2"
grep -q 'inv: exists and is not an empty directory' "$work/err" || fail "message: $(cat "$work/err")"
[ "$(tree_sum inv)" = "$before" ] || fail "--out changed a directory it refused"

# Growing by half a pod, then to three pods: nothing renamed, nothing rewired, every existing switch and
# server configured as before but the spines, which gain the new leaves' ports.
for size in "--hosts 80" "--pods 3"; do
  run design "$root/designs/scale.yaml" $size --grow inv
  [ $rc -eq 0 ] || fail "--grow to $size: exit $rc: $(cat "$work/err")"
  grep -q '^grew inv: ' "$work/out" || fail "--grow summary: $(cat "$work/out")"
done
grep -q 'servers    96 in 3 pods' "$work/out" || fail "--pods 3 is not 96 servers: $(cat "$work/out")"
no_stage
"$bin" render -i inv -p profiles --out render-96 >/dev/null
changed=0
for d in render-64/*/; do
  d=$(basename "$d")
  [ -d "render-96/$d" ] || fail "$d is gone after growing"
  if ! diff -r "render-64/$d" "render-96/$d" >/dev/null; then
    case $d in spine*) ;; *) fail "growing changed $d's configuration: $(diff -r "render-64/$d" "render-96/$d" | head -5)" ;; esac
    changed=$((changed + 1))
  fi
done
[ $changed -eq 32 ] || fail "$changed devices changed; want the 32 spines"
[ "$(ls render-96 | wc -l)" -eq $((32 + 24 + 96)) ] || fail "three pods: $(ls render-96 | wc -l) devices"
"$bin" design rail-optimized "$root/designs/scale.yaml" --hosts 64 -p profiles --out inv64 >/dev/null
missing=$(comm -23 <(sed 1d inv64/links.yaml | grep '^  - ' | sort) <(grep '^  - ' inv/links.yaml | sort) | head -3)
[ -z "$missing" ] || fail "growing moved cables: $missing"

# --grow refuses a hand edit, a shrink, and a directory the design did not write; nothing changes.
before=$(tree_sum inv)
sed -i 's/p001-gpu05:ens1f0np0/p001-gpu06:ens1f0np0/' inv/links.yaml
edited=$(tree_sum inv)
run design "$root/designs/scale.yaml" --hosts 128 --grow inv
[ $rc -eq 2 ] || fail "--grow of an edited inventory: exit $rc, want 2"
grep -q '^fabricctl: inv/links.yaml:[0-9]*: differs from what the design makes at 96 hosts$' "$work/err" ||
  fail "edit not located: $(cat "$work/err")"
grep -q 'is not what this design made at 96 hosts: edited by hand' "$work/err" || fail "message: $(cat "$work/err")"
[ "$(tree_sum inv)" = "$edited" ] || fail "a refused --grow changed the directory"
sed -i 's/p001-gpu06:ens1f0np0, b: p001-rail0:Ethernet32,/p001-gpu05:ens1f0np0, b: p001-rail0:Ethernet32,/' inv/links.yaml
[ "$(tree_sum inv)" = "$before" ] || fail "test bug: the edit was not undone"
run design "$root/designs/scale.yaml" --hosts 64 --grow inv
[ $rc -eq 2 ] && grep -q 'inv has 96 hosts and the design 64: --grow only adds' "$work/err" ||
  fail "shrink: exit $rc: $(cat "$work/err")"
cp -r "$root/inventory/lab" lab
run design "$root/designs/scale.yaml" --grow lab
[ $rc -eq 2 ] && grep -q 'lab/.*: not written by `fabricctl design`' "$work/err" || fail "lab: exit $rc: $(cat "$work/err")"
no_stage

# A bad spec: every mistake located, exit 2, nothing written.
sed -e 's/radix: 64/radix: 40/' -e 's/name: "p{pod:03}-rail{rail}"/name: "p{pod:03}-rail{rails}"/' \
  "$root/designs/scale.yaml" >bad.yaml
run design bad.yaml --out bad-inv
[ $rc -eq 2 ] || fail "bad spec: exit $rc, want 2"
grep -q '^bad.yaml:[0-9]*:[0-9]*: leaves.name: "p{pod:03}-rail{rails}": unknown placeholder {rails}' "$work/err" ||
  fail "bad placeholder: $(cat "$work/err")"
[ ! -e bad-inv ] || fail "a refused design wrote bad-inv"
sed -e 's/radix: 64/radix: 40/' "$root/designs/scale.yaml" >small.yaml
run design small.yaml --out small-inv
[ $rc -eq 2 ] && grep -q '^small.yaml:[0-9]*:[0-9]*: leaves: a leaf of 40 ports cannot take 32 servers' "$work/err" ||
  fail "small leaves: exit $rc: $(cat "$work/err")"
# A design whose inventory does not validate (no such profile): the error names the directory it
# would have written, not the staging directory, and nothing is left.
sed -e 's/^profile: roce-pfc-only/profile: no-such-profile/' "$root/designs/scale.yaml" >noprofile.yaml
run design noprofile.yaml --out np-inv
[ $rc -eq 2 ] || fail "unknown profile: exit $rc, want 2: $(cat "$work/err")"
grep -q 'np-inv/fabric.yaml:[0-9]*:[0-9]*: .*no-such-profile' "$work/err" || fail "not located in np-inv: $(cat "$work/err")"
grep -q 'the inventory it made does not validate; nothing was written' "$work/err" || fail "$(cat "$work/err")"
[ ! -e np-inv ] || fail "an invalid design wrote np-inv"
no_stage
run "$bin" design leaf-spine x.yaml
[ $rc -eq 2 ] && grep -q 'unknown kind of design "leaf-spine"; the one there is: rail-optimized' "$work/err" ||
  fail "unknown kind: $(cat "$work/err")"
echo "design: ok"

#!/usr/bin/env bash
# fabricctl diff on a real Git repository of a site's intent: the intent-level change list, the
# native files and their unified diff (applied back with GNU patch), JSON for a CI bot, --base DIR
# and --base-rev REV agreeing, and hostile revisions refused before git runs.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
command -v git >/dev/null || { [ -n "${CI:-}" ] && fail "git is required in CI"; echo "SKIP: git not installed"; exit 77; }
site="$work/site"
mkdir -p "$site"
cp -r inventory/lab "$site/inventory"
cp -r profiles templates "$site/"
cd "$site"
git init -q . && git -c user.name=t -c user.email=t@example.invalid commit -qm base --allow-empty
git add -A && git -c user.name=t -c user.email=t@example.invalid commit -qm "lab intent"
d() { "$bin" diff -i inventory -p profiles --templates templates "$@"; }
run() { set +e; "$@"; rc=$?; set -e; }

run d --base-rev HEAD >"$work/same.out"
[ $rc -eq 0 ] || fail "no change: exit $rc, want 0: $(cat "$work/same.out")"
[ "$(cat "$work/same.out")" = "no changes" ] || fail "no change: $(cat "$work/same.out")"

# The review: ECN probability 20 -> 30 on the lossless class.
cp -r "$site" "$work/base-checkout"
sed -i 's/probability: 20}/probability: 30}/' profiles/roce-lossless.yaml
run d --base-rev HEAD >"$work/rev.out"
[ $rc -eq 1 ] || fail "a change: exit $rc, want 1"
grep -qE '^  ecn\[tc=3\]\.probability_pct 20 -> 30 on leaf1-2, spine1: [0-9]+ ports$' "$work/rev.out" ||
  fail "intent change line: $(head -5 "$work/rev.out")"
grep -qE '^  leaf1/config_db.json +modified \+[0-9]+ -[0-9]+$' "$work/rev.out" || fail "native file list: $(cat "$work/rev.out")"
grep -q '^--- a/leaf2/session.cfg$' "$work/rev.out" || fail "no unified diff for EOS"
! grep -q 'host1/' "$work/rev.out" || fail "hosts have no ECN marking, yet a host file changed"
# The working tree and the repository are untouched by --base-rev.
[ -z "$(git status --porcelain | grep -v roce-lossless.yaml)" ] || fail "diff changed the repository: $(git status --porcelain)"

# --base DIR gives the same answer as --base-rev.
run d --base "$work/base-checkout" >"$work/dir.out"
[ $rc -eq 1 ] || fail "--base DIR: exit $rc"
cmp -s "$work/rev.out" "$work/dir.out" || fail "--base DIR and --base-rev differ: $(diff "$work/rev.out" "$work/dir.out" | head)"

# JSON for a bot; its patches turn the base's render into the new render, byte for byte (GNU patch).
run d --base-rev HEAD -o json >"$work/diff.json"
[ $rc -eq 1 ] || fail "json: exit $rc"
(cd "$work/base-checkout" && "$bin" render -i inventory -p profiles --templates templates --out "$work/base-render" >/dev/null)
"$bin" render -i inventory -p profiles --templates templates --out "$work/head-render" >/dev/null
/usr/bin/python3 - "$work/diff.json" "$work" <<'PY'
import json, os, subprocess, sys
doc = json.load(open(sys.argv[1]))
assert doc["schema"] == "fabricctl.diff/v1" and doc["base"] == "HEAD", doc.keys()
[change] = doc["intent"]
assert change["key"] == "ecn[tc=3].probability_pct" and change["before"] == 20 and change["after"] == 30, change
assert change["devices"] == ["leaf1", "leaf2", "spine1"] and change["level"] == "port", change
files = {f["path"]: f for f in doc["files"]}
assert "leaf2/session.cfg" in files and "spine1/commands.nvue" in files, list(files)
for f in doc["files"]:
    assert f["status"] == "modified" and f["added"] > 0, f
    assert f["patch"].count("\n+") - f["patch"].count("\n+++") == f["added"], f
    subprocess.run(["patch", "-s", "-p1", "-d", os.path.join(sys.argv[2], "base-render")], input=f["patch"].encode(),
                   check=True)
PY
diff -r "$work/base-render" "$work/head-render" >/dev/null || fail "the patches do not give the new render"

# What the intent removes is in the render, so the diff a reviewer approves is what reaches the device:
# the watchdog turned off is a `no` line on EOS and an `nv unset` on NVUE, not a line that disappears.
cp profiles/roce-lossless.yaml "$work/roce-lossless.yaml"
/usr/bin/python3 - profiles/roce-lossless.yaml <<'PY'
import re, sys
text = open(sys.argv[1]).read()
new = re.sub(r"(pfc_watchdog:\n  enabled:) true", r"\1 false", text)
assert new != text, "no pfc_watchdog.enabled in the profile"
open(sys.argv[1], "w").write(new)
PY
run d --base-rev HEAD >"$work/removal.out"
[ $rc -eq 1 ] || fail "watchdog off: exit $rc"
for line in '^-   priority-flow-control pause watchdog$' '^\+   no priority-flow-control pause watchdog$' \
  '^\+no priority-flow-control pause watchdog action$' '^-nv set interface swp1 qos pfc-watchdog state enable$' \
  '^\+nv unset interface swp1 qos pfc-watchdog$' '^\+nv unset qos pfc-watchdog$'; do
  grep -qE "$line" "$work/removal.out" || fail "watchdog off: no line $line in the diff: $(grep -E '^[-+]' "$work/removal.out" | head -20)"
done
cp "$work/roce-lossless.yaml" profiles/roce-lossless.yaml

# Errors: exit 2, named.
run d
[ $rc -eq 2 ] || fail "no base: exit $rc"
run d --base x --base-rev HEAD
[ $rc -eq 2 ] || fail "both bases: exit $rc"
for rev in '-oops' 'HEAD;touch pwned' 'a..b' '$(id)'; do
  out=$(d --base-rev "$rev" 2>&1) && fail "hostile revision $rev accepted"
  grep -q 'is not a revision name' <<<"$out" || fail "revision $rev: $out"
done
[ ! -e pwned ] || fail "a revision ran a command"
out=$(d --base-rev no-such-branch 2>&1) && fail "unknown revision accepted"
grep -q 'git exited with status' <<<"$out" || fail "unknown revision: $out"
out=$(d --base "$work/nowhere" 2>&1) && fail "missing --base accepted"
grep -q 'is not a directory' <<<"$out" || fail "missing --base: $out"
# A base that does not validate is named as the base.
sed -i 's/probability: 30}/probability: 300}/' profiles/roce-lossless.yaml
git -c user.name=t -c user.email=t@example.invalid commit -qam "broken"
sed -i 's/probability: 300}/probability: 30}/' profiles/roce-lossless.yaml
out=$(d --base-rev HEAD 2>&1) && fail "invalid base accepted"
grep -q 'the base version (HEAD) does not validate' <<<"$out" || fail "invalid base: $out"
echo "diff: ok"

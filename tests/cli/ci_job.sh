#!/usr/bin/env bash
# The merge-request job of docs/ci.md, run as written: its `script` lines, taken from the page's YAML,
# each with bash -e -o pipefail (as GitLab's runner runs them), in a clone of a real Git repository
# whose origin has the target branch. A merge request that changes the intent and commits its render
# passes, and its JUnit report reads with junitparser (its findings: what the change sets, not yet on
# the devices the snapshots were collected from); one with a stale committed render fails at the
# render --check line; one with an invalid intent fails at validate.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
py=/usr/bin/python3
for need in git; do
  command -v "$need" >/dev/null || { [ -n "${CI:-}" ] && fail "$need is required in CI"; echo "SKIP: $need not installed"; exit 77; }
done
if ! "$py" -c 'import yaml, junitparser' 2>/dev/null; then
  [ "${CI:-}" = true ] && fail "python3-yaml and python3-junitparser are required in CI (scripts/install-deps)"
  echo "SKIP: python3-yaml or python3-junitparser is not installed"
  exit 77
fi
mkdir "$work/bin"
ln -s "$bin" "$work/bin/fabricctl"
export PATH="$work/bin:$PATH"
git_() { git -c user.name=ci -c user.email=ci@example.invalid -c init.defaultBranch=main "$@"; }

# The job's script lines, from docs/ci.md.
"$py" - "$root/docs/ci.md" "$work/script" <<'PY'
import re, sys, yaml
text = open(sys.argv[1]).read()
blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
jobs = [yaml.safe_load(b) for b in blocks]
[job] = [j["fabricctl"] for j in jobs if isinstance(j, dict) and "fabricctl" in j]
with open(sys.argv[2], "w") as f:
    for line in job["script"]:
        f.write(line.replace("\n", " ") + "\n")
PY
n=$(wc -l <"$work/script")
[ "$n" -ge 5 ] || fail "only $n script lines in docs/ci.md"
grep -q 'render .*--check' "$work/script" || fail "the job does not check the committed render"

# The target branch: a site's intent, its committed render and its snapshots, on a bare origin.
site="$work/site"
mkdir -p "$site/templates/eos"
cp -r "$root/inventory/lab" "$site/inventory"
mkdir "$site/profiles"
cp "$root/profiles/roce-lossless.yaml" "$site/profiles/"
cp "$root/templates/eos/session.cfg.mustache" "$site/templates/eos/"
cp -r "$root/tests/snapshots/lab-good" "$site/snapshots"
(cd "$site" && fabricctl render -i inventory -p profiles --templates templates --out rendered >/dev/null)
git_ init -q "$site"
git_ -C "$site" add -A
git_ -C "$site" commit -qm "the site's intent"
git_ init -q --bare "$work/origin.git"
git_ -C "$site" push -q "$work/origin.git" main

# run_job NAME: clones origin, lets `change` (a function) make the merge request, and runs the job;
# prints the index of the first failing line (0 when all pass) and keeps the job's directory.
run_job() {
  local name=$1 dir="$work/$1" i=0 line
  git_ clone -q "$work/origin.git" "$dir"
  git_ -C "$dir" checkout -qb mr
  (cd "$dir" && change)
  git_ -C "$dir" commit -qam "$name" --allow-empty
  while IFS= read -r line; do
    i=$((i + 1))
    if ! (cd "$dir" && CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main bash -e -o pipefail -c "$line") \
      >>"$dir.log" 2>&1; then
      echo "$i"
      return
    fi
  done <"$work/script"
  echo 0
}

# A good merge request: ECN probability 20 -> 30, re-rendered and committed.
change() {
  sed -i 's/probability: 20}/probability: 30}/' profiles/roce-lossless.yaml
  fabricctl render -i inventory -p profiles --templates templates --out rendered >/dev/null
}
at=$(run_job good)
[ "$at" = 0 ] || fail "the good merge request failed at line $at: $(sed -n "${at}p" "$work/script"): $(tail -20 "$work/good.log")"
grep -qE 'ecn\[tc=3\]\.probability_pct 20 -> 30' "$work/good/diff.txt" || fail "diff.txt: $(head "$work/good/diff.txt")"
"$py" - "$work/good" <<'PY' || fail "the job's artifacts"
import json, sys
from junitparser import JUnitXml
d = sys.argv[1]
xml = JUnitXml.fromfile(f"{d}/verify.xml")
cases = [c for s in xml for c in s]
# The snapshots are the fabric before the change: its one finding is the change itself, on both ends of
# every link that carries the RoCE class; everything else passes.
failed = {c.classname for c in cases if not c.is_passed}
assert failed == {"fabricctl.port.ecn.drift"}, failed
assert any(c.is_passed for c in cases)
assert json.load(open(f"{d}/diff.json"))["intent"], "diff.json has no intent change"
assert json.load(open(f"{d}/verify.json"))["summary"]["findings"], "verify.json has no findings"
PY

# A merge request that changes the intent but not the committed render: render --check fails the job.
change() { sed -i 's/probability: 20}/probability: 30}/' profiles/roce-lossless.yaml; }
at=$(run_job stale)
[ "$at" != 0 ] && grep -q 'render .*--check' <(sed -n "${at}p" "$work/script") ||
  fail "a stale render did not fail the render --check line (line $at): $(tail -5 "$work/stale.log")"
grep -q '^modified  leaf2/session.cfg$' "$work/stale.log" || fail "the stale file is not named: $(tail "$work/stale.log")"

# An invalid intent fails at validate, the first line.
change() { sed -i 's/probability: 20}/probability: 200}/' profiles/roce-lossless.yaml; }
at=$(run_job invalid)
[ "$at" = 1 ] || fail "an invalid intent failed at line $at, not at validate"
grep -q 'roce-lossless.yaml:.*"200" is out of range' "$work/invalid.log" || fail "no located error: $(cat "$work/invalid.log")"
echo "ci job: ok"

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
grep -q '^templates/eos/session.cfg.mustache:1:1: section "ports" is never closed$' err || fail "template error not located: $(cat err)"
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
/usr/bin/python3 - <<'PY'
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

# --out naming the current directory (or one holding it) is refused before anything is written: a
# render replaces its output directory whole.
cp -r out here && cd here
for dot in . ./ .. "$PWD"; do
  set +e; "$bin" render -i ../inv -p ../profiles --templates ../templates --out "$dot" >/dev/null 2>../err; rc=$?; set -e
  [ $rc -eq 2 ] || fail "--out $dot: exit $rc, want 2"
  grep -q "^fabricctl: error: refusing to render into \"$dot\": it is the current directory or holds it" ../err ||
    fail "--out $dot: no clear refusal: $(cat ../err)"
done
cd .. && diff -r out here >/dev/null || fail "--out . changed the current directory"
rm -rf here

# --out "" is a usage error, found before the fabric is read.
set +e; "$bin" render -i nosuch --out "" >/dev/null 2>err; rc=$?; set -e
[ $rc -eq 2 ] || fail "--out '': exit $rc, want 2"
grep -q "^fabricctl: error: the argument for option '--out' is empty" err || fail "--out '': $(cat err)"
grep -q '^usage: fabricctl render' err || fail "--out '': no usage line"

# -o is the summary's format, not the output directory.
set +e; "$bin" render -i inv -p profiles --templates templates -o out >/dev/null 2>err; rc=$?; set -e
[ $rc -eq 2 ] || fail "-o DIR: exit $rc, want 2"
grep -q "the option '--out' is required" err || fail "-o DIR: $(cat err)"
"$bin" render -i inv -p profiles --templates templates --out out -o json >summary.json
/usr/bin/python3 - <<'PY' || fail "json summary: $(cat summary.json)"
import json
s = json.load(open("summary.json"))
assert s["out"] == "out", s["out"]
leaf = next(d for d in s["devices"] if d["device"] == "leaf1")
assert leaf == {"device": "leaf1", "platform": "sonic", "role": "switch", "profile": "roce-lossless", "ports": 3,
                "files": ["config_db.json", "config_db.patch.json"]}, leaf
assert s["totals"]["devices"] == len(s["devices"]) == 4, s["totals"]
assert s["totals"]["files"] == sum(len(d["files"]) for d in s["devices"]), s["totals"]
assert s["totals"]["platforms"] == {"eos": 1, "linux": 1, "nvue": 1, "sonic": 1}, s["totals"]
PY
set +e; "$bin" render -i inv -p profiles --templates templates --out out -o yaml >/dev/null 2>err; rc=$?; set -e
[ $rc -eq 2 ] && grep -q 'unknown output format "yaml" (table, json)' err || fail "-o yaml: exit $rc, $(cat err)"

# Summary columns are as wide as their longest cell: a long device name does not run into the next column.
sed -i 's/\bleaf2\b/leaf2-with-a-rather-long-name-rack42/g' inv/*.yaml
"$bin" render -i inv -p profiles --templates templates --out out >summary
/usr/bin/python3 - <<'PY' || { cat summary; fail "summary columns collide"; }
lines = open("summary").read().splitlines()[:-1]
header = lines[0]
starts = [header.index(h) for h in ("DEVICE", "PLATFORM", "ROLE", "PROFILE", "PORTS", "FILES")]
for line in lines[1:]:
    for s in starts[1:]:
        assert line[s - 2:s] == "  " and line[s] != " ", (line, s)
assert any("leaf2-with-a-rather-long-name-rack42  eos" in l for l in lines)
PY

# Staging directories left by renders that were killed: the next render of the same OUT removes one whose
# pid is gone and that no process holds locked; it keeps one of a live pid (a render of an older version
# takes no lock) and one that is locked (a live render in another pid namespace).
sh -c 'exit 0' & dead=$!; wait $dead
mkdir -p ".fabricctl-stage-$dead-out/leaf1" ".fabricctl-stage-$dead-other" ".fabricctl-stage-$$-out"
mkdir -p ".fabricctl-stage-1$dead-out"
kill -0 "1$dead" 2>/dev/null && fail "pid 1$dead is alive: the locked case would prove nothing"
# The lock's holder is the sleep itself (fd 9), so killing $! releases it; its output goes nowhere, as
# ctest waits for every process that still holds the test's output.
(exec 9<".fabricctl-stage-1$dead-out" && flock -n 9 && exec sleep 30) >/dev/null 2>&1 & holder=$!
sleep 0.2
"$bin" render -i inv -p profiles --templates templates --out out >/dev/null
[ ! -e ".fabricctl-stage-$dead-out" ] || fail "a stale staging directory survived the next render"
[ -d ".fabricctl-stage-$dead-other" ] || fail "the staging directory of another OUT was removed"
[ -d ".fabricctl-stage-$$-out" ] || fail "the staging directory of a live pid was removed"
[ -d ".fabricctl-stage-1$dead-out" ] || fail "a locked staging directory was removed"
kill "$holder"; wait "$holder" 2>/dev/null || true
rm -rf .fabricctl-stage-*

# Ctrl-C during a render: the staging directory is removed and the previous OUT stays as it was. The
# previous OUT is the small fabric's, so a render that finished anyway would show.
"$bin" design rail-optimized "$root/designs/scale.yaml" --hosts 1280 -p profiles --out big >/dev/null
"$bin" render -i inv -p profiles --templates templates --out bigout >/dev/null
before=$(find bigout -type f -exec sha256sum {} + | sort)
set -m  # the render gets its own process group, where SIGINT is not ignored as in a background job
"$bin" render -i big -p profiles --templates templates --out bigout >/dev/null 2>err &
pid=$!
for ((i = 0; i < 3000; i++)); do [ -d ".fabricctl-stage-$pid-bigout" ] && break; pause 0.01; done
[ -d ".fabricctl-stage-$pid-bigout" ] || fail "no staging directory appeared: $(cat err)"
kill -INT "$pid"
set +e; wait "$pid"; rc=$?; set -e
set +m
[ $rc -eq 130 ] || fail "interrupted render: exit $rc, want 130 (SIGINT): $(cat err)"
grep -q '^fabricctl: interrupted; nothing was written$' err || fail "no interruption message: $(cat err)"
[ -z "$(ls -A | grep '^\.fabricctl-')" ] || fail "left behind after SIGINT: $(ls -A | grep '^\.fabricctl-')"
[ "$(find bigout -type f -exec sha256sum {} + | sort)" = "$before" ] || fail "SIGINT changed the previous render"


# Progress on a terminal only (a real pty from script(1)), erased before the summary; never with -q or
# without a terminal, and never before the intent has loaded.
if command -v script >/dev/null; then
  script -qec "$bin render -i inv -p profiles --templates templates --out tty-out" /dev/null >tty.out
  grep -q 'fabricctl: rendering [0-9]* devices into tty-out\.\.\.' tty.out || fail "no progress on a terminal: $(cat -v tty.out | head -c 300)"
  grep -q '^rendered ' <(tr '\r' '\n' <tty.out | sed 's/\x1b\[[0-9;]*[A-Za-z]//g') || fail "no summary after the progress line"
  script -qec "$bin render -i inv -p profiles --templates templates --out tty-out --check" /dev/null >tty-check.out
  grep -q 'comparing with tty-out\.\.\.' tty-check.out || fail "no progress for --check: $(cat -v tty-check.out | head -c 300)"
  script -qec "$bin render -q -i inv -p profiles --templates templates --out tty-out" /dev/null >tty-q.out
  ! grep -q 'rendering [0-9]* devices' tty-q.out || fail "-q still shows progress"
  sed -i 's/probability: 20/probability: 200/' profiles/roce-lossless.yaml
  script -qec "$bin render -i inv -p profiles --templates templates --out tty-out" /dev/null >tty-bad.out || true
  ! grep -q '\.\.\.' tty-bad.out || fail "progress before an input error: $(cat -v tty-bad.out)"
  sed -i 's/probability: 200/probability: 20/' profiles/roce-lossless.yaml
  "$bin" render -i inv -p profiles --templates templates --out tty-out >/dev/null 2>pipe.err
  [ ! -s pipe.err ] || fail "progress without a terminal: $(cat pipe.err)"
else
  [ -n "${CI:-}" ] && fail "script(1) (bsdutils) is required in CI"
  echo "SKIP: script(1) not installed: render progress untested"
fi

echo "render output contract: ok"

#!/usr/bin/env bash
# A drift audit keeps going when part of the fabric could not be read: on the lab's snapshot set (from
# its intent), each device's file removed, and each port of each device removed, `verify` must report the
# gap as missing data (exit 3) in every output format, never crash, never report a failure. The check
# behind it is exhaustive in src/verify/missing_data_test.cpp; this one runs the binary as users do.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail

"$bin" snapshot --from-intent -i inventory/lab --out "$work/set" >/dev/null

# One directory per variant: <device> without its file, <device>~<port> without that port.
/usr/bin/python3 - "$work/set" "$work/variants" <<'PY'
import json, os, shutil, sys
src, out = sys.argv[1:3]
for f in sorted(os.listdir(src)):
    device = f[: -len(".json")]
    d = os.path.join(out, device)
    shutil.copytree(src, d)
    os.remove(os.path.join(d, f))
    ports = json.load(open(os.path.join(src, f)))["ports"]
    for port in ports:
        d = os.path.join(out, device + "~" + port.replace("/", "_"))
        shutil.copytree(src, d)
        snap = json.load(open(os.path.join(src, f)))
        del snap["ports"][port]
        json.dump(snap, open(os.path.join(d, f), "w"), indent=2)
PY

# Every output format for a device's file missing, JSON (read below) for a port missing: the reports
# of the two kinds have the same shape whichever device or port it is. LeakSanitizer checks the first
# variant's runs (leaks_off, lib/common.sh).
n=0
for dir in "$work"/variants/*; do
  name=${dir##*/}
  formats=(table json junit prometheus)
  [[ $name != *~* ]] || formats=(json)
  for format in "${formats[@]}"; do
    set +e
    "$bin" verify -i inventory/lab --snapshots "$dir" -o "$format" >"$work/out" 2>"$work/err"
    rc=$?
    set -e
    [ $rc -eq 3 ] || { cat "$work/err"; fail "$name ($format): exit $rc, want 3 (missing data)"; }
    [ $format != json ] || mv "$work/out" "$work/variants/$name.json"
  done
  n=$((n + 1))
  leaks_off
done
[ $n -gt 10 ] || fail "only $n variants"
/usr/bin/python3 - "$work"/variants/*.json <<'PY'
import json, os, sys
for path in sys.argv[1:]:
    report, name = json.load(open(path)), os.path.basename(path)[: -len(".json")]
    fails = [f["check"] + " " + f["object"] for f in report["findings"] if f["status"] == "fail"]
    assert not fails, f"{name}: a part taken away reads as a fault: {fails}"
    assert report["summary"]["results"]["missing"] > 0, f"{name}: no missing data reported"
PY
echo "verify_missing: $n variants, each reported as missing data (a missing file in every format)"

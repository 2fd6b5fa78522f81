#!/usr/bin/env bash
# The classic case: in the lab fabric, leaf1:Ethernet8 has PFC off on the lossless priority while its
# host end (host2:ens1f0np0) has it on, and host1:ens2f0np0 was left at MTU 1500 (so RDMA runs at 1024).
# Two faults, so exactly two errors, each with one fix for the wrong end; what they cause (the PFC
# disagreement across the link and the RoCE it leaves in a lossy priority there, the RDMA MTU) is reported
# as their consequence, grouped under the link.
# The same snapshots with both fixed (tests/snapshots/lab-good) exit 0.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail

# The good set is exactly what the intent implies, so it cannot silently go stale.
"$bin" snapshot --from-intent -i inventory/lab --out "$work/expected" >/dev/null
diff -ru tests/snapshots/lab-good "$work/expected" || fail "tests/snapshots/lab-good differs from snapshot --from-intent"

set +e
"$bin" verify -i inventory/lab --snapshots tests/snapshots/lab-good -o json >"$work/good.json"; rc=$?
set -e
[ $rc -eq 0 ] || fail "lab-good: exit $rc, want 0"

set +e
"$bin" verify -i inventory/lab --snapshots tests/snapshots/lab-classic -o json >"$work/classic.json"; rc=$?
"$bin" verify -i inventory/lab --snapshots tests/snapshots/lab-classic -o table >"$work/classic.txt"
set -e
[ $rc -eq 1 ] || fail "lab-classic: exit $rc, want 1"

/usr/bin/python3 - "$work/good.json" "$work/classic.json" <<'PY'
import json, sys
good, classic = (json.load(open(p)) for p in sys.argv[1:3])
assert good["summary"]["results"]["fail"] == 0, good["summary"]
fails = {(f["check"], f["object"]) for f in classic["findings"] if f["status"] == "fail"}
want = {
    ("port.pfc.drift", "leaf1:Ethernet8"),
    ("port.mtu.drift", "host1:ens2f0np0"),
}
assert fails == want, "unexpected findings:\n  extra %s\n  missing %s" % (sorted(fails - want), sorted(want - fails))
assert classic["summary"]["findings"]["error"] == 2, classic["summary"]
causes = {(f["check"], f["cause"]) for f in classic["findings"] if f["status"] == "consequence"}
assert causes == {
    ("link.pfc.mismatch", "port.pfc.drift leaf1:Ethernet8"),
    ("link.roce.class", "port.pfc.drift leaf1:Ethernet8"),
    ("rdma.mtu.mismatch", "port.mtu.drift host1:ens2f0np0"),
}, causes
for f in classic["findings"]:
    if f["status"] == "fail":
        assert f["severity"] == "error" and f["hint"] and f["link"], f
    else:
        assert not f["hint"], f
hints = {f["object"]: f["hint"] for f in classic["findings"] if f["status"] == "fail"}
# Only the wrong setting, as a command for the device's own platform.
assert hints["leaf1:Ethernet8"] == "sudo config interface pfc priority 'Ethernet8' 3 on", hints
assert hints["host1:ens2f0np0"] == "ip link set dev 'ens2f0np0' mtu 9000", hints
PY
grep -q "host2:ens1f0np0 <-> leaf1:Ethernet8" "$work/classic.txt" || fail "table does not group the PFC finding by link"
grep -q "host1:ens2f0np0 <-> leaf2:Ethernet1/1" "$work/classic.txt" || fail "table does not group the MTU finding by link"
grep -q "^2 errors, 0 warnings, 0 info (+3 caused by them);" "$work/classic.txt" || fail "table summary does not count 2 errors"
echo "verify classic: ok"

#!/usr/bin/env bash
# fabricctl acceptance on the bundled lab (two hosts, two rails): its pairs' ib_write_bw reports and an
# nccl-tests run, in the layouts perftest and nccl-tests print (the numbers are this test's): one pair at
# the bar, one below it (exit 1), the JSON kept beside a baseline; a report for a pair the fabric does not
# have refused (exit 2), a pair not measured or a report cut short not judged (exit 3).
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
inv=(-i "$root/inventory/lab")
raw="$work/raw"
mkdir -p "$raw/ib_write_bw" "$raw/nccl" "$work/baseline"
report() {  # report GBPS: ib_write_bw's client side, --report_gbits
  printf '%s\n' '---------------------------------------------------------------------------------------' \
    '                    RDMA_Write BW Test' \
    ' Dual-port       : OFF		Device         : mlx5_0' \
    ' Link type       : Ethernet' \
    ' GID index       : 3' \
    '---------------------------------------------------------------------------------------' \
    ' #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]' \
    " 65536      5000             $1             $1		     0.700000" \
    '---------------------------------------------------------------------------------------'
}
report 371.87 >"$raw/ib_write_bw/host1:ens1f0np0~host2:ens1f0np0.txt"
report 301.20 >"$raw/ib_write_bw/host1:ens2f0np0~host2:ens2f0np0.txt"
cat >"$raw/nccl/allreduce-2x2.txt" <<'NCCL'
#  Rank  0 Group  0 Pid   4101 on      host1 device  0 [0000:18:00] NVIDIA H100 80GB HBM3
#  Rank  1 Group  0 Pid   3977 on      host2 device  0 [0000:18:00] NVIDIA H100 80GB HBM3
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
  1073741824     268435456     float     sum      -1  23470.1   45.75   45.75      0  23466.0   45.76   45.76      0
# Out of bounds values : 0 OK
# Avg bus bandwidth    : 41.2 
NCCL

run "$bin" acceptance "${inv[@]}" --from-raw "$raw" --baseline "$work/baseline"
[ $rc -eq 1 ] || fail "one pair below the bar: exit $rc: $(cat "$work/out" "$work/err")"
grep -q '^0     host1:ens1f0np0  host2:ens1f0np0  371.9    400     93%    ok$' "$work/out" || fail "table: $(cat "$work/out")"
grep -q 'host1:ens2f0np0  host2:ens2f0np0  301.2    400     75%    below 90% of the line rate$' "$work/out" ||
  fail "table: $(cat "$work/out")"
grep -q '^allreduce-2x2: 2 ranks on 2 hosts, bus bandwidth 45.76 GB/s' "$work/out" || fail "nccl: $(cat "$work/out")"
/usr/bin/python3 - "$work/baseline/acceptance.json" <<'PY' || fail "acceptance.json: $(cat "$work/baseline/acceptance.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema"] == "fabricctl.acceptance/v1" and r["bar"] == 0.9, r
assert [(p["client"], p["result"], round(p["gbps"], 2)) for p in r["pairs"]] == [
    ("host1:ens1f0np0", "pass", 371.87), ("host1:ens2f0np0", "below", 301.2)], r["pairs"]
assert r["collectives"][0]["average_busbw_gbs"] == 41.2 and r["collectives"][0]["result"] == "pass", r
PY

# Both pairs at the bar: exit 0, the same JSON on stdout.
report 372.00 >"$raw/ib_write_bw/host1:ens2f0np0~host2:ens2f0np0.txt"
run "$bin" acceptance "${inv[@]}" --from-raw "$raw" -o json
[ $rc -eq 0 ] || fail "all at the bar: exit $rc: $(cat "$work/out" "$work/err")"
/usr/bin/python3 -c 'import json,sys; assert all(p["result"] == "pass" for p in json.load(open(sys.argv[1]))["pairs"])' "$work/out" ||
  fail "json: $(cat "$work/out")"

# A report cut short: that pair not judged, the line named; a pair without a report: not measured (exit 3).
head -7 "$raw/ib_write_bw/host1:ens2f0np0~host2:ens2f0np0.txt" >"$work/cut" && mv "$work/cut" "$raw/ib_write_bw/host1:ens2f0np0~host2:ens2f0np0.txt"
run "$bin" acceptance "${inv[@]}" --from-raw "$raw"
[ $rc -eq 3 ] && grep -q 'not judged: its ib_write_bw report: a result table without rows' "$work/out" ||
  fail "a report cut short: exit $rc: $(cat "$work/out" "$work/err")"
rm "$raw/ib_write_bw/host1:ens2f0np0~host2:ens2f0np0.txt"
run "$bin" acceptance "${inv[@]}" --from-raw "$raw"
[ $rc -eq 3 ] && grep -q 'not judged: not measured' "$work/out" || fail "a pair not measured: exit $rc: $(cat "$work/out")"

# A report for a pair the fabric does not have (the direction reversed, a host that is not there): refused.
report 371.87 >"$raw/ib_write_bw/host2:ens1f0np0~host1:ens1f0np0.txt"
run "$bin" acceptance "${inv[@]}" --from-raw "$raw"
[ $rc -eq 2 ] && grep -q 'host2:ens1f0np0~host1:ens1f0np0.txt: not a pair of the fabric' "$work/err" ||
  fail "an unknown pair: exit $rc: $(cat "$work/err")"
rm "$raw/ib_write_bw/host2:ens1f0np0~host1:ens1f0np0.txt"
run "$bin" acceptance "${inv[@]}" --from-raw "$raw" --out "$work/kept"
[ $rc -eq 2 ] && grep -q 'with --from-raw nothing runs' "$work/err" || fail "--out with --from-raw: exit $rc: $(cat "$work/err")"
run "$bin" acceptance "${inv[@]}" --from-raw "$raw" --seconds 0
[ $rc -eq 2 ] && grep -q -- '--seconds 0 is out of range 1-3600' "$work/err" || fail "--seconds 0: exit $rc: $(cat "$work/err")"
echo "ok acceptance"

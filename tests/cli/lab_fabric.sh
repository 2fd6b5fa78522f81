#!/usr/bin/env bash
# The lab as a leaf-spine fabric (tests/lab/lab.py, tests/lab/dataplane.py; as root, which CI is): the
# shipped rail-optimized inventory (8 leaves, every one cabled 4 times to each of 2 spines, 16 hosts of 8
# NICs), which bridged would be a loop, comes up in a site of its own (a fabricctl.yaml naming the site's
# profiles, one of them replacing a shipped one) with its state directory under a 0700 directory. No
# switch-to-switch port is in a bridge, and the spines see no more than LLDP's trickle (no storm); live
# verify of the lab's copy of the inventory, with no -p, is clean (so it used the site's profile); a
# don't-fragment ping at the hosts' full MTU crosses leaf -> spine -> leaf (a TTL of 2 expires at a
# spine); a routed port at a lower MTU makes it fail, as on a switch.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/lab.sh"     # lab_up, lab_down, ctl, run
[ "$(stat -c %a "$work")" = 700 ] || fail "the test's directory is not 0700: $(stat -c %a "$work")"

# The site: its own fabricctl.yaml and profiles beside the shipped inventory's files. Its roce-pfc-only
# replaces the shipped one with another switch MTU, so a verify that read the shipped one would fail.
site="$work/site"
mkdir -p "$site/profiles"
cp -r "$root/inventory/rail-optimized" "$site/inventory"
printf 'profiles: profiles\n' >"$site/fabricctl.yaml"
cat >"$site/profiles/roce-pfc-only.yaml" <<'EOF'
description: the site's PFC-only fabric, at a switch MTU of its own
extends: roce-lossless
mtu: {switch: 9200}
ecn: {enabled: false}
dcqcn: {enabled: false}
EOF
started=$SECONDS
lab_up "$site/inventory"
echo "rail-optimized up in $((SECONDS - started)) s (lab.py: $(cat "$state/up-seconds") s)"
plane="$state/dataplane.json"
in_ns() { "$state/ns" "$@"; }

# No L2 path between switches: each bridge holds host-facing ports only, the spines have none.
/usr/bin/python3 - "$plane" "$state" <<'PY' || fail "a switch-to-switch port is bridged"
import json, subprocess, sys
plane, state = json.load(open(sys.argv[1])), sys.argv[2]
for sw, x in plane["switches"].items():
    out = subprocess.run([state + "/ns", sw, "ip", "-j", "link", "show", "master", "br0"], capture_output=True,
                         text=True).stdout
    bridged = {l["ifname"] for l in json.loads(out or "[]")}
    assert bridged == set(x["bridged"]), (sw, sorted(bridged), x["bridged"])
    assert not bridged & set(x["routed"]), (sw, bridged & set(x["routed"]))
assert not plane["switches"]["spine1"]["bridged"] and len(plane["switches"]["spine1"]["routed"]) == 32
PY

# No storm: over 5 s, every spine receives no more than 5 frames a second a port (LLDP sends one every
# few seconds); a bridged loop's storm is hundreds of thousands.
rx() { in_ns "$1" sh -c 'cat /sys/class/net/*/statistics/rx_packets' | awk '{s += $1} END {print s}'; }
a1=$(rx spine1) a2=$(rx spine2)
pause 5
b1=$(rx spine1) b2=$(rx spine2)
echo "frames received in 5 s: spine1 $((b1 - a1)), spine2 $((b2 - a2)) (32 ports each)"
[ $((b1 - a1)) -le $((5 * 32 * 5)) ] && [ $((b2 - a2)) -le $((5 * 32 * 5)) ] ||
  fail "a storm: spine1 received $((b1 - a1)), spine2 $((b2 - a2)) frames in 5 s"

# Live verify of the lab's inventory copy, no -p: the site's profiles come with it (STATE/fabricctl.yaml).
run ctl "$bin" verify -i "$state/inventory" --known-hosts "$state/known_hosts" -q -o json
[ $rc -eq 0 ] || fail "live verify of rail-optimized: exit $rc: $(head -c 3000 "$work/out") $(cat "$work/err")"
/usr/bin/python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["summary"]["results"]
assert s["missing"] == 0 and s["fail"] == 0, s' "$work/out" || fail "rail-optimized: $(head -c 2000 "$work/out")"
grep -q 9200 "$state/render/spine2/config_db.json" || fail "the lab did not render with the site's profile"

# The data plane: gpu01's rail-0 NIC to gpu02's rail-1 address, at the hosts' full MTU, don't fragment:
# rail0-leaf routes it to a spine, the spine to rail1-leaf. With a TTL of 2 it expires at the spine.
mtu=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ports"][0]["mtu"])' \
  "$state/render/gpu01/nic-state.json")
dst=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hosts"]["gpu02"]["ports"]["ens2f0np0"]["address"].split("/")[0])' "$plane")
ping_spine() { in_ns gpu01 ping -c 1 -W 2 -M do -s $((mtu - 28)) -I ens1f0np0 "$dst"; }
ping_spine >"$work/ping" 2>&1 || fail "full-MTU ping leaf -> spine -> leaf: $(cat "$work/ping")"
in_ns gpu01 ping -c 1 -W 2 -t 2 -I ens1f0np0 "$dst" >"$work/ttl" 2>&1 || true
hop=$(sed -n 's/^From \([0-9.]*\) .*Time to live exceeded.*/\1/p' "$work/ttl")
/usr/bin/python3 - "$plane" "$hop" <<'PY' || fail "the second hop is not a spine: $(cat "$work/ttl")"
import json, sys
plane, hop = json.load(open(sys.argv[1])), sys.argv[2]
spines = {r["address"].split("/")[0] for s in ("spine1", "spine2") for r in plane["switches"][s]["routed"].values()}
assert hop in spines, (hop, sorted(spines)[:4])
PY

# A routed port's MTU is the interface's: rail0-leaf's uplinks at 1500 refuse the full-MTU packet (the
# leaf answers "fragmentation needed"), the ping fails; restored, it passes again (gpu01 forgets the
# path MTU it learnt).
uplinks=$(/usr/bin/python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["switches"]["rail0-leaf"]["routed"]))' "$plane")
first=${uplinks%% *}
switch_mtu=$(in_ns rail0-leaf cat "/sys/class/net/$first/mtu")
[ "$switch_mtu" = 9200 ] || fail "rail0-leaf's uplink $first: MTU $switch_mtu, the site's profile says 9200"
for p in $uplinks; do in_ns rail0-leaf ip link set "$p" mtu 1500; done
if ping_spine >"$work/ping" 2>&1; then fail "the full-MTU ping crossed uplinks at MTU 1500"; fi
grep -q 'Frag needed' "$work/ping" || fail "no 'fragmentation needed' from the leaf: $(cat "$work/ping")"
for p in $uplinks; do in_ns rail0-leaf ip link set "$p" mtu "$switch_mtu"; done
in_ns gpu01 ip route flush cache
ping_spine >"$work/ping" 2>&1 || fail "the ping after the uplinks' MTU was restored: $(cat "$work/ping")"

lab_down
echo "ok lab_fabric"

#!/usr/bin/env bash
# fabricctl host collect on a real network namespace: two veths cabled to a peer namespace, lldpd on both
# sides, MTU and link state through rtnetlink, the NIC's sysfs/configfs state from a fixture tree built
# from the host's rendered nic-state.json (tests/lab/host_fixture.py). The snapshot it prints reads back,
# names each neighbour, and makes verify find exactly the MTU changed with `ip link`. Root only (CI runs
# as root); elsewhere it skips.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
if [ "$(id -u)" -ne 0 ] || ! command -v lldpd >/dev/null; then
  [ -n "${CI:-}" ] && fail "CI is set but this test needs root and lldpd (scripts/install-deps)"
  echo "SKIP: needs root and lldpd"
  exit 77
fi
ns_host="fabhc-h-$$" ns_peer="fabhc-p-$$"
cleanup() {
  for n in "$ns_host" "$ns_peer"; do
    for p in $(ip netns pids "$n" 2>/dev/null); do kill "$p" 2>/dev/null || true; done
    ip netns del "$n" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"  # lldpcli reaches lldpd's socket in it as lldpd's group, not as root
ip netns add "$ns_host"
ip netns add "$ns_peer"
# host1's two NICs, cabled to leaf1:Ethernet0 and leaf2:Ethernet1/1 (the peer's netdevs carry the
# switch ports' names in their LLDP port IDs, as the lab's switches do).
ip link add name ens1f0np0 netns "$ns_host" type veth peer name p0 netns "$ns_peer"
ip link add name ens2f0np0 netns "$ns_host" type veth peer name p1 netns "$ns_peer"
for n in "$ns_host" "$ns_peer"; do ip -n "$n" link set lo up; done
for l in ens1f0np0 ens2f0np0; do ip -n "$ns_host" link set "$l" mtu 9000 up; done
for l in p0 p1; do ip -n "$ns_peer" link set "$l" mtu 9000 up; done

# lldpd in each namespace, each with its own control socket; the peer's ports named as switch ports.
printf 'configure system hostname host1\nconfigure lldp tx-interval 1\nconfigure lldp portidsubtype ifname\n' \
  >"$work/host.conf"
printf 'configure system hostname leaf1\nconfigure lldp tx-interval 1\nconfigure ports p0 lldp portidsubtype local Ethernet0\nconfigure ports p1 lldp portidsubtype local Ethernet1/1\n' \
  >"$work/peer.conf"
ip netns exec "$ns_host" lldpd -d -u "$work/host.sock" -O "$work/host.conf" -I ens1f0np0,ens2f0np0 \
  >"$work/lldpd-host.log" 2>&1 &
ip netns exec "$ns_peer" lldpd -d -u "$work/peer.sock" -O "$work/peer.conf" -I p0,p1 >"$work/lldpd-peer.log" 2>&1 &

"$bin" render -i "$root/inventory/lab" -p "$root/profiles" --out "$work/render" >/dev/null
/usr/bin/python3 "$root/tests/lab/host_fixture.py" "$work/render/host1/nic-state.json" "$work/root"

# A veth has no DCB: asked of the kernel (DCB netlink), each port says so in the state, and the rest of
# the port is still read.
ip netns exec "$ns_host" "$bin" host collect --device host1 --root "$work/root" >"$work/nodcb.json" 2>"$work/err" ||
  fail "host collect without DCB: $(cat "$work/err")"
grep -q '"ens1f0np0": "DCB: not supported by the driver (EOPNOTSUPP)' "$work/nodcb.json" || fail "no DCB: $(cat "$work/nodcb.json")"
grep -q 'host1:ens1f0np0: not read: DCB: not supported' "$work/err" || fail "no DCB not said: $(cat "$work/err")"
grep -q '"mtu": 9000' "$work/nodcb.json" || fail "no DCB: the port was not read"

# From here on DCB comes from the replies the fixture saved (the kernel's IEEE_GET layout), and
# ens1f0np0 is a stand-in mlx5 port: its `ethtool -S` answer saved beside them (mlx5 names, en_stats.c)
# and its RDMA port's hw_counters in the tree. ens2f0np0's statistics are the veth's own, from the kernel.
printf 'NIC statistics:\n     rx_packets: 77\n     rx_prio3_pause: 120\n     tx_prio3_pause: 7\n     rx_discards_phy: 3\n' \
  >"$work/root/dcb/ens1f0np0.ethtool"
hw="$work/root/sys/class/infiniband/mlx5_0/ports/1/hw_counters"
mkdir -p "$hw"
echo 40 >"$hw/np_cnp_sent"
echo 38 >"$hw/rp_cnp_handled"
collect() {
  ip netns exec "$ns_host" "$bin" host collect --device host1 --root "$work/root" --lldp-socket "$work/host.sock" \
    --dcb-from "$work/root/dcb" "$@"
}
# Wait (at most 10 s) until lldpd has seen the peer on both ports.
for _ in $(seq 1 50); do
  collect >"$work/host1.json" 2>"$work/err" || fail "host collect: $(cat "$work/err")"
  [ "$(grep -c '"system_name": "leaf1"' "$work/host1.json")" -eq 2 ] && break
  pause 0.2
done
grep -q '"system_name": "leaf1"' "$work/host1.json" || fail "no LLDP neighbour: $(cat "$work/host1.json" "$work/err")"
# The kernel's count of each link's carrier changes, as its sysfs shows it in the namespace.
changes=$(ip netns exec "$ns_host" cat /sys/class/net/ens1f0np0/carrier_changes /sys/class/net/ens2f0np0/carrier_changes)
/usr/bin/python3 - "$work/host1.json" $changes <<'PY' || fail "snapshot: $(cat "$work/host1.json")"
import json, sys
s = json.load(open(sys.argv[1]))
changes = [int(c) for c in sys.argv[2:]]
assert changes[0] >= 1 and changes[1] >= 1, changes  # both links came up
assert s["device"] == "host1" and s["platform"] == "linux", s
ports = s["ports"]
assert sorted(ports) == ["ens1f0np0", "ens2f0np0"], sorted(ports)  # lo is left out
p = ports["ens1f0np0"]
assert p["mtu"] == 9000 and p["oper_status"] == "up", p
assert p["lldp"] == {"system_name": "leaf1", "port_id": "Ethernet0"}, p["lldp"]
assert ports["ens2f0np0"]["lldp"]["port_id"] == "Ethernet1/1"
assert p["rdma"]["device"] == "mlx5_0" and p["rdma"]["active_mtu"] == 4096, p["rdma"]
assert p["dcqcn"]["cnp_dscp"] == 48, p["dcqcn"]
assert s["nccl"]["traffic_class"] == 106, s["nccl"]
assert p["pfc_enabled"] == [3] and p["trust"] == "dscp", p
assert "unreadable" not in s, s["unreadable"]
assert p["counters"] == {"pfc_rx_pause_3": 120, "pfc_tx_pause_3": 7, "rx_discards": 3, "cnp_sent": 40,
                         "cnp_handled": 38, "link_changes": changes[0]}, p.get("counters")
# A veth's own statistics have none of the NIC's; its carrier changes come from rtnetlink.
assert ports["ens2f0np0"]["counters"] == {"link_changes": changes[1]}, ports["ens2f0np0"]
PY

# lldpcli's warnings go to its stderr: the neighbours are still read, the warning shown once. The real
# lldpcli runs, behind a wrapper that first warns as lldpctl does (`[WARN/lldpctl] ...`).
mkdir -p "$work/wrap"
printf '#!/bin/sh
echo "[WARN/lldpctl] unable to find a matching interface" >&2
exec %s "$@"
' "$(command -v lldpcli)" \
  >"$work/wrap/lldpcli"
chmod 755 "$work/wrap/lldpcli"
PATH="$work/wrap:$PATH" collect >"$work/warned.json" 2>"$work/err" || fail "host collect with a warning: $(cat "$work/err")"
[ "$(grep -c '"system_name": "leaf1"' "$work/warned.json")" -eq 2 ] || fail "a warning lost LLDP: $(cat "$work/warned.json" "$work/err")"
grep -q 'lldpcli: \[WARN/lldpctl\] unable to find a matching interface' "$work/err" || fail "warning not shown: $(cat "$work/err")"

# A port the host does not have is named, the others are still read.
collect --port ens1f0np0 --port ens9f9 >"$work/some.json" 2>"$work/err"
grep -q 'host1:ens9f9: not read: no network interface ens9f9' "$work/err" || fail "missing port: $(cat "$work/err")"
grep -q '"ens9f9": "no network interface ens9f9"' "$work/some.json" || fail "unreadable not kept: $(cat "$work/some.json")"

# verify with this snapshot (and the intent's for every other device): clean but for what the lab
# cannot show here (DCB on a veth), and an MTU changed with ip link is found on exactly that port.
"$bin" snapshot --from-intent -i "$root/inventory/lab" -p "$root/profiles" --out "$work/snaps" >/dev/null
ip -n "$ns_host" link set ens1f0np0 mtu 1500
collect >"$work/snaps/host1.json" 2>"$work/err" || fail "host collect: $(cat "$work/err")"
set +e
"$bin" verify -i "$root/inventory/lab" -p "$root/profiles" --snapshots "$work/snaps" -o json >"$work/verify.json" 2>"$work/err"
rc=$?
set -e
[ $rc -eq 1 ] || fail "verify: exit $rc: $(cat "$work/err")"
/usr/bin/python3 - "$work/verify.json" <<'PY' || fail "verify findings"
import json, sys
r = json.load(open(sys.argv[1]))
failed = [x for x in r["findings"] if x["status"] == "fail" and x["object"].startswith("host1:")]
mtu = [x["object"] for x in failed if x["check"] == "port.mtu.drift"]
assert mtu == ["host1:ens1f0np0"], failed
PY
echo "ok host_collect"

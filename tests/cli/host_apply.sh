#!/usr/bin/env bash
# fabricctl host apply on a real network namespace: a factory-default host (tests/lab/host_fixture.py
# --factory, veth MTU 1500) gets its rendered NIC state. The MTU changes for real (rtnetlink); with
# --dcb-from the DCB change lands in the saved replies and host collect reads it back; the revert timer
# restores by itself; confirm keeps; rollback restores; without --dcb-from the veth refuses DCB
# (EOPNOTSUPP) and the MTU already changed is restored. Root only (CI runs as root); elsewhere it skips.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/wait.sh"    # until_ok
if [ "$(id -u)" -ne 0 ]; then
  [ -n "${CI:-}" ] && fail "CI is set but this test needs root"
  echo "SKIP: needs root"
  exit 77
fi
ns="fabha-$$"
cleanup() {
  for p in $(ip netns pids "$ns" 2>/dev/null); do kill "$p" 2>/dev/null || true; done
  ip netns del "$ns" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
ip netns add "$ns"
ip link add name ens1f0np0 netns "$ns" type veth peer name p0 netns "$ns"
ip link add name ens2f0np0 netns "$ns" type veth peer name p1 netns "$ns"
"$bin" render -i "$root/inventory/lab" -p "$root/profiles" --out "$work/render" >/dev/null
state="$work/render/host1/nic-state.json"
r="$work/root"
/usr/bin/python3 "$root/tests/lab/host_fixture.py" "$state" "$r" --factory
# The host agent over a model of the kernel's sysfs/configfs (tests/unit/fixture_kernel.h), built beside $bin.
agent="$(dirname "$bin")/fabricctl_fixture_host"
[ -x "$agent" ] || fail "$agent is missing: build the fabricctl_fixture_host target"
host() { ip netns exec "$ns" "$agent" host "$@" --root "$r" --lldp-socket "$work/none.sock" --dcb-from "$r/dcb"; }
tclass() { cat "$r/sys/class/infiniband/mlx5_0/tc/1/traffic_class"; }
cm_tos() { cat "$r/fixture-kernel/rdma_cm/mlx5_0/ports/1/default_roce_tos"; }
mtu() { ip -n "$ns" -o link show ens1f0np0 | sed -n 's/.* mtu \([0-9]*\) .*/\1/p'; }

set +e
host apply --device host1 --dry-run <"$state" >"$work/dry"
rc=$?
set -e
[ "$rc" = 1 ] || fail "dry run on a factory host: exit $rc"
grep -qx 'ip link set dev ens1f0np0 mtu 9000' "$work/dry" || fail "dry run: $(cat "$work/dry")"
grep -q '^dcb pfc set dev ens1f0np0 prio-pfc 3:on' "$work/dry" || fail "dry run: no PFC"

# Stage with a 4 s timer (the checks inside it take well under a second), then let it run out: everything
# back as it was.
host apply --device host1 --transaction fabricctl-20260101T000000-aaaaaa --confirm-timeout 4 <"$state" >/dev/null
[ "$(mtu)" = 9000 ] || fail "apply: MTU $(mtu)"
host collect --device host1 --port ens1f0np0 >"$work/after.json" 2>/dev/null
grep -q '"pfc_enabled": \[3\]' "$work/after.json" || fail "apply: PFC not read back"
host apply --device host1 --dry-run <"$state" >/dev/null || fail "apply left changes"
at_factory_mtu() { [ "$(mtu)" = 1500 ]; }
until_ok 30 at_factory_mtu || fail "timer: MTU $(mtu) 30 s after a 4 s timer"
host collect --device host1 --port ens1f0np0 >"$work/reverted.json" 2>/dev/null
grep -q '"pfc_enabled": \[3\]' "$work/reverted.json" && fail "timer: PFC still on"

[ -z "$(tclass)" ] || fail "timer: traffic_class shows $(tclass)"
[ "$(cm_tos)" = 0 ] || fail "timer: rdma_cm default_roce_tos $(cm_tos)"

# Rollback now, from an override that was set before: it comes back as the driver stores it.
printf 'Global tclass=96\n' >"$r/sys/class/infiniband/mlx5_0/tc/1/traffic_class"
host apply --device host1 --transaction fabricctl-20260101T000000-bbbbbb --confirm-timeout 30 <"$state" >/dev/null
[ "$(tclass)" = "Global tclass=106" ] || fail "apply: traffic_class shows $(tclass)"
host rollback --transaction fabricctl-20260101T000000-bbbbbb >/dev/null
[ "$(mtu)" = 1500 ] || fail "rollback: MTU $(mtu)"
[ "$(tclass)" = "Global tclass=96" ] || fail "rollback: traffic_class shows $(tclass)"
printf '' >"$r/sys/class/infiniband/mlx5_0/tc/1/traffic_class"

# Confirm keeps it past the timer.
host apply --device host1 --transaction fabricctl-20260101T000000-cccccc --confirm-timeout 4 <"$state" >/dev/null
host confirm --transaction fabricctl-20260101T000000-cccccc >/dev/null
sleep 5
[ "$(mtu)" = 9000 ] || fail "confirm: MTU $(mtu)"
host apply --device host1 --dry-run <"$state" >/dev/null || fail "confirmed state drifted"

# host pending names what is staged; host extend stops the running timer and arms one from now: the
# 3 s timer does not fire, the 8 s one does.
ip -n "$ns" link set ens1f0np0 mtu 1500
[ -z "$(host pending)" ] || fail "pending with nothing staged: $(host pending)"
host apply --device host1 --transaction fabricctl-20260101T000000-eeeeee --confirm-timeout 3 <"$state" >/dev/null
host pending >"$work/pending"
grep -Eqx 'fabricctl-20260101T000000-eeeeee [0-9]{10}' "$work/pending" || fail "pending: $(cat "$work/pending")"
host extend --transaction fabricctl-20260101T000000-eeeeee --confirm-timeout 8 >/dev/null
sleep 4.5
[ "$(mtu)" = 9000 ] || fail "extend: the first timer fired (MTU $(mtu))"
until_ok 30 at_factory_mtu || fail "extend: MTU $(mtu) 30 s after an 8 s timer"
[ -z "$(host pending)" ] || fail "pending after the timer: $(host pending)"

# The kernel's DCB on a veth: EOPNOTSUPP names the change, and the MTU changed before it is restored.
ip -n "$ns" link set ens1f0np0 mtu 1500
set +e
ip netns exec "$ns" "$bin" host apply --device host1 --transaction fabricctl-20260101T000000-dddddd \
  --confirm-timeout 30 --root "$r" <"$state" >/dev/null 2>"$work/err"
rc=$?
set -e
[ "$rc" != 0 ] || fail "DCB on veth: exit 0"
grep -q 'ens1f0np0: DCB ETS: not supported by the driver (EOPNOTSUPP)' "$work/err" || fail "DCB on veth: $(cat "$work/err")"
[ "$(mtu)" = 1500 ] || fail "DCB on veth: MTU $(mtu) not restored"
echo "ok host apply"

#!/usr/bin/env bash
# The live story on the lab inventory (as root; `make demo` runs it): lab up in its rendered
# configuration -> live verify clean -> the classic faults made out of band (PFC off on one switch port
# through the switch's own CLI, one host NIC at MTU 1500 with `ip link`) -> verify names exactly those
# -> a full-MTU don't-fragment ping between the hosts fails -> lab down.
#   tests/lab/demo.sh FABRICCTL [STATE_DIR]
set -euo pipefail
bin=$(realpath "$1")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
state=${2:-$(mktemp -d /tmp/fablab.XXXXXX)}
lab() { /usr/bin/python3 "$here/lab.py" "$@"; }
trap 'lab down "$state" || true' EXIT
say() { printf '\n== %s\n' "$*"; }
ctl() { ip netns exec fablab-ctl "$@"; }

say "lab up: one namespace per device of inventory/lab, sshd and lldpd in each, the switches' NOS emulators loaded with their rendered configuration"
lab up "$root/inventory/lab" "$state" --fabricctl "$bin"
say "fabricctl verify -i inventory/lab (live: every device read over SSH)"
ctl "$bin" verify -i "$state/inventory" -p "$root/profiles" --known-hosts "$state/known_hosts" -q -o table

say "the data plane: a 9000-byte don't-fragment ping from host1 to host2 across leaf2 (rail 1)"
ip netns exec fablab-host1 ping -c 1 -W 2 -M do -s $((9000 - 28)) 10.0.1.2

say "the classic faults, made out of band: PFC off on leaf1:Ethernet0 through SONiC's own config, host2's ens2f0np0 at MTU 1500"
ip netns exec fablab-leaf1 env SSH_ORIGINAL_COMMAND="config interface pfc priority Ethernet0 3 off" \
  /usr/bin/python3 "$here/emulators/sonic.py" "$state/leaf1/state"
ip -n fablab-host2 link set ens2f0np0 mtu 1500
say "fabricctl verify -i inventory/lab (exit 1 is expected: it names the two faults)"
set +e
ctl "$bin" verify -i "$state/inventory" -p "$root/profiles" --known-hosts "$state/known_hosts" -q -o table
rc=$?
set -e
[ $rc -eq 1 ] || { echo "verify exited $rc, expected 1"; exit 1; }

say "the same ping, now"
if ip netns exec fablab-host1 ping -c 1 -W 1 -M do -s $((9000 - 28)) 10.0.1.2; then
  echo "the ping passed, but host2's NIC is at MTU 1500"
  exit 1
fi
echo "(it fails: host2:ens2f0np0 drops what its MTU cannot take)"
say "lab down"

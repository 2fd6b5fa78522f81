#!/usr/bin/env bash
# The bring-up story on the mixed lab inventory, inventory/lab-mixed: every switch platform (as root; `make demo` runs it): lab up with every device at
# its factory defaults (no lossless configuration) -> plan -> apply --yes (each platform's own
# transaction, verified, confirmed) -> verify clean -> a full-MTU don't-fragment ping passes -> the
# classic faults made out of band (PFC off on one switch port through the switch's own CLI, one host NIC
# at MTU 1500 with `ip link`) -> verify names exactly those, the ping fails -> plan shows the two fixes
# -> apply -> verify clean, the ping passes -> a clean window of the lab's traffic saved as the baseline ->
# a slow receiver made -> health and triage name it -> health's HTML page written, its path printed -> a
# stuck NIC behind the NX-OS leaf -> triage names the storm its watchdog caught -> lab down.
#   tests/lab/demo.sh FABRICCTL [STATE_DIR]
set -euo pipefail
bin=$(realpath "$1")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
top=${2:-$(mktemp -d /tmp/fablab.XXXXXX)}
state="$top/lab"
lab() { /usr/bin/python3 "$here/lab.py" "$@"; }
trap 'lab down "$state" || true' EXIT
say() { printf '\n== %s\n' "$*"; }
ctl() { "$state/ns" ctl "$@"; }
expect() {  # expect RC COMMAND...: runs it, and stops the demo unless it exits RC
  local want=$1 rc=0
  shift
  "$@" || rc=$?
  [ "$rc" -eq "$want" ] || { echo "demo: exit $rc, expected $want: $*"; exit 1; }
}
ping_full() { "$state/ns" host1 ping -c 1 -W 2 -M do -s $((9000 - 28)) 10.0.1.2; }

say "lab up: one namespace per device of inventory/lab-mixed (SONiC, EOS, NX-OS and Junos leaves, an NVUE spine), sshd and lldpd in each, every device at its factory defaults"
lab up "$root/inventory/lab-mixed" "$state" --fabricctl "$bin" --factory
live=(-i "$state/inventory" -p "$root/profiles" --known-hosts "$state/known_hosts" -q)

say "fabricctl plan -i inventory/lab-mixed --detailed-exitcode (exit 1: there are changes): what apply would change, natively"
expect 1 ctl "$bin" plan "${live[@]}" --detailed-exitcode --out "$state/plan"

say "fabricctl apply --plan: exactly the reviewed plan, each platform's own transaction, verified before it is confirmed"
expect 0 ctl "$bin" apply "${live[@]}" --plan "$state/plan" --yes --audit-dir "$state/audit"

say "fabricctl verify -i inventory/lab-mixed: clean"
expect 0 ctl "$bin" verify "${live[@]}" -o table

say "the data plane: a 9000-byte don't-fragment ping from host1 to host2 across leaf2 (rail 1)"
ping_full

say "the classic faults, made out of band: PFC off on leaf1:Ethernet0 through SONiC's own config, host2's ens2f0np0 at MTU 1500"
"$state/ns" leaf1 env SSH_ORIGINAL_COMMAND="config interface pfc priority Ethernet0 3 off" \
  /usr/bin/python3 "$here/emulators/sonic.py" "$state/leaf1/state"
"$state/ns" host2 ip link set ens2f0np0 mtu 1500
say "fabricctl verify (exit 1: it names the two faults)"
expect 1 ctl "$bin" verify "${live[@]}" -o table

say "the same ping, now"
if ping_full; then
  echo "the ping passed, but host2's NIC is at MTU 1500"
  exit 1
fi
echo "(it fails: host2:ens2f0np0 drops what its MTU cannot take)"

say "fabricctl plan: the two fixes, and nothing else"
expect 1 ctl "$bin" plan "${live[@]}" --detailed-exitcode

say "fabricctl apply --yes"
expect 0 ctl "$bin" apply "${live[@]}" --yes --audit-dir "$state/audit" -o table

say "fabricctl verify: clean again"
expect 0 ctl "$bin" verify "${live[@]}" -o table
say "the ping, now"
ping_full

say "health: the lab's counters move as a working fabric's (tests/lab/traffic.py); a clean window saved as its baseline"
traffic() { /usr/bin/python3 "$here/traffic.py" "$state" "$@"; }
traffic tick
expect 0 ctl "$bin" collect "${live[@]}" --out "$state/r0"
traffic tick
expect 0 ctl "$bin" baseline save "${live[@]}" --since "$state/r0" --out "$state/baseline"

say "a slow receiver: host2's first NIC drains slower than it receives and pauses leaf1:Ethernet8 (20,000 times a second)"
traffic tick
expect 0 ctl "$bin" collect "${live[@]}" --out "$state/r1"
traffic fault slow-receiver host2:ens1f0np0
sleep 1
traffic tick
say "fabricctl health --baseline (a warning: exit 0): the NIC that sends the pauses, and how far from normal"
expect 0 ctl "$bin" health "${live[@]}" --since "$state/r1" --baseline "$state/baseline"
say "fabricctl triage (exit 1: a suspect): the link first, with the evidence from each layer"
traffic tick
expect 1 ctl "$bin" triage "${live[@]}" --since "$state/r1" --baseline "$state/baseline"
say "fabricctl health -o html: one self-contained page, the fabric's picture with the slow NIC's link coloured by its finding"
traffic tick
expect 0 ctl "$bin" health "${live[@]}" --since "$state/r1" --baseline "$state/baseline" -o html >"$top/health.html"
echo "the page: $top/health.html"
traffic clear

say "a stuck NIC behind the NX-OS leaf: host1's ens3f0np0 pauses leaf3:Ethernet1/1 without end, and leaf3's PFC watchdog shuts the queue every 0.4 s"
traffic tick
expect 0 ctl "$bin" collect "${live[@]}" --out "$state/r2"
traffic fault storm host1:ens3f0np0
sleep 1
traffic tick
say "fabricctl triage (exit 1): the storms leaf3's watchdog counted (show queuing pfc-queue detail), the pauses their consequence"
expect 1 ctl "$bin" triage "${live[@]}" --since "$state/r2" --baseline "$state/baseline"
traffic clear

say "the audit records of both applies"
ls -l "$state/audit"
say "lab down"

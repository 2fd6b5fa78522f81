#!/usr/bin/env bash
# fabricctl collect against two NVUE switches, each a real sshd on 127.0.0.1 in front of the NVUE CLI
# emulator (tests/lab/emulators/nvue.py) that applied the switch's rendered commands.nvue: raw outputs
# kept without the secrets the configuration holds, each port's QoS counters and watchdog storms read
# from its own commands, snapshots that verify finds clean, --from-raw giving
# the same snapshots, and PFC turned off on one port through the switch's own `nv unset` and
# `nv config apply`, found by verify on that link. (Host keys, hostile output and unreachable devices:
# collect_sonic.sh; they do not depend on the platform.)
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/sshd.sh"
need_sshd
. "$(dirname "${BASH_SOURCE[0]}")/lib/switches.sh"  # two_switches, run
two_switches nvue swp1 swp2
# NVUE has no restoration time (PFC comes back one polling interval after a storm): the profile says so.
mkdir -p "$work/profiles"
sed 's/^  restoration_ms: .*/  restoration_ms: 100/' "$root/profiles/roce-lossless.yaml" >"$work/profiles/roce-lossless.yaml"
grep -q 'restoration_ms: 100' "$work/profiles/roce-lossless.yaml" || fail "profile not adjusted"
p="-p $work/profiles"
"$bin" validate -i "$inv" $p >/dev/null

# Each switch applied its rendered commands, has secrets in its configuration, links up and LLDP seen.
"$bin" render -i "$inv" $p --out "$work/render" >/dev/null
for sw in sw1 sw2; do
  echo '{"system": {"aaa": {"user": {"cumulus": {"hashed-password": "$6$s3cret"}}}},
         "service": {"snmp-server": {"readonly-community": {"s3cret-community": {}}}}}' >"$work/$sw/state/config.json"
  /usr/bin/python3 "$emulator" "$work/$sw/state" --load "$work/render/$sw/commands.nvue"
done

# sw1's swp1 has counted pauses on priority 3, ECN marks and two storms of its watchdog on class 3.
echo '{"swp1": {"qos": {"pfc": {"3": {"rx-pause-frames": 1200, "tx-pause-frames": 7}}, "ecn-marked-packets": 42,
                        "egress": {"3": {"wred-discards": 5}}, "watchdog": {"3": 2}}}}' >"$work/sw1/state/counters.json"

run "$bin" collect -i "$inv" $p --out "$work/snaps" --known-hosts "$kh" --accept-new-host-keys -q
[ $rc -eq 0 ] || fail "collect: exit $rc: $(cat "$work/err")"
grep -q '^collected 2 of 2 devices' "$work/out" || fail "summary: $(cat "$work/out")"
# Each port's QoS counters and watchdog storms, read from its own `nv show interface <if> ...`.
[ -s "$work/snaps/raw/sw1/qos-counters-swp2.txt" ] || fail "no per-port raw output: $(ls "$work/snaps/raw/sw1")"
/usr/bin/python3 - "$work/snaps/sw1.json" <<'PY' || fail "counters: $(cat "$work/snaps/sw1.json")"
import json, sys
ports = json.load(open(sys.argv[1]))["ports"]
c = ports["swp1"]["counters"]
assert c["pfc_rx_pause_3"] == 1200 and c["pfc_tx_pause_3"] == 7 and c["ecn_marked"] == 42, c
assert c["wred_drops_3"] == 5 and c["watchdog_storms_3"] == 2 and c["watchdog_storms_4"] == 0, c
assert ports["swp2"]["counters"]["pfc_rx_pause_3"] == 0, ports["swp2"]
PY
raw_saved config.json interfaces.json lldp.txt
! grep -rq 's3cret' "$work/snaps" || fail "a secret reached the raw outputs: $(grep -rl s3cret "$work/snaps")"
grep -q '"pfc-watchdog"' "$work/snaps/raw/sw1/config.json" || fail "the QoS tree was not kept"

# What was collected is what the intent renders: verify is clean, and every check had its data.
run "$bin" verify -i "$inv" $p --snapshots "$work/snaps"
[ $rc -eq 0 ] || fail "verify of the collected state: exit $rc: $(cat "$work/out" "$work/err")"
grep -qE '; ([3-9][0-9]|[1-9][0-9]{2,}) checks passed, 0 missing data' "$work/out" || fail "verify had no data: $(tail -1 "$work/out")"

# --from-raw reads the saved outputs into the same snapshots.
replay_matches $p

# A fault made through the switch's own CLI: PFC priority 3 off on sw2 (NVUE's default-global PFC is
# device-wide, so both of sw2's links are named), found by a live verify. NVUE takes a PFC watchdog only
# on a port with PFC (NVUE command reference, QoS), so the watchdogs go with it.
for c in "nv unset qos pfc default-global switch-priority 3" "nv unset interface swp1,swp2 qos pfc-watchdog" \
  "nv config apply -y"; do
  SSH_ORIGINAL_COMMAND="$c" /usr/bin/python3 "$emulator" "$work/sw2/state" >/dev/null || fail "$c"
done
run "$bin" verify -i "$inv" $p --known-hosts "$kh" -q -o json
[ $rc -eq 1 ] || fail "verify of the fault: exit $rc: $(cat "$work/err")"
/usr/bin/python3 - "$work/out" <<'PY' || fail "the fault is not what verify names: $(head -c 2000 "$work/out")"
import json, sys
fails = [f for f in json.load(open(sys.argv[1]))["findings"] if f["status"] == "fail"]
ids = {f["check"] for f in fails}
assert "port.pfc.drift" in ids, ids
ends = lambda f: {(f["a"]["device"], f["a"]["port"])} | ({(f["b"]["device"], f["b"]["port"])} if f.get("b") else set())
assert all("sw2" in {d for d, _ in ends(f)} for f in fails), fails
PY
# An unknown command is refused the way the emulator's NVUE does.
set +e; SSH_ORIGINAL_COMMAND="nv show bogus" /usr/bin/python3 "$emulator" "$work/sw1/state" 2>"$work/err"; rc=$?; set -e
[ $rc -ne 0 ] && grep -q '^Error: ' "$work/err" || fail "unknown command: exit $rc"
echo "collect nvue: ok"

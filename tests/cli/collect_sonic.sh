#!/usr/bin/env bash
# fabricctl collect against two SONiC switches, each a real sshd on 127.0.0.1 with its own host key in
# front of the SONiC CLI emulator (tests/lab/emulators/sonic.py) loaded with the switch's rendered
# config_db.json: host keys (unknown refused, recorded with --accept-new-host-keys, changed refused),
# raw outputs kept without the secrets CONFIG_DB holds, snapshots that verify finds clean, --from-raw
# giving the same snapshots, the ports' PFC and watchdog counters from COUNTERS_DB, a fault made through the switch's own config found by verify, and an
# unreachable switch named while the other is collected (exit 3).
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/sshd.sh"
need_sshd
. "$(dirname "${BASH_SOURCE[0]}")/lib/switches.sh"  # two_switches, run
two_switches sonic Ethernet0 Ethernet8 "sonic: {buffer_model: traditional, cable_lengths_m: [5, 40, 300]}"
"$bin" validate -i "$inv" >/dev/null

# Each switch boots into its rendered configuration, with secrets in CONFIG_DB, links up and LLDP seen.
"$bin" render -i "$inv" --out "$work/render" >/dev/null
for sw in sw1 sw2; do
  echo '{"TACPLUS_SERVER": {"10.0.0.9": {"passkey": "tac-s3cret"}}, "SNMP_COMMUNITY": {"s3cret-community": {"TYPE": "RO"}}}' \
    >"$work/$sw/state/config_db.json"
  /usr/bin/python3 "$emulator" "$work/$sw/state" --load "$work/render/$sw/config_db.json"
done
# sw1's COUNTERS_DB: pauses received on priority 3 and a storm the watchdog caught on queue 3, errors and
# uncorrectable FEC codewords, drops on the lossless ingress PG, and the queue's drops and ECN marks.
echo '{"Ethernet0": {"SAI_PORT_STAT_PFC_3_RX_PKTS": "1200", "SAI_PORT_STAT_PFC_3_TX_PKTS": "7",
                     "SAI_PORT_STAT_IF_IN_ERRORS": "12345", "SAI_PORT_STAT_IF_IN_FEC_NOT_CORRECTABLE_FRAMES": "3",
                     "flap_count": "4"},
       "Ethernet0:3": {"PFC_WD_STATUS": "stormed", "PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED": "1",
                       "PFC_WD_QUEUE_STATS_TX_DROPPED_PACKETS": "300", "SAI_QUEUE_STAT_PACKETS": "5000",
                       "SAI_QUEUE_STAT_DROPPED_PACKETS": "4", "SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS": "9"},
       "PG": {"Ethernet0:3": {"SAI_INGRESS_PRIORITY_GROUP_STAT_DROPPED_PACKETS": "6"}}}' >"$work/sw1/state/counters.json"
# sw2 runs a 202305 image (the emulator's default), sw1 a 202505 one: only sw1 has `show queue wredcounters`
# and `show interfaces flap`.
echo '{"build_version": "202505.1-0a1b2c3d", "asic_type": "broadcom"}' >"$work/sw1/state/version.json"

# An inventory that does not say how to reach its devices: exit 2 before any device is contacted.
run "$bin" collect -i "$root/tests/corpus/valid/no-mgmt/inventory" -p "$root/profiles" --out "$work/none"
[ $rc -eq 2 ] || fail "no mgmt: exit $rc"
grep -q 'missing mgmt.address' "$work/err" || fail "no mgmt: $(cat "$work/err")"
[ ! -e "$work/none" ] || fail "no mgmt: something was written"
run "$bin" collect -i "$inv" --out "$work/none" --from-raw "$work/nowhere"
[ $rc -eq 2 ] && grep -q 'is not a directory' "$work/err" || fail "--from-raw of nothing: exit $rc: $(cat "$work/err")"
: >"$kh"

# Unknown host keys: refused, nothing read, exit 3; each switch named with its fingerprint.
run "$bin" collect -i "$inv" --out "$work/snaps" --known-hosts "$kh" -q
[ $rc -eq 3 ] || fail "unknown keys: exit $rc: $(cat "$work/err")"
for sw in sw1 sw2; do
  grep -q "^fabricctl: $sw: not collected: $sw (\[127.0.0.1\]:[0-9]*): unknown host key (ssh-ed25519 key SHA256:" "$work/err" ||
    fail "unknown key of $sw not named: $(cat "$work/err")"
done
[ ! -s "$kh" ] || fail "an unknown key was recorded without --accept-new-host-keys"
! grep -q 'Accepted publickey' "$work"/sw*/sshd.log || fail "logged in before the host key was trusted"

# First use with --accept-new-host-keys: both collected, both keys recorded.
run "$bin" collect -i "$inv" --out "$work/snaps" --known-hosts "$kh" --accept-new-host-keys -q
[ $rc -eq 0 ] || fail "collect: exit $rc: $(cat "$work/err")"
grep -q '^collected 2 of 2 devices' "$work/out" || fail "summary: $(cat "$work/out")"
[ "$(wc -l <"$kh")" -eq 2 ] || fail "known_hosts: $(cat "$kh")"
raw_saved runningconfiguration.json interfaces-status.txt lldp-table.txt
! grep -rq 's3cret' "$work/snaps" || fail "a secret reached the raw outputs: $(grep -rl s3cret "$work/snaps")"
grep -q '"PFC_WD"' "$work/snaps/raw/sw1/runningconfiguration.json" || fail "the QoS tables were not kept"
# The counters, in neutral names: what COUNTERS_DB holds, 0 where syncd starts a port's counters.
/usr/bin/python3 - "$work/snaps/sw1.json" <<'PY' || fail "counters: $(cat "$work/snaps/sw1.json")"
import json, sys
ports = json.load(open(sys.argv[1]))["ports"]
c = ports["Ethernet0"]["counters"]
assert c["pfc_rx_pause_3"] == 1200 and c["pfc_tx_pause_3"] == 7 and "pfc_rx_pause_0" not in c, c
assert c["watchdog_storms_3"] == 1 and c["watchdog_restored_3"] == 0 and c["watchdog_drops_3"] == 300, c
assert ports["Ethernet8"]["counters"]["pfc_rx_pause_3"] == 0, ports["Ethernet8"]
assert c["rx_errors"] == 12345 and c["fec_uncorrectable"] == 3 and c["rx_discards_3"] == 6, c
assert c["queue_tx_packets_3"] == 5000 and c["queue_drops_3"] == 4 and c["ecn_marked_3"] == 9, c
assert c["link_changes"] == 4 and ports["Ethernet8"]["counters"]["link_changes"] == 0, c
PY
# sw2's image has no wredstat: its ports have no ECN counters (never zeros), and the rest was read.
/usr/bin/python3 - "$work/snaps/sw2.json" <<'PY' || fail "sw2 counters: $(cat "$work/snaps/sw2.json")"
import json, sys
c = json.load(open(sys.argv[1]))["ports"]["Ethernet0"]["counters"]
assert "ecn_marked_3" not in c and "link_changes" not in c and c["queue_drops_3"] == 0 and c["fec_uncorrectable"] == 0, c
PY
[ ! -e "$work/snaps/raw/sw2/wred-counters.json" ] || fail "sw2: a raw file of a command its image lacks"

# What was collected is what the intent renders: verify is clean on every check it could run.
run "$bin" verify -i "$inv" --snapshots "$work/snaps"
[ $rc -eq 0 ] || fail "verify of the collected state: exit $rc: $(cat "$work/out" "$work/err")"
# Every check had its data: nothing missing, and the link and port checks ran.
grep -qE '; ([3-9][0-9]|[1-9][0-9]{2,}) checks passed, 0 missing data' "$work/out" || fail "verify had no data: $(tail -1 "$work/out")"

# verify without --snapshots reads the switches itself: the same clean result.
run "$bin" verify -i "$inv" --known-hosts "$kh" -q
[ $rc -eq 0 ] || fail "live verify: exit $rc: $(cat "$work/out" "$work/err")"
grep -qE '; ([3-9][0-9]|[1-9][0-9]{2,}) checks passed, 0 missing data' "$work/out" || fail "live verify had no data: $(tail -1 "$work/out")"

# --from-raw reads the saved outputs into the same snapshots.
replay_matches
# Durable once: the snapshots and raw files go into the staging directory unsynced, and the commit's one
# syncfs makes them all durable before the swap (a second one flushes whatever else the disk holds).
# scripts/install-deps installs strace. LeakSanitizer cannot run under ptrace (the ASan build's leak check
# is off for this one run).
if command -v strace >/dev/null; then
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -qq -e trace=syncfs -o "$work/syncfs.log" "$bin" collect -i "$inv" --out "$work/replay" \
    --from-raw "$work/snaps/raw" -q >"$work/out" 2>"$work/err" || fail "--from-raw under strace: $(cat "$work/err")"
  [ "$(grep -c 'syncfs(' "$work/syncfs.log")" = 1 ] || fail "collect made $(grep -c 'syncfs(' "$work/syncfs.log") syncfs calls, not 1: $(cat "$work/syncfs.log")"
elif [ -n "${CI:-}" ]; then
  fail "strace is not installed (scripts/install-deps installs it)"
else
  echo "SKIP: the syncfs count (strace is not installed)"
fi

# A fault made out of band, through the switch's own configuration: PFC off on sw2:Ethernet8.
echo '{"PORT_QOS_MAP": {"Ethernet8": {"pfc_enable": ""}}}' >"$work/fault.json"
/usr/bin/python3 "$emulator" "$work/sw2/state" --load "$work/fault.json"
run "$bin" collect -i "$inv" --out "$work/snaps2" --known-hosts "$kh" -q
[ $rc -eq 0 ] || fail "collect after the fault: exit $rc: $(cat "$work/err")"
run "$bin" verify -i "$inv" --snapshots "$work/snaps2" -o json
[ $rc -eq 1 ] || fail "verify of the fault: exit $rc"
/usr/bin/python3 - "$work/out" <<'PY' || fail "the fault is not what verify names"
import json, sys
r = json.load(open(sys.argv[1]))
fails = [f for f in r["findings"] if f["status"] == "fail"]
ends = {(f["a"]["device"], f["a"]["port"]) for f in fails} | {(f["b"]["device"], f["b"]["port"]) for f in fails if f["b"]}
assert ("sw2", "Ethernet8") in ends, fails
assert all(("sw2", "Ethernet8") in {(f["a"]["device"], f["a"]["port"])} | ({(f["b"]["device"], f["b"]["port"])} if f["b"] else set()) for f in fails), fails
PY

# ... and live verify names the same fault.
run "$bin" verify -i "$inv" --known-hosts "$kh" -q -o json
[ $rc -eq 1 ] || fail "live verify of the fault: exit $rc: $(cat "$work/err")"
/usr/bin/python3 - "$work/out" <<'PY' || fail "live verify does not name the fault on sw2:Ethernet8"
import json, sys
fails = [f for f in json.load(open(sys.argv[1]))["findings"] if f["status"] == "fail"]
assert fails and all(("sw2", "Ethernet8") in {(f["a"]["device"], f["a"]["port"]), (f["b"] or {}).get("device"), ((f["b"] or {}).get("device"), (f["b"] or {}).get("port"))} for f in fails), fails
PY

# Hostile output: a port name with shell syntax and a terminal escape in CONFIG_DB. The escape never
# reaches the terminal or a file; the port is named unreadable while the others are read.
cp "$work/sw1/state/config_db.json" "$work/sw1-config.json"
/usr/bin/python3 - "$work/sw1/state/config_db.json" <<'PY'
import json, sys
db = json.load(open(sys.argv[1]))
db["PORT"]["Ethernet4;reboot\u001b[2J"] = {"mtu": "9100"}
json.dump(db, open(sys.argv[1], "w"))
PY
run "$bin" collect -i "$inv" --out "$work/hostile" --known-hosts "$kh" -q
[ $rc -eq 0 ] || fail "hostile CONFIG_DB port: exit $rc: $(cat "$work/err")"
! grep -q $'\x1b' "$work/err" "$work/out" "$work/hostile/sw1.json" || fail "an escape sequence got through"
grep -qF 'fabricctl: sw1: port Ethernet4;reboot\x1b[2J unreadable: not a port name' "$work/err" ||
  fail "the hostile port is not named unreadable: $(cat -v "$work/err")"
/usr/bin/python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert not [p for p in s["ports"] if "reboot" in p], s["ports"].keys()
assert [p for p in s["unreadable"] if "reboot" in p], s.get("unreadable")' "$work/hostile/sw1.json" ||
  fail "the hostile port reached the snapshot's ports, or its unreadable entry was lost"
grep -q '"Ethernet0"' "$work/hostile/sw1.json" || fail "the good ports of sw1 were not read"
cp "$work/sw1-config.json" "$work/sw1/state/config_db.json"
# Output that is no table at all, with an escape sequence in it, and a command that fails: the switch
# is not collected, named with a printable reason; the other switch is.
printf '{"show interfaces status": {"stdout": "\\u001b[2J%%s garbage\\n"}}' '%' >"$work/sw1/state/answers.json"
run "$bin" collect -i "$inv" --out "$work/hostile2" --known-hosts "$kh" -q
[ $rc -eq 3 ] || fail "garbage status table: exit $rc"
grep -q '^fabricctl: sw1: not collected: show interfaces status: no table' "$work/err" || fail "garbage status: $(cat "$work/err")"
[ -f "$work/hostile2/sw2.json" ] || fail "sw2 was not collected beside the broken sw1"
echo '{"show lldp table": {"stderr": "Error: lldp is not running\u001b[0m\n", "exit": 1}}' >"$work/sw1/state/answers.json"
run "$bin" collect -i "$inv" --out "$work/hostile3" --known-hosts "$kh" -q
[ $rc -eq 3 ] || fail "failing command: exit $rc"
grep -q '^fabricctl: sw1: not collected: `show lldp table` exited with status 1: Error: lldp is not running' "$work/err" ||
  fail "failing command: $(cat -v "$work/err")"
! grep -q $'\x1b' "$work/err" || fail "an escape sequence reached the terminal"
rm "$work/sw1/state/answers.json"

# A changed host key: refused for that switch, naming both keys; the other is collected.
mv "$work/sw1/host" "$work/sw1/host.old"; mv "$work/sw1/host.pub" "$work/sw1/host.old.pub"
ssh-keygen -q -t ed25519 -N '' -C sw1-reinstalled -f "$work/sw1/host"
restart_device sw1
run "$bin" collect -i "$inv" --out "$work/snaps3" --known-hosts "$kh" --accept-new-host-keys -q
[ $rc -eq 3 ] || fail "changed key: exit $rc: $(cat "$work/err")"
grep -q '^fabricctl: sw1: not collected: .*HOST KEY CHANGED' "$work/err" || fail "changed key not named: $(cat "$work/err")"
[ "$(grep -o 'SHA256:' "$work/err" | wc -l)" -ge 2 ] || fail "both fingerprints are not named: $(cat "$work/err")"
[ -f "$work/snaps3/sw2.json" ] && [ ! -f "$work/snaps3/sw1.json" ] || fail "sw2 not collected, or sw1 collected"

# An unreachable switch: named, the other collected, exit 3.
stop_device sw2
run "$bin" collect -i "$inv" --out "$work/snaps4" --known-hosts "$kh" -q --connect-timeout 2
[ $rc -eq 3 ] || fail "unreachable: exit $rc"
grep -q '^fabricctl: sw2: not collected: sw2 (\[127.0.0.1\]:[0-9]*): cannot connect' "$work/err" || fail "unreachable not named: $(cat "$work/err")"
mv "$work/sw1/host.old" "$work/sw1/host"; mv "$work/sw1/host.old.pub" "$work/sw1/host.pub"
restart_device sw1
# Into the directory of the first collect: it holds exactly this run, so sw2's earlier snapshot and raw
# outputs are gone and verify reports sw2 missing, instead of judging its old state as current.
[ -f "$work/snaps/sw2.json" ] || fail "the first collect has no sw2.json"
run "$bin" collect -i "$inv" --out "$work/snaps" --known-hosts "$kh" -q --connect-timeout 2
[ $rc -eq 3 ] || fail "re-collect with sw2 down: exit $rc: $(cat "$work/err")"
[ -f "$work/snaps/sw1.json" ] && [ -d "$work/snaps/raw/sw1" ] || fail "sw1 not collected again"
[ ! -e "$work/snaps/sw2.json" ] && [ ! -e "$work/snaps/raw/sw2" ] || fail "sw2's old snapshot was left as current"
! ls -a "$work" | grep -q '^\.fabricctl-stage-' || fail "a staging directory was left: $(ls -a "$work")"
run "$bin" verify -i "$inv" --snapshots "$work/snaps" -q
[ $rc -eq 3 ] || fail "verify of the re-collected snapshots: exit $rc: $(cat "$work/out" "$work/err")"
grep -q 'sw2' "$work/out" "$work/err" || fail "verify does not name sw2: $(cat "$work/out" "$work/err")"
# A directory that is not a collect's is never replaced: refused, nothing in it touched.
mkdir -p "$work/notes" && echo keep >"$work/notes/todo.txt"
run "$bin" collect -i "$inv" --out "$work/notes" --known-hosts "$kh" -q
[ $rc -eq 2 ] || fail "collect into a foreign directory: exit $rc: $(cat "$work/err")"
grep -q 'does not hold a previous fabricctl collect (.fabricctl-collect)' "$work/err" || fail "foreign: $(cat "$work/err")"
[ "$(cat "$work/notes/todo.txt")" = keep ] && [ "$(ls "$work/notes")" = todo.txt ] || fail "the foreign directory was changed"
# Live verify: the reachable switch is verified, the other named, exit 3 (could not see everything).
run "$bin" verify -i "$inv" --known-hosts "$kh" -q --connect-timeout 2
[ $rc -eq 3 ] || fail "live verify with sw2 down: exit $rc: $(cat "$work/err")"
grep -q '^fabricctl: sw2: state unreadable: sw2 (\[127.0.0.1\]:[0-9]*): cannot connect' "$work/err" || fail "live verify: sw2 not named: $(cat "$work/err")"
! grep -q 'sw1: state unreadable' "$work/err" || fail "live verify: sw1 was not read: $(cat "$work/err")"
grep -q 'cannot connect: Connection refused (3 tries, the last [0-9]* ms after the one before)' "$work/err" ||
  fail "a refused connection was not tried again: $(cat "$work/err")"

# A switch whose sshd comes back while collect runs (a restart): its refused connection is tried again
# about a second later, and it is read (ops/paced_connector.h).
"$bin" collect -i "$inv" --out "$work/snaps5" --known-hosts "$kh" -q >"$work/out5" 2>"$work/err5" &
collect=$!
pause 0.8
launch_sshd sw2
wait "$collect" || fail "sshd back during collect: exit $?: $(cat "$work/err5")"
[ -f "$work/snaps5/sw2.json" ] || fail "sw2 was not read once its sshd was back"
echo "collect sonic: ok"

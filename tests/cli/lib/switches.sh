# Sourced by the collect and apply tests of one switch platform (after lib/common.sh and lib/sshd.sh):
# two emulated switches of PLATFORM, each a real sshd on 127.0.0.1 whose every login runs the NOS
# emulator (tests/lab/emulators/PLATFORM.py) on $work/swN/state, cabled PORT1-PORT1 and PORT2-PORT2
# at 400G, each seeing the other over LLDP.
#   two_switches PLATFORM PORT1 PORT2 [DEVICE_YAML]
#     DEVICE_YAML: one more line of YAML for each device (e.g. "sonic: {buffer_model: traditional}").
# Sets $emulator, $inv (the inventory directory) and $kh (an empty known_hosts), writes each
# switch's ports.json; the switch's configuration is the test's to load (--factory or --load FILE).
two_switches() {
  local platform=$1 p1=$2 p2=$3 extra=${4:-} sw peer port speed
  emulator="$root/tests/lab/emulators/$platform.py"
  for sw in sw1 sw2; do
    mkdir -p "$work/$sw/state"
    start_emulated "$sw" "$emulator" "$work/$sw/state"
  done
  inv="$work/inv"
  mkdir -p "$inv"
  {
    printf 'defaults:\n  profile: roce-lossless\n  mgmt: {address: 127.0.0.1, user: %s, key: %s}\ndevices:\n' \
      "$(id -un)" "$work/client_key"
    for sw in sw1 sw2; do
      eval "port=\$port_$sw"
      printf '  %s:\n    role: switch\n    platform: %s\n' "$sw" "$platform"
      [ -z "$extra" ] || printf '    %s\n' "$extra"
      printf '    mgmt: {port: %s}\n    ports: {%s: {speed: 400G}, %s: {speed: 400G}}\n' "$port" "$p1" "$p2"
    done
    printf 'links:\n'
    for port in "$p1" "$p2"; do printf '  - {a: sw1:%s, b: sw2:%s, speed: 400G, cable_length_m: 3}\n' "$port" "$port"; done
  } >"$inv/fabric.yaml"
  # The NOS's own unit in ports.json: EOS, Junos and NX-OS count Mbit/s, SONiC and NVUE print "400G".
  case $platform in eos | junos | nxos) speed=400000 ;; *) speed='"400G"' ;; esac
  for sw in sw1 sw2; do
    peer=$([ $sw = sw1 ] && echo sw2 || echo sw1)
    printf '{"%s": {"speed": %s, "oper": "up", "lldp": ["%s", "%s"]},\n "%s": {"speed": %s, "oper": "up", "lldp": ["%s", "%s"]}}\n' \
      "$p1" "$speed" "$peer" "$p1" "$p2" "$speed" "$peer" "$p2" >"$work/$sw/state/ports.json"
  done
  kh="$work/known_hosts"
  : >"$kh"
}

# collect --from-raw of the live collect's raw outputs ($work/snaps/raw) gives the same snapshots, but
# for when and how they were read.
#   replay_matches [COLLECT_ARGS...]   e.g. -p DIR
replay_matches() {
  local sw
  run "$bin" collect -i "$inv" "$@" --out "$work/replay" --from-raw "$work/snaps/raw" -q
  [ $rc -eq 0 ] || fail "--from-raw: exit $rc: $(cat "$work/err")"
  for sw in sw1 sw2; do
    diff <(grep -v '"collected_at"\|"source"' "$work/snaps/$sw.json") <(grep -v '"collected_at"\|"source"' "$work/replay/$sw.json") ||
      fail "--from-raw differs from the live collect for $sw"
  done
}

# The live collect kept a raw output of each FILE for both switches ($work/snaps/raw/swN/FILE, not empty).
#   raw_saved FILE...
raw_saved() {
  local sw f
  for sw in sw1 sw2; do
    for f in "$@"; do [ -s "$work/snaps/raw/$sw/$f" ] || fail "no raw $sw/$f"; done
  done
}

#!/usr/bin/env bash
# apply --resume and --undo (docs/apply.md "Resume and undo") on three Arista EOS switches, each a real
# sshd on 127.0.0.1 in front of the EOS emulator, started on the roce-pfc-only configuration. An apply
# of roce-lossless in waves of one stops when sw2 refuses its session (its chip is a Jericho, the
# inventory says Tomahawk): sw1 applied, sw2 rolled back, sw3 never started. Once sw2 is right,
# --resume applies sw2 and sw3 with the record's waves and leaves sw1 alone; a sw1 changed by hand since
# makes a resume refuse. --undo with the roce-pfc-only intent puts back, byte for byte, the
# configuration each switch ran before, and refuses the intent the record itself applied.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/sshd.sh"
need_sshd
emulator="$root/tests/lab/emulators/eos.py"
user=$(id -un)
eos() { SSH_ORIGINAL_COMMAND="$2" /usr/bin/python3 "$emulator" "$work/$1/state"; }

inventory() {  # inventory DIR PROFILE
  mkdir -p "$1"
  {
    printf 'defaults:\n  profile: %s\n  mgmt: {address: 127.0.0.1, user: %s, key: %s}\ndevices:\n' "$2" "$user" \
      "$work/client_key"
    for sw in sw1 sw2 sw3; do
      printf '  %s:\n    role: switch\n    platform: eos\n    eos: {chip: tomahawk}\n    mgmt: {port: 6000%s}\n' "$sw" "${sw#sw}"
      printf '    ports: {Ethernet1: {speed: 400G}, Ethernet2: {speed: 400G}}\n'
    done
  } >"$1/fabric.yaml"
}
inventory "$work/pfc" roce-pfc-only
"$bin" render -i "$work/pfc" --out "$work/pfc-render" >/dev/null 2>&1
for sw in sw1 sw2 sw3; do
  mkdir -p "$work/$sw/state"
  printf '{"Ethernet1": {"speed": 400000, "oper": "up"}, "Ethernet2": {"speed": 400000, "oper": "up"}}\n' \
    >"$work/$sw/state/ports.json"
  /usr/bin/python3 "$emulator" "$work/$sw/state" --load "$work/pfc-render/$sw/session.cfg" >/dev/null
  start_emulated "$sw" "$emulator" "$work/$sw/state"
done
inventory "$work/lossless" roce-lossless
for inv in pfc lossless; do
  for sw in sw1 sw2 sw3; do eval "sed -i \"s/port: 6000${sw#sw}}/port: \$port_$sw}/\" \"$work/$inv/fabric.yaml\""; done
done
echo jericho >"$work/sw2/state/chip.txt"
kh="$work/known_hosts"
: >"$kh"
apply() { run "$bin" apply --known-hosts "$kh" --accept-new-host-keys --yes --audit-dir "$work/audit" "$@"; }
config() { /usr/bin/python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1])), sort_keys=True))' \
  "$work/$1/state/config.json"; }
for sw in sw1 sw2 sw3; do config $sw >"$work/$sw.before"; done

apply -i "$work/lossless" --batch 1
[ $rc -eq 3 ] || fail "the waves: exit $rc, want 3: $(cat "$work/out" "$work/err")"
grep -q '^sw1 .*applied' "$work/out" || fail "sw1 not applied: $(cat "$work/out")"
grep -q '^sw3 .*skipped .*not started: the wave 2/3 step failed' "$work/out" || fail "sw3 not skipped: $(cat "$work/out")"
record=$(ls "$work"/audit/*.jsonl)
tx=$(basename "$record" .jsonl)

# sw2 as the inventory says; the resume takes the record's waves and applies only what it did not.
echo tomahawk >"$work/sw2/state/chip.txt"
apply -i "$work/lossless" --resume "$tx"
[ $rc -eq 0 ] || fail "resume: exit $rc: $(cat "$work/out" "$work/err")"
grep -q '^sw2 .*applied' "$work/out" && grep -q '^sw3 .*applied' "$work/out" || fail "resume: $(cat "$work/out")"
grep -q '^sw1 .*applied' "$work/out" && fail "resume applied sw1 again: $(cat "$work/out")"
resumed=$(ls -t "$work"/audit/*.jsonl | head -1)
head -1 "$resumed" | grep -q "\"batch\":\"1\".*\"resumes\":\"$tx\"" || fail "resume's start event: $(head -1 "$resumed")"
run "$bin" verify -i "$work/lossless" --known-hosts "$kh"
[ $rc -eq 0 ] || fail "verify after the resume: exit $rc: $(cat "$work/out")"
apply -i "$work/lossless" --resume "$record"
[ $rc -eq 0 ] && grep -q "Nothing to change" "$work/out" || fail "a second resume: exit $rc: $(cat "$work/out" "$work/err")"

# A resume refuses a device the record applied that changed since.
cp "$work/sw1/state/config.json" "$work/sw1.config"
eos sw1 $'configure session hand\ninterface Ethernet1\n   mtu 1500\nend' >/dev/null
eos sw1 'configure session hand commit' >/dev/null
apply -i "$work/lossless" --resume "$tx"
[ $rc -eq 2 ] || fail "resume over a hand change: exit $rc, want 2: $(cat "$work/out" "$work/err")"
grep -q "sw1: $tx applied it, and the plan changes it again" "$work/err" || fail "$(cat "$work/err")"
cp "$work/sw1.config" "$work/sw1/state/config.json"

# Undo the first record: its own intent is refused; the one before puts sw1 back as it was.
n=$(ls "$work"/audit | wc -l)
apply -i "$work/lossless" --undo "$tx"
[ $rc -eq 2 ] && grep -q "sw1: the intent given changes nothing of what $tx left" "$work/err" ||
  fail "undo with the record's own intent: exit $rc: $(cat "$work/err")"
[ "$(ls "$work"/audit | wc -l)" -eq "$n" ] || fail "a refused undo wrote a record"
apply -i "$work/pfc" --undo "$tx"
[ $rc -eq 0 ] || fail "undo: exit $rc: $(cat "$work/out" "$work/err")"
grep -q '^sw1 .*applied' "$work/out" || fail "undo did not change sw1: $(cat "$work/out")"
grep -q '^sw[23] .*applied' "$work/out" && fail "undo of $tx changed what it did not confirm: $(cat "$work/out")"
grep -q "^1 device is back to its configuration before $tx\.$" "$work/out" || fail "undo check: $(cat "$work/out")"
[ "$(config sw1)" = "$(cat "$work/sw1.before")" ] || fail "sw1's running configuration is not the one before $tx"
echo "apply resume and undo: ok"

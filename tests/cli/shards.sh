#!/usr/bin/env bash
# A collect shared by several runs (`--shard K/N`, docs/fleet.md "Beyond one controller"), on six
# emulated switches (SONiC, EOS and NVUE pairs, each a real sshd on 127.0.0.1): three shard processes
# at once write what one collect writes, device for device; verify reading the three directories gives
# the report of one run; a missing shard, or a device in two, is named and never judged; plan and verify
# take the same shards; bad shards are refused. Then the Ansible recipe, run for real with three local
# runners, writes the same shards, and the Kubernetes Indexed Job is well formed.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
. "$(dirname "${BASH_SOURCE[0]}")/lib/sshd.sh"
need_sshd

declare -A platform=([sw1]=sonic [sw2]=sonic [sw3]=eos [sw4]=eos [sw5]=nvue [sw6]=nvue)
declare -A artifact=([sonic]=config_db.json [eos]=session.cfg [nvue]=commands.nvue)
port_names() {  # port_names PLATFORM: its two ports
  case $1 in sonic) echo Ethernet0 Ethernet8 ;; eos) echo Ethernet1/1 Ethernet2/1 ;; nvue) echo swp1 swp2 ;; esac
}
inv="$work/inv"
mkdir -p "$inv"
{
  printf 'defaults:\n  profile: roce-lossless\n  mgmt: {address: 127.0.0.1, user: %s, key: %s}\n' \
    "$(id -un)" "$work/client_key"
  printf 'groups:\n  pod-sonic: {}\n  pod-eos: {}\n  pod-nvue: {}\ndevices:\n'
  for sw in sw1 sw2 sw3 sw4 sw5 sw6; do
    p=${platform[$sw]}
    mkdir -p "$work/$sw/state"
    start_emulated "$sw" "$root/tests/lab/emulators/$p.py" "$work/$sw/state"
    eval "port=\$port_$sw"
    read -r a b <<<"$(port_names "$p")"
    printf '  %s:\n    role: switch\n    platform: %s\n    groups: [pod-%s]\n    mgmt: {port: %s}\n' "$sw" "$p" "$p" "$port"
    printf '    ports: {%s: {speed: 400G}, %s: {speed: 400G}}\n' "$a" "$b"
    case $p in
      sonic) printf '    sonic: {buffer_model: traditional, cable_lengths_m: [5, 40, 300]}\n' ;;
      eos) printf '    eos: {chip: tomahawk}\n' ;;
    esac
  done
  printf 'links:\n'
  for pair in "sw1 sw2" "sw3 sw4" "sw5 sw6"; do
    read -r x y <<<"$pair"
    for port in $(port_names "${platform[$x]}"); do
      printf '  - {a: %s:%s, b: %s:%s, speed: 400G, cable_length_m: 3}\n' "$x" "$port" "$y" "$port"
    done
  done
} >"$inv/fabric.yaml"
"$bin" render -i "$inv" --out "$work/render" >/dev/null
for pair in "sw1 sw2" "sw3 sw4" "sw5 sw6"; do
  read -r x y <<<"$pair"
  p=${platform[$x]}
  speed='"400G"'
  [ "$p" = eos ] && speed=400000  # EOS counts Mbit/s
  for sw in $x $y; do
    peer=$([ "$sw" = "$x" ] && echo "$y" || echo "$x")
    read -r a b <<<"$(port_names "$p")"
    printf '{"%s": {"speed": %s, "oper": "up", "lldp": ["%s", "%s"]}, "%s": {"speed": %s, "oper": "up", "lldp": ["%s", "%s"]}}\n' \
      "$a" "$speed" "$peer" "$a" "$b" "$speed" "$peer" "$b" >"$work/$sw/state/ports.json"
    /usr/bin/python3 "$root/tests/lab/emulators/$p.py" "$work/$sw/state" --load "$work/render/$sw/${artifact[$p]}" >/dev/null
  done
done
kh="$work/known_hosts"
: >"$kh"
live=(-i "$inv" --known-hosts "$kh" -q)

# One run, the reference (its host keys recorded for the shards).
run "$bin" collect "${live[@]}" --accept-new-host-keys --out "$work/one"
[ $rc -eq 0 ] || fail "collect: exit $rc: $(cat "$work/err")"

# Three shards at once, each its own process.
pids=()
for k in 0 1 2; do
  "$bin" collect "${live[@]}" --shard "$k/3" --out "$work/shard-$k" >"$work/shard-$k.out" 2>&1 &
  pids+=($!)
done
for k in 0 1 2; do wait "${pids[$k]}" || fail "shard $k/3: $(cat "$work/shard-$k.out")"; done

# Device for device, the shards hold what the one run holds: each device in exactly one shard, its
# snapshot the same but for the time it was read.
/usr/bin/python3 - "$work" <<'PY' || fail "the shards differ from one run"
import json, os, sys
work = sys.argv[1]
def snaps(d):
    return {f: json.load(open(os.path.join(d, f))) for f in os.listdir(d) if f.endswith(".json")}
one = snaps(os.path.join(work, "one"))
seen = {}
for k in range(3):
    part = snaps(os.path.join(work, "shard-%d" % k))
    assert part, "shard %d is empty" % k
    for f, s in part.items():
        assert f not in seen, "%s in shards %d and %d" % (f, seen[f], k)
        seen[f] = k
        assert {**s, "collected_at": ""} == {**one[f], "collected_at": ""}, f
        assert os.listdir(os.path.join(work, "shard-%d" % k, "raw", f[:-5])), f
assert sorted(seen) == sorted(one), (sorted(seen), sorted(one))
# A pod's two switches (one group) are in one shard.
for a, b in (("sw1", "sw2"), ("sw3", "sw4"), ("sw5", "sw6")):
    assert seen[a + ".json"] == seen[b + ".json"], seen
PY

# verify over the three directories: the report of one run.
same_report() {  # same_report A B: two verify JSON reports equal but for when they ran
  /usr/bin/python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for r in (a, b):
    r.pop("ran_at", None)
assert a == b, (a.get("summary"), b.get("summary"))' "$1" "$2"
}
"$bin" verify -i "$inv" -s "$work/one" -o json >"$work/v-one.json" || fail "verify of one run: exit $?: $(head -c 2000 "$work/v-one.json")"
run "$bin" verify -i "$inv" -s "$work/shard-0" -s "$work/shard-1" -s "$work/shard-2" -o json
[ $rc -eq 0 ] || fail "verify of the shards: exit $rc: $(cat "$work/err")"
same_report "$work/v-one.json" "$work/out" || fail "verify of the shards differs from one run"

# A shard left out: its devices are named and missing (exit 3), never passed.
run "$bin" verify -i "$inv" -s "$work/shard-0" -s "$work/shard-1" -o json
[ $rc -eq 3 ] && grep -q "no snapshot file sw[0-9].json in $work/shard-0 and $work/shard-1" "$work/err" ||
  fail "a missing shard: exit $rc: $(cat "$work/err")"
# A device in two directories (an overlap, or a file left from a run before): which is current cannot
# be told, so it is not judged.
first=$(cd "$work/shard-0" && ls -- *.json | head -1)
cp "$work/shard-0/$first" "$work/shard-1/"
run "$bin" verify -i "$inv" -s "$work/shard-0" -s "$work/shard-1" -s "$work/shard-2" -o json
grep -q "^fabricctl: ${first%.json}: state unreadable: snapshot files in $work/shard-0 and $work/shard-1: which is current cannot be told" "$work/err" &&
  [ $rc -eq 3 ] ||
  fail "a device in two shards: exit $rc: $(cat "$work/err")"
rm "$work/shard-1/$first"

# plan and verify take the same shards: plan's devices are shard 1's.
run "$bin" plan "${live[@]}" --shard 1/3 -o json
[ $rc -eq 0 ] || fail "plan --shard: exit $rc: $(cat "$work/err")"
/usr/bin/python3 -c '
import json, os, sys
planned = sorted(d["device"] for d in json.load(open(sys.argv[1]))["devices"])
shard = sorted(f[:-5] for f in os.listdir(sys.argv[2]) if f.endswith(".json"))
assert planned == shard, (planned, shard)' "$work/out" "$work/shard-1" || fail "plan --shard 1/3: $(cat "$work/out")"

# Shards that cannot be: refused (exit 2), the value quoted, nothing read.
for bad in 3/3 -1/3 1/0 x 2/3/4; do
  run "$bin" collect "${live[@]}" --shard "$bad" --out "$work/bad"
  [ $rc -eq 2 ] && grep -qF "'$bad'" "$work/err" && [ ! -e "$work/bad" ] || fail "--shard $bad: exit $rc: $(cat "$work/err")"
done
run "$bin" verify -i "$inv" -s "$work/one" --shard 6/7
[ $rc -eq 2 ] && grep -q 'holds none of the 6 devices' "$work/err" || fail "an empty shard: exit $rc: $(cat "$work/err")"

# The Kubernetes Indexed Job: the completion index is the shard, N the same in its three places.
/usr/bin/python3 - "$root/docs/fleet/collect-shards-job.yaml" <<'PY' || fail "collect-shards-job.yaml"
import re, sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
assert job["apiVersion"] == "batch/v1" and job["kind"] == "Job", job
spec = job["spec"]
assert spec["completionMode"] == "Indexed" and spec["completions"] == spec["parallelism"], spec
(c,) = spec["template"]["spec"]["containers"]
script = c["args"][0]
n = int(re.search(r'--shard "\$JOB_COMPLETION_INDEX/(\d+)"', script).group(1))
assert n == spec["completions"], (n, spec["completions"])
assert '--out "/snapshots/shard-$JOB_COMPLETION_INDEX"' in script and "--known-hosts" in script, script
assert c["securityContext"]["allowPrivilegeEscalation"] is False
PY

# The Ansible recipe, for real: three runners on this machine, each its shard.
if ! command -v ansible-playbook >/dev/null; then
  [ -n "${CI:-}" ] && fail "ansible-playbook is required in CI (scripts/install-deps installs ansible-core)"
  echo "shards: the Ansible recipe: SKIP (ansible-core is not installed)"
  echo "ok shards"
  exit 0
fi
printf '[fabricctl_runners]\n' >"$work/runners.ini"
for r in runner-a runner-b runner-c; do
  printf '%s ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n' "$r" >>"$work/runners.ini"
done
env ANSIBLE_LOCAL_TEMP="$work/ansible-tmp" ANSIBLE_NOCOLOR=1 ANSIBLE_FORKS=3 \
  ansible-playbook -i "$work/runners.ini" "$root/docs/fleet/ansible/collect-shards.yml" \
  -e "fabricctl=$bin" -e "fabricctl_inventory=$inv" -e "fabricctl_snapshots=$work/ansible" \
  -e "{\"fabricctl_args\": [\"--known-hosts\", \"$kh\"]}" >"$work/ap" 2>&1 || fail "collect-shards.yml: $(cat "$work/ap")"
for k in 0 1 2; do
  diff <(ls "$work/ansible/shard-$k") <(ls "$work/shard-$k") >/dev/null ||
    fail "the playbook's shard $k: $(ls "$work/ansible/shard-$k") against $(ls "$work/shard-$k")"
done
run "$bin" verify -i "$inv" -s "$work/ansible/shard-0" -s "$work/ansible/shard-1" -s "$work/ansible/shard-2" -o json
[ $rc -eq 0 ] && same_report "$work/v-one.json" "$work/out" || fail "verify of the playbook's shards: exit $rc: $(cat "$work/err")"
echo "ok shards"

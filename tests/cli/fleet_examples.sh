#!/usr/bin/env bash
# The fleet examples of docs/fleet.md work: the DaemonSet is a well-formed DaemonSet that runs
# `host collect` with the node's root at /host and no more privilege than NET_ADMIN; systemd accepts the
# snapshot service and timer (systemd-analyze verify), and the service's command, run as written in a
# network namespace of its own, writes the host's snapshot; Ansible accepts both playbooks
# (--syntax-check) and the collect playbook, run for real against the local host in that namespace,
# leaves a snapshot per host on the controller.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
fleet="$root/docs/fleet"
need() {  # need TOOL PACKAGE: SKIP without it, FAIL in CI
  command -v "$1" >/dev/null && return 0
  [ -n "${CI:-}" ] && fail "$1 is required in CI (scripts/install-deps installs $2)"
  echo "SKIP: $1 is not installed ($2)"
  exit 77
}
need systemd-analyze systemd
need ansible-playbook ansible-core

/usr/bin/python3 - "$fleet/daemonset.yaml" <<'PY' || fail "daemonset.yaml"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert d["apiVersion"] == "apps/v1" and d["kind"] == "DaemonSet", d
spec = d["spec"]["template"]["spec"]
assert d["spec"]["selector"]["matchLabels"] == d["spec"]["template"]["metadata"]["labels"]
assert spec["hostNetwork"] is True
(c,) = spec["containers"]
assert c["securityContext"]["capabilities"] == {"add": ["NET_ADMIN"], "drop": ["ALL"]}, c["securityContext"]
assert "privileged" not in c["securityContext"]
mounts = {m["name"]: m for m in c["volumeMounts"]}
assert mounts["host"]["mountPath"] == "/host" and mounts["host"]["readOnly"] is True
script = c["args"][0]
assert "fabricctl host collect --device \"$NODE_NAME\" --root /host" in script, script
assert c["env"][0]["valueFrom"]["fieldRef"]["fieldPath"] == "spec.nodeName"
PY

# systemd's own check of the units (unit syntax, the commands exist).
systemd-analyze verify "$fleet/fabricctl-snapshot.service" "$fleet/fabricctl-snapshot.timer" "$fleet/fabricctl-health.service" \
  >"$work/sa" 2>&1 ||
  fail "systemd-analyze verify: $(cat "$work/sa")"

for p in "$fleet"/ansible/*.yml; do
  ansible-playbook -i localhost, --syntax-check "$p" >"$work/ap" 2>&1 || fail "$(basename "$p"): $(cat "$work/ap")"
done

if [ "$(id -u)" -ne 0 ]; then
  echo "fleet examples: checked; the runs need root (a network namespace): SKIP"
  exit 0
fi
ns="fabricctl-fleet-$$"
ip netns add "$ns"
trap 'ip netns del "$ns" 2>/dev/null || true; rm -rf "$work"' EXIT
ip -n "$ns" link add ens1f0np0 type veth peer name ens1f1np1
ip -n "$ns" link set ens1f0np0 up
mkdir -p "$work/bin" "$work/state"
ln -s "$bin" "$work/bin/fabricctl"

# The service's ExecStart, as written (split into words the way systemd splits it: quotes like a
# shell's), with the directory systemd would give it.
exec_start=$(sed -n 's/^ExecStart=//p' "$fleet/fabricctl-snapshot.service")
host=$(hostname -s)
ip netns exec "$ns" env PATH="$work/bin:$PATH" STATE_DIRECTORY="$work/state" \
  /usr/bin/python3 -c 'import shlex, subprocess, sys; a = shlex.split(sys.argv[1]); sys.exit(subprocess.run(a).returncode)' \
  "$exec_start" 2>"$work/err" || fail "the service's command failed: $(cat "$work/err")"
/usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["device"] == sys.argv[2] and "ens1f0np0" in d["ports"], d' \
  "$work/state/$host.json" "$host" || fail "the service's snapshot: $(cat "$work/state/$host.json")"

# The collect playbook, for real: the local host as a member of gpu_hosts.
printf '[gpu_hosts]\nlab-host1 ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n' >"$work/hosts.ini"
mkdir -p "$work/snaps"
ip netns exec "$ns" env ANSIBLE_LOCAL_TEMP="$work/ansible-tmp" ANSIBLE_NOCOLOR=1 \
  ansible-playbook -i "$work/hosts.ini" "$fleet/ansible/collect-hosts.yml" \
  -e "fabricctl=$bin" -e "fabricctl_snapshots=$work/snaps" >"$work/ap" 2>&1 || fail "collect-hosts.yml: $(cat "$work/ap")"
/usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["device"] == "lab-host1" and "ens1f0np0" in d["ports"], d' \
  "$work/snaps/lab-host1.json" || fail "collect-hosts.yml wrote: $(cat "$work/snaps/lab-host1.json" 2>&1)"
echo "ok fleet_examples"

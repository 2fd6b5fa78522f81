# The lab for a CLI test (tests/lab/lab.py; as root, which CI is): lab_up INVENTORY [--factory] brings it
# up under $work/lab and takes it down on exit; then ctl (a command in the controller's namespace),
# $live (fabricctl's options for the lab), plan_json (a plan's JSON in $work/out) and field (one
# device's key of it). Each lab has namespaces of its own, so lab tests run side by side. Sourced
# after common.sh.
if [ "$(id -u)" -ne 0 ] || ! command -v lldpd >/dev/null || [ ! -x /usr/sbin/sshd ]; then
  [ -n "${CI:-}" ] && fail "CI is set but the lab needs root, sshd and lldpd (scripts/install-deps)"
  echo "SKIP: the lab needs root, sshd and lldpd"
  exit 77
fi
lab() { /usr/bin/python3 "$root/tests/lab/lab.py" "$@"; }
state="$work/lab"
# $work stays 0700 (mktemp's): the lab keeps lldpd's sockets where lldpcli, set-user-ID to lldpd's user,
# reaches them (/run/fablab-<run>/), so a state directory under a private home works.
trap 'lab down "$state" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
lab_up() {  # lab_up INVENTORY [--factory]
  lab up "$1" "$state" --fabricctl "$bin" "${@:2}" || fail "lab up $*"
  prefix=$(cat "$state/netns-prefix")  # this lab's namespaces: another run's are never touched
  live=(-i "$state/inventory" -p "$root/profiles" --known-hosts "$state/known_hosts" -q)
}
ctl() { "$state/ns" ctl "$@"; }
plan_json() { run ctl "$bin" plan "${live[@]}" -o json "$@"; }
field() {  # field DEVICE KEY: from the plan JSON in $work/out
  /usr/bin/python3 -c 'import json,sys; print({d["device"]: d for d in json.load(open(sys.argv[1]))["devices"]}[sys.argv[2]].get(sys.argv[3], ""))' \
    "$work/out" "$1" "$2"
}
lab_down() {  # and nothing of it left
  lab down "$state"
  [ -z "$(ip netns list | grep "^$prefix" || true)" ] || fail "lab down left namespaces: $(ip netns list)"
}

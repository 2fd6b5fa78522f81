#!/usr/bin/python3
"""The lab: an inventory made of real Linux parts on this machine (docs/lab.md). As root.

  lab.py up INVENTORY_DIR STATE_DIR --fabricctl BIN [--factory] [--lldp-interval S] [-p DIR]... [--templates DIR]...
        build it (down first, so `up` twice is one lab); --factory: devices at factory defaults, for
        bring-up; --lldp-interval: lldpd's transmit interval (seconds, default %d); -p, --templates: the
        site's directories, as fabricctl takes them (default: fabricctl.yaml beside the inventory)
  lab.py down STATE_DIR                               remove it all; safe to repeat, and after a failed up

One network namespace per device ("fablab-<run>-<device>": <run> is made from STATE_DIR, so that two labs,
e.g. two test runs on one machine, never share a namespace), a veth pair per link, the data plane of a
leaf-spine fabric as the NOSes build it (dataplane.py: a leaf's host-facing ports bridged in its rail's
segment, switch-to-switch links routed, so that frames really cross the switches, an MTU mismatch really
drops them and a leaf-spine mesh has no L2 loop), and a management network: a bridge in the controller
namespace "fablab-<run>-ctl" with the inventory's management addresses on the devices' "mgmt0". Every device runs a real OpenSSH sshd on its management address with a
host key of its own, and lldpd with the device's name, so LLDP runs over the cables. Behind a switch's
sshd the NOS emulator of its platform (emulators/<platform>.py) answers, loaded with the device's rendered
configuration (or at its factory defaults); a host's sshd runs the real fabricctl CLI (fabricctl_fixture_host: its sysfs writes go to a
model of the kernel), reading rtnetlink for real and its
NIC's sysfs/DCB state from a fixture tree built from its rendered nic-state.json (host_fixture.py).

What `up` leaves in STATE_DIR: netns-prefix (the namespaces' common prefix), ns (`STATE/ns DEVICE CMD...`
runs CMD in DEVICE's namespace, `ctl` for the controller's), inventory/ (the inventory, with mgmt pointing at the lab: user root, the
lab's client key, each host's fabricctl wrapper), fabricctl.yaml (the site's profile and template
directories, absolute, so that commands on inventory/ need no -p), known_hosts (every device's host key),
render/ (the rendered configuration the devices loaded), dataplane.json (dataplane.py's plan: every
address and route), traffic.json (traffic.py's model of the counters: `traffic.py STATE tick` moves them,
`traffic.py STATE fault KIND DEVICE:PORT` makes a fault), <device>/ (its sshd, lldpd, emulator state or fixture tree). lldpd's sockets are in
/run/fablab-<run>/, which lldpd's group can reach wherever STATE_DIR is (lldpcli runs as that group).
Run fabricctl in the controller namespace: `STATE/ns ctl fabricctl verify -i STATE/inventory
--known-hosts STATE/known_hosts`.
"""
import argparse
import hashlib
import ipaddress
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import dataplane  # noqa: E402  the data plane's addresses and routes, computed from the inventory
from dataplane import netdev  # noqa: E402,F401  (platforms.py and the emulators' ports.json use it)

LLDP_INTERVAL = 5  # seconds; docs/lab.md has what each interval costs


def run(*argv, check=True, **kw):
    return subprocess.run(argv, check=check, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


PREFIX = None  # "fablab-<run>-", set from the state directory by up and down


def prefix_of(state):
    """The namespaces' prefix of the lab in `state`: what its `up` wrote, or, before that, the one made
    from the directory's absolute path (6 hex digits of its SHA-1, so that a name stays short)."""
    try:
        with open(os.path.join(state, "netns-prefix")) as f:
            return f.read().strip()
    except OSError:
        digest = hashlib.sha1(os.path.abspath(state).encode()).hexdigest()[:6]
        return "fablab-%s-" % digest


def run_dir():
    """Where the lab's lldpd sockets are: lldpcli is set-user-ID to lldpd's user, so it reaches a socket
    only through directories that user may search, which a state directory under a 0700 home is not."""
    return "/run/" + PREFIX.rstrip("-")


def lldp_socket(device):
    return os.path.join(run_dir(), device + ".lldpd.sock")


def ns(device):
    return PREFIX + device


def in_ns(device, *argv, **kw):
    return run("ip", "netns", "exec", ns(device), *argv, **kw)


def ip_batch(commands, namespace=None):
    """`ip -batch` of `commands` (one `ip` for many changes; in `namespace` when given)."""
    if not commands:
        return
    argv = ["ip"] + (["-n", namespace] if namespace else []) + ["-batch", "-"]
    r = subprocess.run(argv, input="\n".join(commands) + "\n", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        raise subprocess.CalledProcessError(r.returncode, argv, r.stdout, r.stderr)


def lab_namespaces():
    out = run("ip", "netns", "list").stdout
    return [line.split()[0] for line in out.splitlines() if line.startswith(PREFIX)]


def down(state):
    # Every process in the lab's namespaces (sshd, lldpd, emulators), then the namespaces: their veths and
    # bridges go with them. Also what a failed `up` left: the namespaces are found by the lab's prefix,
    # never another lab's.
    global PREFIX
    PREFIX = prefix_of(state)
    for n in lab_namespaces():
        for pid in run("ip", "netns", "pids", n, check=False).stdout.split():
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass
    deadline = time.time() + 5
    for n in lab_namespaces():
        while run("ip", "netns", "pids", n, check=False).stdout.split() and time.time() < deadline:
            time.sleep(0.05)
        run("ip", "netns", "del", n, check=False)
    shutil.rmtree(run_dir(), ignore_errors=True)
    if state and os.path.isdir(state):
        shutil.rmtree(state)
    left = lab_namespaces()
    if left:
        sys.exit("lab down: namespaces left: " + " ".join(left))


def load_inventory(inv_dir):
    docs = {}
    for name in sorted(os.listdir(inv_dir)):
        if name.endswith((".yaml", ".yml")):
            with open(os.path.join(inv_dir, name)) as f:
                docs[name] = yaml.safe_load(f) or {}
    return docs


def site_dirs(inv_dir, profiles, templates):
    """The site's profile and template directories, absolute: those given (-p, --templates), else those
    of fabricctl.yaml beside the inventory (fabricctl's own rule: the file in the directory that holds the
    inventory directory, its paths relative to it). The lab's copy of the inventory is elsewhere, so its
    own fabricctl.yaml names them (the shipped ones come last in any case)."""
    site = os.path.join(os.path.dirname(os.path.abspath(inv_dir.rstrip("/"))), "fabricctl.yaml")
    conf = {}
    if os.path.exists(site):
        with open(site) as f:
            conf = yaml.safe_load(f) or {}
    out = {}
    for key, given in (("profiles", profiles), ("templates", templates)):
        if given:
            out[key] = [os.path.abspath(d) for d in given]
        elif conf.get(key):
            named = conf[key] if isinstance(conf[key], list) else [conf[key]]
            out[key] = [os.path.normpath(os.path.join(os.path.dirname(site), d)) for d in named]
    return out


def mgmt_plan(devices):
    """The controller's addresses on the management bridge: in each /24 the devices' addresses are in, the
    highest one no device has (a device of the inventory may well have .1)."""
    used = {}
    for dev in devices.values():
        a = ipaddress.ip_interface(dev["mgmt"]["address"] + "/24")
        used.setdefault(a.network, set()).add(a.ip)
    out = []
    for net, taken in sorted(used.items()):
        free = [h for h in net.hosts() if h not in taken]
        if not free:
            sys.exit("lab up: no free address for the controller in %s" % net)
        out.append("%s/24" % free[-1])
    return out


def sshd(device, state, address, force=None, path=None):
    d = os.path.join(state, device)
    run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", device, "-f", os.path.join(d, "host_key"))
    shutil.copy(os.path.join(state, "client_key.pub"), os.path.join(d, "authorized_keys"))
    conf = [
        "ListenAddress " + address, "Port 22", "HostKey " + os.path.join(d, "host_key"),
        "PidFile " + os.path.join(d, "sshd.pid"), "AuthorizedKeysFile " + os.path.join(d, "authorized_keys"),
        "StrictModes no", "UsePAM no", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
        "PermitRootLogin prohibit-password", "LogLevel VERBOSE", "MaxStartups 64",
        # Debian's bash reads ~/.bashrc for a command sshd runs unless SHLVL says it is nested: the
        # tester's rc files are no part of a device (and cost a second per command under pyenv). sshd
        # takes the first SetEnv line only: a host's PATH goes on the same one.
        "SetEnv SHLVL=1" + (" PATH=" + path if path else ""),
    ]
    if force:
        conf.append("ForceCommand " + force)
    with open(os.path.join(d, "sshd_config"), "w") as f:
        f.write("\n".join(conf) + "\n")
    os.makedirs("/run/sshd", exist_ok=True)
    in_ns(device, "/usr/sbin/sshd", "-r", "-f", os.path.join(d, "sshd_config"), "-E", os.path.join(d, "sshd.log"))
    with open(os.path.join(d, "host_key.pub")) as f:
        return address + " " + " ".join(f.read().split()[:2])


def lldpd(device, state, ports, switch, interval):
    d = os.path.join(state, device)
    conf = ["configure system hostname " + device, "configure lldp tx-interval %d" % interval]
    if switch:  # a switch's port ID is its port name, which the lab's netdev may not spell the same
        conf += ["configure ports %s lldp portidsubtype local %s" % (netdev(p), p) for p in ports]
    else:
        conf.append("configure lldp portidsubtype ifname")
    # lldpd has its configuration applied by lldpcli, as lldpd's user: beside the socket, not under STATE.
    conf_file = os.path.join(run_dir(), device + ".lldpd.conf")
    with open(conf_file, "w") as f:
        f.write("\n".join(conf) + "\n")
    os.chmod(conf_file, 0o644)
    ifaces = ",".join(netdev(p) for p in ports) or "none"
    subprocess.Popen(["ip", "netns", "exec", ns(device), "lldpd", "-d", "-u", lldp_socket(device), "-O",
                      conf_file, "-I", ifaces], stdout=open(os.path.join(d, "lldpd.log"), "w"),
                     stderr=subprocess.STDOUT, start_new_session=True)


# Per namespace, before any interface is made (a new interface takes the "default" values). Switches
# forward IPv4 (a routed port is a Linux interface forwarding, its MTU the interface's); hosts do not. No
# reverse-path filter: ECMP may bring a reply in by another port than the request left. A host answers
# ARP only on the NIC that has the address, as a multi-NIC RoCE host is configured.
SYSCTLS = {
    "switch": {"net/ipv4/ip_forward": 1, "net/ipv4/conf/all/rp_filter": 0, "net/ipv4/conf/default/rp_filter": 0},
    "host": {"net/ipv4/ip_forward": 0, "net/ipv4/conf/all/rp_filter": 0, "net/ipv4/conf/default/rp_filter": 0,
             "net/ipv4/conf/all/arp_ignore": 1, "net/ipv4/conf/all/arp_announce": 2},
}


def data_plane(name, dev, plane, nic_mtus):
    """The `ip -batch` commands that build a device's data plane from dataplane.py's plan, in two steps:
    interfaces and addresses, then routes (whose next hops need the addresses)."""
    links, routes = [], []
    if dev["role"] == "switch":
        sw = plane["switches"][name]
        if sw["bridged"]:
            links.append("link add name br0 type bridge")
            for p in sw["bridged"]:
                links.append("link set %s master br0" % p)
            if sw["gateway"]:
                links.append("addr add %s dev br0" % sw["gateway"])
            links.append("link set br0 up")
        for p, r in sorted(sw["routed"].items()):
            links.append("addr add %s dev %s" % (r["address"], p))
        for p in sw["bridged"] + sorted(sw["routed"]):
            links.append("link set %s up" % p)
        for prefix, hops in sw["routes"]:
            if len(hops) == 1:
                routes.append("route replace %s via %s dev %s" % (prefix, hops[0][0], hops[0][1]))
            elif hops:
                routes.append("route replace %s %s" % (prefix, " ".join("nexthop via %s dev %s" % (v, d) for v, d in hops)))
    else:
        host = plane["hosts"][name]
        for p, mtu in nic_mtus.items():
            links.append("link set %s mtu %d" % (p, mtu))
        for p, spec in sorted(host["ports"].items()):
            links.append("addr add %s dev %s" % (spec["address"], p))
        for p in nic_mtus:
            links.append("link set %s up" % p)
        for prefix, via, p, metric in host["routes"]:
            routes.append("route replace %s via %s dev %s%s" % (prefix, via, p, "" if metric is None else " metric %d" % metric))
    return links, routes


def up(inv_dir, state, fabricctl, factory=False, lldp_interval=LLDP_INTERVAL, profiles=(), templates=()):
    import platforms  # the emulators of each switch platform: how a switch loads its rendered configuration

    started = time.time()
    down(state)
    os.makedirs(state)
    os.makedirs(run_dir(), mode=0o755)
    os.chmod(run_dir(), 0o755)
    with open(os.path.join(state, "netns-prefix"), "w") as f:
        f.write(PREFIX + "\n")
    helper = os.path.join(state, "ns")
    with open(helper, "w") as f:
        f.write("#!/bin/sh\n# ns DEVICE CMD...: CMD in the lab device's network namespace (ctl: the controller's).\n"
                "d=$1; shift\nexec ip netns exec '%s'\"$d\" \"$@\"\n" % PREFIX)
    os.chmod(helper, 0o755)
    docs = load_inventory(inv_dir)
    devices, links, groups, defaults = {}, [], {}, {}
    for doc in docs.values():
        devices.update(doc.get("devices") or {})
        links += doc.get("links") or []
        groups.update(doc.get("groups") or {})
        defaults = doc.get("defaults") or defaults
    try:
        plane = dataplane.plan(devices, links)
    except ValueError as e:
        sys.exit("lab up: %s" % e)
    with open(os.path.join(state, "dataplane.json"), "w") as f:
        json.dump(plane, f, indent=1)
    dirs = site_dirs(inv_dir, profiles, templates)
    dir_args = [a for d in dirs.get("profiles", []) for a in ("-p", d)]
    dir_args += [a for d in dirs.get("templates", []) for a in ("--templates", d)]
    run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "fablab-client", "-f", os.path.join(state, "client_key"))
    run(fabricctl, "render", "-i", inv_dir, "--out", os.path.join(state, "render"), *dir_args)

    # Namespaces (their sysctls first), the management network, the cables, each device's data plane.
    names = sorted(devices)
    for name in ["ctl"] + names:
        run("ip", "netns", "add", ns(name))
        if name != "ctl":
            # /proc/sys/net is the writer's namespace's (no sysctl(8): procps is not a dependency)
            in_ns(name, "sh", "-c", "; ".join("echo %d > /proc/sys/%s" % (v, k)
                                              for k, v in SYSCTLS[devices[name]["role"]].items()))
    ctl = ["link set lo up", "link add name mgmt type bridge"]
    ctl += ["addr add %s dev mgmt" % a for a in mgmt_plan(devices)] + ["link set mgmt up"]
    ip_batch(ctl, ns("ctl"))
    cables = []
    for i, name in enumerate(names):
        cables.append("link add name mgmt0 netns %s type veth peer name m%d netns %s" % (ns(name), i, ns("ctl")))
    for link in links:
        (da, pa), (db, pb) = link["a"].split(":", 1), link["b"].split(":", 1)
        cables.append("link add name %s netns %s type veth peer name %s netns %s" %
                      (netdev(pa), ns(da), netdev(pb), ns(db)))
    ip_batch(cables)
    ip_batch(["link set m%d master mgmt up" % i for i in range(len(names))], ns("ctl"))
    nics = {}
    for name in names:
        if devices[name]["role"] != "switch":
            with open(os.path.join(state, "render", name, "nic-state.json")) as f:
                nics[name] = json.load(f)
    later = {}
    for name in names:
        dev = devices[name]
        # Factory: the kernel's default Ethernet MTU on a host, as a freshly installed host has it.
        mtus = {p["netdev"]: 1500 if factory else int(p["mtu"]) for p in nics[name]["ports"]} if name in nics else {}
        links_, later[name] = data_plane(name, dev, plane, mtus)
        ip_batch(["link set lo up", "addr add %s/24 dev mgmt0" % dev["mgmt"]["address"], "link set mgmt0 up"] + links_,
                 ns(name))
    for name in names:
        ip_batch(later[name], ns(name))

    # What runs on each device, and the inventory that reaches it.
    known = []
    lab_inv = {}
    for fname, doc in docs.items():
        doc = json.loads(json.dumps(doc))  # a copy
        if "defaults" in doc:
            doc["defaults"]["mgmt"] = {"user": "root", "key": os.path.join(state, "client_key")}
        lab_inv[fname] = doc
    for name, dev in sorted(devices.items()):
        port_specs = dev.get("ports") or {}
        ports = list(port_specs.keys())
        d = os.path.join(state, name)
        os.makedirs(d)
        render = os.path.join(state, "render", name)
        address = dev["mgmt"]["address"]
        if dev["role"] == "switch":
            # The switch's `eos:`/`nvue:` settings (chip, release), layered as fabricctl layers them
            # (docs/inventory.md "Switch hardware"): defaults, then its groups in order, then the device.
            settings = {}
            for layer in [defaults] + [groups.get(g) or {} for g in dev.get("groups") or []] + [dev]:
                settings.update(layer.get(dev["platform"]) or {})
            force = platforms.install(dev["platform"], ns(name), port_specs, d, render, netdev, lldp_socket(name),
                                      factory, settings)
            known.append(sshd(name, state, address, force))
        else:
            # The host's NIC: MTU for real (rtnetlink, above), the rest in a fixture tree.
            run(sys.executable, os.path.join(HERE, "host_fixture.py"), os.path.join(render, "nic-state.json"),
                os.path.join(d, "root"), *(["--factory"] if factory else []))
            wrapper = os.path.join(d, "fabricctl")
            # fabricctl_fixture_host (built beside fabricctl): the real CLI, its sysfs/configfs writes taken by a
            # model of the kernel over the fixture tree (tests/unit/fixture_kernel.h), so that a value the kernel
            # would refuse fails in the lab too.
            agent = os.path.join(os.path.dirname(os.path.realpath(fabricctl)), "fabricctl_fixture_host")
            if not os.access(agent, os.X_OK):
                raise SystemExit("lab.py: %s is missing: build the fabricctl_fixture_host target" % agent)
            with open(wrapper, "w") as f:
                f.write("#!/bin/sh\n# The lab host's fabricctl: the real CLI over a model of the kernel, reading and writing "
                        "this host's fixture tree.\n"
                        "exec %s \"$@\" --root %s --lldp-socket %s --dcb-from %s\n" %
                        (agent, os.path.join(d, "root"), lldp_socket(name), os.path.join(d, "root/dcb")))
            os.chmod(wrapper, 0o755)
            # perftest's ib_write_bw for `fabricctl acceptance`: a double (perftest.py), found first on the
            # PATH of the host's SSH sessions.
            bindir = os.path.join(d, "bin")
            os.makedirs(bindir)
            with open(os.path.join(bindir, "ib_write_bw"), "w") as f:
                f.write("#!/bin/sh\nexec /usr/bin/python3 %s %s \"$@\"\n" % (os.path.join(HERE, "perftest.py"), d))
            os.chmod(os.path.join(bindir, "ib_write_bw"), 0o755)
            known.append(sshd(name, state, address,
                              path=bindir + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"))
        lldpd(name, state, ports, dev["role"] == "switch", lldp_interval)
    if not any("defaults" in doc for doc in lab_inv.values()) and lab_inv:
        first = sorted(lab_inv)[0]
        lab_inv[first]["defaults"] = {"mgmt": {"user": "root", "key": os.path.join(state, "client_key")}}
    for fname, doc in lab_inv.items():
        for name, dev in (doc.get("devices") or {}).items():
            m = dev.setdefault("mgmt", {})
            m.pop("user", None)
            if dev["role"] == "host":
                m["fabricctl"] = os.path.join(state, name, "fabricctl")
    os.makedirs(os.path.join(state, "inventory"))
    for fname, doc in lab_inv.items():
        with open(os.path.join(state, "inventory", fname), "w") as f:
            f.write("# The lab's copy of %s: mgmt reaches the lab's devices (tests/lab/lab.py).\n" % fname)
            yaml.safe_dump(doc, f, sort_keys=False)
    if dirs:
        with open(os.path.join(state, "fabricctl.yaml"), "w") as f:
            f.write("# The site's directories of %s, for the lab's copy of its inventory (tests/lab/lab.py).\n"
                    % os.path.abspath(inv_dir))
            yaml.safe_dump(dirs, f, sort_keys=False)
    with open(os.path.join(state, "known_hosts"), "w") as f:
        f.write("\n".join(known) + "\n")
    # The counters of a working fabric, at their start (traffic.py: a test ticks them and makes faults).
    run(sys.executable, os.path.join(HERE, "traffic.py"), state, "init")
    # Ready when every sshd answers and lldpd has seen both ends of every cable.
    wait_ready(state, devices, links, timeout=15 + len(devices))
    with open(os.path.join(state, "up-seconds"), "w") as f:
        f.write("%.1f\n" % (time.time() - started))


def lldp_neighbours(device):
    """{(local netdev, neighbour's system name)} that `device`'s lldpd has seen (empty while it does not
    answer)."""
    out = run("lldpcli", "-u", lldp_socket(device), "-f", "json0", "show", "neighbors", check=False).stdout
    try:
        return {(i["name"], i["chassis"][0]["name"][0]["value"]) for l in json.loads(out)["lldp"]
                for i in l.get("interface", [])}
    except (ValueError, KeyError, TypeError, IndexError):
        return set()


def wait_ready(state, devices, links, timeout):
    """Every sshd answers and every lldpd has seen, on each of its cables, the device at the other end by
    its name (so lldpd took its configuration). lldpd sends when it starts and then every interval: a
    neighbour that started later is asked to send now (`lldpcli update`)."""
    deadline = time.time() + timeout
    addresses = sorted(d["mgmt"]["address"] for d in devices.values())
    want = {name: set() for name in devices}
    for l in links:
        (da, pa), (db, pb) = l["a"].split(":", 1), l["b"].split(":", 1)
        want[da].add((netdev(pa), db))
        want[db].add((netdev(pb), da))
    probe = ("import socket, sys\nfor a in sys.argv[1:]:\n"
             "    try:\n        socket.create_connection((a, 22), 0.5).close()\n"
             "    except OSError:\n        print(a)\n")
    waiting_ssh, waiting_lldp = list(addresses), set(devices)
    nudged = 0.0
    while time.time() < deadline:
        if waiting_ssh:
            waiting_ssh = in_ns("ctl", sys.executable, "-c", probe, *waiting_ssh, check=False).stdout.split()
        waiting_lldp = {n for n in waiting_lldp if not want[n] <= lldp_neighbours(n)}
        if not waiting_ssh and not waiting_lldp:
            return
        if waiting_lldp and time.time() - nudged > 2:
            for p in sorted({peer for n in waiting_lldp for _, peer in want[n]}):
                run("lldpcli", "-u", lldp_socket(p), "update", check=False)
            nudged = time.time()
        time.sleep(0.2)
    missing = ["sshd " + a for a in waiting_ssh] + ["lldp " + n for n in sorted(waiting_lldp)]
    sys.exit("lab up: not ready after %d s: %s" % (timeout, ", ".join(missing)))


def main():
    if os.geteuid() != 0:
        sys.exit("lab.py: needs root (network namespaces)")
    if len(sys.argv) >= 3 and sys.argv[1] == "down":
        down(sys.argv[2])
        return 0
    if len(sys.argv) < 2 or sys.argv[1] != "up":
        sys.exit(__doc__ % LLDP_INTERVAL)
    ap = argparse.ArgumentParser(prog="lab.py up", usage=__doc__ % LLDP_INTERVAL)
    ap.add_argument("inventory")
    ap.add_argument("state")
    ap.add_argument("--fabricctl", required=True)
    ap.add_argument("--factory", action="store_true")
    ap.add_argument("--lldp-interval", type=int, default=LLDP_INTERVAL)
    ap.add_argument("-p", dest="profiles", action="append", default=[])
    ap.add_argument("--templates", action="append", default=[])
    a = ap.parse_args(sys.argv[2:])
    global PREFIX
    PREFIX = prefix_of(a.state)
    try:
        up(a.inventory, a.state, os.path.abspath(a.fabricctl), a.factory, a.lldp_interval, a.profiles, a.templates)
    except subprocess.CalledProcessError as e:
        sys.stderr.write("lab up: %s failed: %s" % (" ".join(e.cmd), e.stderr))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

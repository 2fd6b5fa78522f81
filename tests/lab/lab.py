#!/usr/bin/python3
"""The lab: an inventory made of real Linux parts on this machine (docs/lab.md). As root.

  lab.py up INVENTORY_DIR STATE_DIR --fabricctl BIN [--factory]
                                                      build it (down first, so `up` twice is one lab);
                                                      --factory: devices at factory defaults, for bring-up
  lab.py down STATE_DIR                               remove it all; safe to repeat, and after a failed up

One network namespace per device ("fablab-<run>-<device>": <run> is made from STATE_DIR, so that two labs,
e.g. two test runs on one machine, never share a namespace), a veth pair per link, a bridge in each switch
namespace so that frames really cross the switch (and an MTU mismatch really drops them), and a
management network: a bridge in the controller namespace "fablab-<run>-ctl" with the inventory's management
addresses on the devices' "mgmt0". Every device runs a real OpenSSH sshd on its management address with a
host key of its own, and lldpd with the device's name, so LLDP runs over the cables. Behind a switch's
sshd the NOS emulator of its platform (emulators/<platform>.py) answers, loaded with the device's rendered
configuration (or at its factory defaults); a host's sshd runs the real fabricctl CLI (fabricctl_fixture_host: its sysfs writes go to a
model of the kernel), reading rtnetlink for real and its
NIC's sysfs/DCB state from a fixture tree built from its rendered nic-state.json (host_fixture.py).

What `up` leaves in STATE_DIR: netns-prefix (the namespaces' common prefix), ns (`STATE/ns DEVICE CMD...`
runs CMD in DEVICE's namespace, `ctl` for the controller's), inventory/ (the inventory, with mgmt pointing at the lab: user root, the
lab's client key, each host's fabricctl wrapper), known_hosts (every device's host key), render/ (the
rendered configuration the devices loaded), <device>/ (its sshd, lldpd, emulator state or fixture tree).
Run fabricctl in the controller namespace: `STATE/ns ctl fabricctl verify -i STATE/inventory
--known-hosts STATE/known_hosts`.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import yaml

import hashlib

HERE = os.path.dirname(os.path.abspath(__file__))
CTL_ADDRESS = "192.0.2.1/24"  # the controller's, on the management bridge (TEST-NET-1, inside the lab only)


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


def ns(device):
    return PREFIX + device


def in_ns(device, *argv, **kw):
    return run("ip", "netns", "exec", ns(device), *argv, **kw)


def netdev(port):
    """A port's netdev in the lab: a switch port's name without what Linux does not allow ('/'), at most
    15 bytes. The emulators map it back (ports.json)."""
    return port.replace("/", "_")[:15]


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


def sshd(device, state, address, force=None):
    d = os.path.join(state, device)
    run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", device, "-f", os.path.join(d, "host_key"))
    shutil.copy(os.path.join(state, "client_key.pub"), os.path.join(d, "authorized_keys"))
    conf = [
        "ListenAddress " + address, "Port 22", "HostKey " + os.path.join(d, "host_key"),
        "PidFile " + os.path.join(d, "sshd.pid"), "AuthorizedKeysFile " + os.path.join(d, "authorized_keys"),
        "StrictModes no", "UsePAM no", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
        "PermitRootLogin prohibit-password", "LogLevel VERBOSE", "MaxStartups 64",
        # Debian's bash reads ~/.bashrc for a command sshd runs unless SHLVL says it is nested: the
        # tester's rc files are no part of a device (and cost a second per command under pyenv).
        "SetEnv SHLVL=1",
    ]
    if force:
        conf.append("ForceCommand " + force)
    with open(os.path.join(d, "sshd_config"), "w") as f:
        f.write("\n".join(conf) + "\n")
    os.makedirs("/run/sshd", exist_ok=True)
    in_ns(device, "/usr/sbin/sshd", "-r", "-f", os.path.join(d, "sshd_config"), "-E", os.path.join(d, "sshd.log"))
    with open(os.path.join(d, "host_key.pub")) as f:
        return address + " " + " ".join(f.read().split()[:2])


def lldpd(device, state, ports, switch):
    d = os.path.join(state, device)
    conf = ["configure system hostname " + device, "configure lldp tx-interval 1"]
    if switch:  # a switch's port ID is its port name, which the lab's netdev may not spell the same
        conf += ["configure ports %s lldp portidsubtype local %s" % (netdev(p), p) for p in ports]
    else:
        conf.append("configure lldp portidsubtype ifname")
    with open(os.path.join(d, "lldpd.conf"), "w") as f:
        f.write("\n".join(conf) + "\n")
    ifaces = ",".join(netdev(p) for p in ports) or "none"
    subprocess.Popen(["ip", "netns", "exec", ns(device), "lldpd", "-d", "-u", os.path.join(d, "lldpd.sock"), "-O",
                      os.path.join(d, "lldpd.conf"), "-I", ifaces], stdout=open(os.path.join(d, "lldpd.log"), "w"),
                     stderr=subprocess.STDOUT, start_new_session=True)


def up(inv_dir, state, fabricctl, factory=False):
    import platforms  # the emulators of each switch platform: how a switch loads its rendered configuration

    down(state)
    os.makedirs(state)
    os.chmod(state, 0o755)  # lldpcli reaches lldpd's socket as lldpd's group
    with open(os.path.join(state, "netns-prefix"), "w") as f:
        f.write(PREFIX + "\n")
    helper = os.path.join(state, "ns")
    with open(helper, "w") as f:
        f.write("#!/bin/sh\n# ns DEVICE CMD...: CMD in the lab device's network namespace (ctl: the controller's).\n"
                "d=$1; shift\nexec ip netns exec '%s'\"$d\" \"$@\"\n" % PREFIX)
    os.chmod(helper, 0o755)
    docs = load_inventory(inv_dir)
    devices, links = {}, []
    for doc in docs.values():
        devices.update(doc.get("devices") or {})
        links += doc.get("links") or []
    run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "fablab-client", "-f", os.path.join(state, "client_key"))
    run(fabricctl, "render", "-i", inv_dir, "--out", os.path.join(state, "render"))

    # Namespaces, the management network, the cables.
    run("ip", "netns", "add", ns("ctl"))
    in_ns("ctl", "ip", "link", "set", "lo", "up")
    in_ns("ctl", "ip", "link", "add", "name", "mgmt", "type", "bridge")
    in_ns("ctl", "ip", "addr", "add", CTL_ADDRESS, "dev", "mgmt")
    in_ns("ctl", "ip", "link", "set", "mgmt", "up")
    for i, (name, dev) in enumerate(sorted(devices.items())):
        os.makedirs(os.path.join(state, name))
        run("ip", "netns", "add", ns(name))
        in_ns(name, "ip", "link", "set", "lo", "up")
        peer = "m%d" % i
        run("ip", "link", "add", "name", "mgmt0", "netns", ns(name), "type", "veth", "peer", "name", peer, "netns", ns("ctl"))
        in_ns("ctl", "ip", "link", "set", peer, "master", "mgmt", "up")
        in_ns(name, "ip", "addr", "add", dev["mgmt"]["address"] + "/24", "dev", "mgmt0")
        in_ns(name, "ip", "link", "set", "mgmt0", "up")
    for link in links:
        (da, pa), (db, pb) = link["a"].split(":", 1), link["b"].split(":", 1)
        run("ip", "link", "add", "name", netdev(pa), "netns", ns(da), "type", "veth", "peer", "name", netdev(pb),
            "netns", ns(db))
    for name, dev in devices.items():
        ports = list((dev.get("ports") or {}).keys())
        switch = dev["role"] == "switch"
        if switch:
            in_ns(name, "ip", "link", "add", "name", "br0", "type", "bridge")
            for p in ports:
                in_ns(name, "ip", "link", "set", netdev(p), "master", "br0", check=False)
            in_ns(name, "ip", "link", "set", "br0", "up")
        for p in ports:
            in_ns(name, "ip", "link", "set", netdev(p), "up", check=False)

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
        render = os.path.join(state, "render", name)
        address = dev["mgmt"]["address"]
        if dev["role"] == "switch":
            force = platforms.install(dev["platform"], ns(name), port_specs, d, render, netdev,
                                      os.path.join(d, "lldpd.sock"), factory)
            known.append(sshd(name, state, address, force))
        else:
            # The host's NIC: MTU for real (rtnetlink), the rest in a fixture tree.
            with open(os.path.join(render, "nic-state.json")) as f:
                nic = json.load(f)
            host_number = sorted(n for n, x in devices.items() if x["role"] == "host").index(name) + 1
            for p in nic["ports"]:
                # Factory: the kernel's default Ethernet MTU, as a freshly installed host has it.
                in_ns(name, "ip", "link", "set", p["netdev"], "mtu", "1500" if factory else str(p["mtu"]))
                # Data-plane addresses, one subnet per rail: 10.0.<rail>.<host number>.
                if p.get("rail") is not None:
                    in_ns(name, "ip", "addr", "add", "10.0.%d.%d/24" % (p["rail"], host_number), "dev", p["netdev"])
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
                        (agent, os.path.join(d, "root"), os.path.join(d, "lldpd.sock"), os.path.join(d, "root/dcb")))
            os.chmod(wrapper, 0o755)
            known.append(sshd(name, state, address))
        lldpd(name, state, ports, dev["role"] == "switch")
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
    with open(os.path.join(state, "known_hosts"), "w") as f:
        f.write("\n".join(known) + "\n")
    # Ready when every sshd answers and lldpd has seen both ends of every cable (at most 15 s).
    wait_ready(state, devices, links)


def wait_ready(state, devices, links, timeout=15):
    deadline = time.time() + timeout
    addresses = [d["mgmt"]["address"] for d in devices.values()]
    missing = []
    while time.time() < deadline:
        missing = []
        for a in addresses:
            r = in_ns("ctl", sys.executable, "-c", "import socket; socket.create_connection(('%s', 22), 0.5)" % a,
                      check=False)
            if r.returncode != 0:
                missing.append("sshd " + a)
        for name in devices:
            out = in_ns(name, "lldpcli", "-u", os.path.join(state, name, "lldpd.sock"), "-f", "json0", "show",
                        "neighbors", check=False).stdout
            want = sum(1 for l in links for end in (l["a"], l["b"]) if end.split(":", 1)[0] == name)
            try:
                seen = sum(len(l.get("interface", [])) for l in json.loads(out)["lldp"])
            except (ValueError, KeyError, TypeError):
                seen = 0
            if seen < want:
                missing.append("lldp " + name)
        if not missing:
            return
        time.sleep(0.2)
    sys.exit("lab up: not ready after %d s: %s" % (timeout, ", ".join(missing)))


def main():
    if os.geteuid() != 0:
        sys.exit("lab.py: needs root (network namespaces)")
    if len(sys.argv) >= 3 and sys.argv[1] == "down":
        down(sys.argv[2])
        return 0
    factory = sys.argv[6:] == ["--factory"]
    if len(sys.argv) in (6, 7) and sys.argv[1] == "up" and sys.argv[4] == "--fabricctl" and (len(sys.argv) == 6 or factory):
        sys.path.insert(0, HERE)
        try:
            up(sys.argv[2], sys.argv[3], os.path.abspath(sys.argv[5]), factory)
        except subprocess.CalledProcessError as e:
            sys.stderr.write("lab up: %s failed: %s" % (" ".join(e.cmd), e.stderr))
            return 1
        return 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())

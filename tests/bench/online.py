#!/usr/bin/python3
"""Online scale benchmark (docs/performance.md, "Online"): N emulated switches behind one real OpenSSH
sshd, read by fabricctl (`collect` + `verify`), by pdsh fanning out the same show commands, and by an
Ansible playbook that collects the same outputs and asserts MTU equality per link. As root.

Usage: tests/bench/online.py BUILD_DIR [N...] [--jobs J] [--tools fabricctl,pdsh,ansible,apply,faults] [--keep DIR]

The switches: pods of 16 leaves and 4 spines (each leaf wired to its pod's spines), all switches of a
pod on one platform, SONiC, EOS and NVUE in turn (a pod of one vendor, so that MTU equality per link is
a fair question for a playbook that does not know each NOS's MTU semantics). N is rounded up to whole
pods. Each switch is one device identity: its own address (127.1.X.Y, in a network namespace of the
run's own, "fabbench-<pid>"), its own NOS emulator state (tests/lab/emulators, loaded with what
`fabricctl render` made for it), its own neighbours. One sshd listens in the namespace; its ForceCommand,
online-responder, finds the switch by the address the client connected to.

What answers: a read-only command is answered from what the switch's emulator answered to it before
(online_responder.c): a first `fabricctl collect` asks every emulator (its Python runs then, in a
server per platform, emulators/zygote.py) and is not timed; the timed runs read the same answers at
the cost of a small C program. So the timed runs measure the tools, ssh and sshd, not Python.

Per tool it prints wall time, CPU time (user + system of the tool and its child processes: pdsh's and
Ansible's ssh clients count), fabricctl's peak RSS, CPU per device, the CPU sshd (and the responder
under it) spent for that run, and the ratios fabricctl/pdsh and Ansible/fabricctl in wall time.
With `apply`, a profile change applied to every switch and applied again (a no-op); with `faults`, the
same apply with one switch in ten failing in each of four ways (faults_rows).

Asserted: fabricctl's collect reads every switch and its verify finds the intact fabric clean, pdsh and
the playbook end without an error, the apply converges and its second run changes nothing, and under
faults each switch ends where faults_rows says; times are printed for people and docs/performance.md,
never asserted."""
import argparse
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
EMULATORS = os.path.join(REPO, "tests", "lab", "emulators")
sys.path.insert(0, EMULATORS)

LEAVES, SPINES = 16, 4        # per pod
HOST_PORTS = 4                # leaf ports toward servers (no cable: a port the inventory lists)
PLATFORMS = ("sonic", "eos", "nvue")
EMULATOR = {"sonic": "sonic.py", "eos": "eos.py", "nvue": "nvue.py"}
CHANGED_PROFILE = "roce-pfc-only"  # what `apply` changes every switch to (the switches start at roce-lossless)
ARTIFACT = {"sonic": "config_db.json", "eos": "session.cfg", "nvue": "commands.nvue"}


def port_name(platform, i):
    return {"sonic": "Ethernet%d" % (8 * i), "eos": "Ethernet%d/1" % (i + 1), "nvue": "swp%d" % (i + 1)}[platform]


def address(i):
    """The i-th switch's address: 127.1.0.1 onwards, never .0 or .255 of a /24."""
    return "127.1.%d.%d" % (i // 250, i % 250 + 1)


def fabric(n):
    """{name: {platform, role, ports: [..]}}, [(a, pa, b, pb)] for about n switches in whole pods."""
    pods = max(1, -(-n // (LEAVES + SPINES)))
    devices, links = {}, []
    for p in range(pods):
        plat = PLATFORMS[p % len(PLATFORMS)]
        spines = ["p%03d-spine%d" % (p, s) for s in range(SPINES)]
        for s in spines:
            devices[s] = {"platform": plat, "ports": [port_name(plat, i) for i in range(LEAVES)]}
        for l in range(LEAVES):
            leaf = "p%03d-leaf%02d" % (p, l)
            ports = [port_name(plat, i) for i in range(HOST_PORTS + SPINES)]
            devices[leaf] = {"platform": plat, "ports": ports}
            for s, spine in enumerate(spines):
                links.append((leaf, ports[HOST_PORTS + s], spine, port_name(plat, l)))
    return devices, links


def write_inventory(inv, devices, links, key):
    """The inventory fabricctl reads (YAML is JSON's superset: written as JSON, one line a device)."""
    os.makedirs(inv)
    doc = {"defaults": {"profile": "roce-lossless", "mgmt": {"user": "root", "key": key}}, "devices": {},
           "links": [{"a": "%s:%s" % (a, pa), "b": "%s:%s" % (b, pb), "speed": "400G", "cable_length_m": 3}
                     for a, pa, b, pb in links]}
    for i, (name, d) in enumerate(sorted(devices.items())):
        entry = {"role": "switch", "platform": d["platform"], "mgmt": {"address": address(i)},
                 "ports": {p: {"speed": "400G"} for p in d["ports"]}}
        if d["platform"] == "sonic":
            entry["sonic"] = {"buffer_model": "traditional", "cable_lengths_m": [5, 40, 300]}
        if d["platform"] == "eos":
            entry["eos"] = {"chip": "tomahawk"}
        doc["devices"][name] = entry
    with open(os.path.join(inv, "fabric.yaml"), "w") as f:
        json.dump(doc, f, indent=1)


def load_switch(job):
    """One switch's emulator state, loaded with its rendered configuration as the lab loads it
    (tests/lab/platforms.py), in this worker process: the emulators are imported once per worker."""
    name, platform, ports, neighbours, state, artifact = job
    os.makedirs(state)
    table = {}
    for p in ports:
        table[p] = {"speed": "400G" if platform != "eos" else 400000, "oper": "up"}
        if p in neighbours:
            table[p]["lldp"] = list(neighbours[p])
    with open(os.path.join(state, "ports.json"), "w") as f:
        json.dump(table, f)
    if platform == "eos":
        with open(os.path.join(state, "chip.txt"), "w") as f:
            f.write("tomahawk\n")
    module = __import__(EMULATOR[platform][:-3])
    sys.argv = [EMULATOR[platform], state, "--load", artifact]
    os.environ.pop("SSH_ORIGINAL_COMMAND", None)
    status = module.main()
    if status:
        raise SystemExit("online: loading %s failed (%s)" % (name, status))
    return name


def fnv1a(text):
    """online_responder.c's file name for a command: FNV-1a, 64 bits, of its bytes."""
    h = 1469598103934665603
    for b in text.encode():
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def prefill(job):
    """What one switch's emulator answers to each of `commands`, kept where its responder looks
    (online_responder.c's files), in this worker process: the emulator's main() as its server would run
    it for an SSH command, without the SSH, the fork or the server."""
    import io

    name, platform, state, cache, commands = job
    module = __import__(EMULATOR[platform][:-3])
    for cmd in commands:
        stem = os.path.join(cache, fnv1a(cmd))
        if os.path.exists(stem + ".cmd"):
            continue
        out, err = io.StringIO(), io.StringIO()
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
        os.environ["SSH_ORIGINAL_COMMAND"] = cmd
        sys.argv = [EMULATOR[platform], state]
        try:
            status = module.main() or 0
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else 1
        finally:
            sys.stdout, sys.stderr = saved
        for kind, text in (("out", out.getvalue()), ("err", err.getvalue()), ("rc", "%d\n" % status), ("cmd", cmd)):
            with open(stem + "." + kind, "w") as f:  # .cmd last: the answer is complete
                f.write(text)
    return name


def run(*argv, **kw):
    return subprocess.run(list(argv), check=True, **kw)


class Fleet:
    """The emulated switches of one run: namespace, emulator servers, sshd."""

    def __init__(self, work, fabricctl, n):
        self.work, self.fabricctl = work, fabricctl
        self.netns = "fabbench-%d" % os.getpid()
        self.devices, self.links = fabric(n)
        self.names = sorted(self.devices)
        self.addresses = {name: address(i) for i, name in enumerate(self.names)}

    def ns(self, *argv):
        return ["ip", "netns", "exec", self.netns] + list(argv)

    def up(self):
        w = self.work
        run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "fabbench-client", "-f", os.path.join(w, "client_key"))
        run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "fabbench", "-f", os.path.join(w, "host_key"))
        self.inventory = os.path.join(w, "inventory")
        write_inventory(self.inventory, self.devices, self.links, os.path.join(w, "client_key"))
        started = time.monotonic()
        run(self.fabricctl, "render", "-i", self.inventory, "--out", os.path.join(w, "render"), stdout=subprocess.DEVNULL)
        neighbours = {name: {} for name in self.names}
        for a, pa, b, pb in self.links:
            neighbours[a][pa] = (b, pb)
            neighbours[b][pb] = (a, pa)
        jobs = [(name, d["platform"], d["ports"], neighbours[name], os.path.join(w, "switches", name, "state"),
                 os.path.join(w, "render", name, ARTIFACT[d["platform"]])) for name, d in sorted(self.devices.items())]
        with multiprocessing.Pool(os.cpu_count() or 1) as pool:
            for _ in pool.imap_unordered(load_switch, jobs, chunksize=16):
                pass
        self.load_seconds = time.monotonic() - started

        import zygote  # the emulators' command server and its C client

        client = os.path.join(w, "emu-client")
        zygote.build_client(client)
        responder = os.path.join(w, "online-responder")
        run("cc", "-O2", "-Wall", "-Werror", "-o", responder, os.path.join(HERE, "online_responder.c"))
        run("ip", "netns", "add", self.netns)
        run(*self.ns("ip", "link", "set", "lo", "up"))
        self.servers = []
        for platform in PLATFORMS:
            sock = os.path.join(w, platform + ".sock")
            log = open(os.path.join(w, platform + ".zygote.log"), "w")
            self.servers.append(subprocess.Popen(
                self.ns(sys.executable, zygote.__file__, sock, os.path.join(EMULATORS, EMULATOR[platform])),
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True))
        conf = ["ListenAddress 0.0.0.0", "Port 22", "HostKey " + os.path.join(w, "host_key"),
                "PidFile " + os.path.join(w, "sshd.pid"), "AuthorizedKeysFile " + os.path.join(w, "client_key.pub"),
                "StrictModes no", "UsePAM no", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
                "PermitRootLogin prohibit-password", "LogLevel ERROR", "SetEnv SHLVL=1",
                # Every connection a run makes at once may be unauthenticated at the same time.
                "MaxStartups 4096", "MaxSessions 64", "UseDNS no"]
        # The switch is the address the client connected to (online_responder.c): by-address/<address>/
        by_address = os.path.join(w, "by-address")
        for name in self.names:
            d = os.path.join(w, "switches", name)
            os.makedirs(os.path.join(d, "answers"))
            os.symlink(os.path.join(w, self.devices[name]["platform"] + ".sock"), os.path.join(d, "socket"))
            os.makedirs(by_address, exist_ok=True)
            os.symlink(d, os.path.join(by_address, self.addresses[name]))
        conf.append("ForceCommand %s %s %s" % (responder, by_address, client))
        with open(os.path.join(w, "sshd_config"), "w") as f:
            f.write("\n".join(conf) + "\n")
        os.makedirs("/run/sshd", exist_ok=True)
        run(*self.ns("/usr/sbin/sshd", "-r", "-f", os.path.join(w, "sshd_config"), "-E", os.path.join(w, "sshd.log")))
        deadline = time.monotonic() + 10
        while not (os.path.exists(os.path.join(w, "sshd.pid"))
                   and all(os.path.exists(os.path.join(w, p + ".sock")) for p in PLATFORMS)):
            if time.monotonic() > deadline:
                raise SystemExit("online: sshd or an emulator server did not start (see %s)" % w)
            time.sleep(0.05)
        with open(os.path.join(w, "host_key.pub")) as f:
            key = " ".join(f.read().split()[:2])
        self.known_hosts = os.path.join(w, "known_hosts")
        with open(self.known_hosts, "w") as f:
            f.writelines("%s %s\n" % (self.addresses[name], key) for name in self.names)

    def sshd_cpu(self):
        """CPU seconds of sshd and of everything it waited for (its connections, the responders)."""
        with open(os.path.join(self.work, "sshd.pid")) as f:
            pid = f.read().strip()
        with open("/proc/%s/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")

    def kind(self, name):
        return self.devices[name]["platform"], "spine" if "spine" in name else "leaf"

    def warm(self, jobs):
        """Every switch's answers kept before the timed runs: a collect of one switch of each kind asks
        their emulators through SSH (what fabricctl sends is learnt, never listed here); the other
        switches of that kind are asked the same commands in worker processes (prefill)."""
        first = {}
        for name in self.names:
            first.setdefault(self.kind(name), name)
        limits = [a for name in sorted(first.values()) for a in ("--limit", name)]
        timed(self.ns(self.fabricctl, "collect", "-i", self.inventory, "--out", os.path.join(self.work, "snaps-warm"),
                      "-j", str(jobs), "--known-hosts", self.known_hosts, "-q", *limits),
              os.path.join(self.work, "warm.collect.out"))
        kinds = self.commands()
        work = [(name, self.devices[name]["platform"], os.path.join(self.work, "switches", name, "state"),
                 os.path.join(self.work, "switches", name, "answers"), kinds[self.kind(name)]) for name in self.names]
        with multiprocessing.Pool(os.cpu_count() or 1) as pool:
            for _ in pool.imap_unordered(prefill, work, chunksize=8):
                pass

    def commands(self):
        """{(platform, role): [command...]}: what the warm-up collect sent each kind of switch, one
        command a part of a list (from the responders' kept answers of one switch of each kind)."""
        kinds = {}
        for name in self.names:
            kind = self.kind(name)
            if kind in kinds:
                continue
            cache = os.path.join(self.work, "switches", name, "answers")
            cmds = []
            for f in sorted(os.listdir(cache)):
                if f.endswith(".cmd"):
                    with open(os.path.join(cache, f)) as fh:
                        cmds.append(fh.read())
            kinds[kind] = sorted(cmds)
        return kinds

    def end_clients(self):
        """Ends the ssh clients a tool left behind (Ansible's ControlPersist masters keep a connection
        open for a minute), so that their connections end and sshd counts their CPU."""
        pids = subprocess.run(["ip", "netns", "pids", self.netns], capture_output=True, text=True).stdout.split()
        for pid in pids:
            try:
                with open("/proc/%s/comm" % pid) as f:
                    if f.read().strip() == "ssh":
                        os.kill(int(pid), signal.SIGTERM)
            except (OSError, ValueError):
                pass

    def down(self):
        if os.path.exists("/run/netns/" + self.netns):
            pids = subprocess.run(["ip", "netns", "pids", self.netns], capture_output=True, text=True).stdout.split()
            for pid in pids:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
            subprocess.run(["ip", "netns", "delete", self.netns], check=False)


def timed(argv, out, env=None, ok=(0,)):
    """(wall s, CPU s of the process and its children, peak RSS KiB) of argv, from GNU time."""
    t = out + ".time"
    with open(out, "wb") as o, open(out + ".err", "wb") as e:
        start = time.monotonic()
        p = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", t] + argv, stdout=o, stderr=e, env=env)
        wall = time.monotonic() - start
    if p.returncode not in ok:
        with open(out + ".err", errors="replace") as e:
            raise SystemExit("online: %s exited %d\n%s" % (" ".join(argv[:6]), p.returncode, e.read()[-3000:]))
    with open(t) as f:
        _, user, system, kib = f.read().split()[-4:]
    return wall, float(user) + float(system), int(kib)


def measure(fleet, label, steps):
    """Runs steps [(argv, out, env, ok)] in turn; returns a result row with the sshd CPU they caused."""
    s0 = fleet.sshd_cpu()
    wall = cpu = 0.0
    rss = 0
    for argv, out, env, ok in steps:
        w, c, r = timed(argv, out, env, ok)
        wall, cpu, rss = wall + w, cpu + c, max(rss, r)
    fleet.end_clients()
    time.sleep(0.5)  # sshd reaps its last connections: only then is their CPU its own
    return {"tool": label, "wall": wall, "cpu": cpu, "rss_kib": rss, "sshd_cpu": fleet.sshd_cpu() - s0}


def fabricctl_steps(fleet, jobs, tag):
    w, f = fleet.work, fleet.fabricctl
    snaps = os.path.join(w, "snaps-" + tag)
    common = ["-i", fleet.inventory]
    return [([f, "collect"] + common + ["--out", snaps, "-j", str(jobs), "--known-hosts", fleet.known_hosts, "-q"],
             os.path.join(w, tag + ".collect.out"), None, (0,)),
            ([f, "verify"] + common + ["--snapshots", snaps, "-o", "json", "-q"],
             os.path.join(w, tag + ".verify.out"), None, (0,))]


def go_live(fleet):
    """Every command of every switch answered by its emulator from now on (no kept answers): an apply's
    reads must see what it changed."""
    for name in fleet.names:
        d = os.path.join(fleet.work, "switches", name)
        if os.path.exists(os.path.join(d, "answers")):
            os.rename(os.path.join(d, "answers"), os.path.join(d, "answers.read"))


def inventory_for(fleet, profile):
    """The benchmark's inventory with every switch on `profile`."""
    inv = os.path.join(fleet.work, "inventory-" + profile)
    if not os.path.exists(inv):
        with open(os.path.join(fleet.inventory, "fabric.yaml")) as fh:
            doc = json.load(fh)
        doc["defaults"]["profile"] = profile
        os.makedirs(inv)
        with open(os.path.join(inv, "fabric.yaml"), "w") as fh:
            json.dump(doc, fh, indent=1)
    return inv


def reach(fleet, jobs):
    return ["-j", str(jobs), "--known-hosts", fleet.known_hosts, "-q"]


def apply_argv(fleet, jobs, inventory, *extra):
    return fleet.ns(fleet.fabricctl, "apply", "-i", inventory, "--yes", "--audit-dir", os.path.join(fleet.work, "audit"),
                    *reach(fleet, jobs), *extra)


def apply_rows(fleet, jobs):
    """`apply` of a profile change to every switch (stage, verify, confirm), against a collect of the same
    switches, both with every command answered by the emulators; then the same apply again, which must
    find nothing to do."""
    w, f = fleet.work, fleet.fabricctl
    go_live(fleet)
    changed = inventory_for(fleet, CHANGED_PROFILE)
    rows = [measure(fleet, "fabricctl collect, live", [
        (fleet.ns(f, "collect", "-i", fleet.inventory, "--out", os.path.join(w, "snaps-live"), *reach(fleet, jobs)),
         os.path.join(w, "live.collect.out"), None, (0,))])]
    rows.append(measure(fleet, "fabricctl apply", [(apply_argv(fleet, jobs, changed), os.path.join(w, "apply.out"), None, (0,))]))
    rows.append(measure(fleet, "fabricctl apply again", [(apply_argv(fleet, jobs, changed), os.path.join(w, "apply2.out"), None, (0,))]))
    with open(os.path.join(w, "apply2.out")) as fh:
        again = fh.read()
    if "Nothing to change" not in again:
        raise SystemExit("online: a second apply was not a no-op:\n" + again[-2000:])
    fleet.profile = CHANGED_PROFILE
    return rows


# The apply under faults: one switch in ten fails in each of these ways (the rest are healthy).
FAULTS = ("refuse", "hang", "drop", "die")
# Where a transport fault strikes (online_responder.c, "Faults"): an fnmatch glob over one part of a
# command, a part of each platform's stage (src/platform/<p>/apply.cpp). hang and drop strike mid-stage,
# with some of the change written; die lets the part run (the revert timer armed) and the switch is
# gone at the first read after it (verify's), on any connection, and for every connection after.
STAGE_PART = {
    "sonic": {"hang": "sudo config checkpoint *", "drop": "sudo config checkpoint *", "die": "sudo systemd-run *"},
    "eos": dict.fromkeys(("hang", "drop", "die"), "configure session * commit timer *"),
    "nvue": dict.fromkeys(("hang", "drop", "die"), "nv config apply --confirm '[0-9]*"),  # the time quoted
}


def refuse(fleet, name, platform):
    """Makes the switch refuse the change as its NOS does: an EOS switch whose chip is not the one the
    inventory states refuses the queue lines (emulators/eos_grammar.py); SONiC's config updater
    refuses the patch (its dry run too: the check before stage) and NVUE the trial apply, each with its
    NOS's error (the emulators' answers.json, in the emulators' own error format)."""
    state = os.path.join(fleet.work, "switches", name, "state")
    if platform == "eos":
        with open(os.path.join(state, "chip.txt"), "w") as f:
            f.write("jericho\n")
        return
    if platform == "sonic":
        import sonic
        e = sonic.patch_error("Given patch will produce invalid config. Error: the benchmark refuses it")
        answer = {"sudo config apply-patch *": {"stderr": "".join(l + "\n" for l in e.lines) + "Error: %s\n" % e,
                                                 "exit": 2}}
    else:
        answer = {"nv config apply --confirm *": {"stderr": "Error: the benchmark refuses this revision\n", "exit": 1}}
    with open(os.path.join(state, "answers.json"), "w") as f:
        json.dump(answer, f)


def heal(fleet, name, platform):
    """A failed switch back in service: a dead one's revert timer fires (the switch's own, as at its
    deadline: emulators/common.py's fire hook), then every fault is taken away."""
    d = os.path.join(fleet.work, "switches", name)
    if os.path.exists(os.path.join(d, "dies-after")):
        run(sys.executable, os.path.join(EMULATORS, EMULATOR[platform]), os.path.join(d, "state"), "--fire-timers",
            stdout=subprocess.DEVNULL)
    for f in ("fault", "spent", "dies-after", "dead", "state/answers.json"):
        if os.path.exists(os.path.join(d, f)):
            os.remove(os.path.join(d, f))
    if platform == "eos":
        with open(os.path.join(d, "state", "chip.txt"), "w") as f:
            f.write("tomahawk\n")


def changing(fleet, jobs, inventory, out):
    """The switches a live `plan` says would change."""
    p = subprocess.run(fleet.ns(fleet.fabricctl, "plan", "-i", inventory, "-o", "json", *reach(fleet, jobs)),
                       capture_output=True, text=True)
    if p.returncode not in (0, 3):
        raise SystemExit("online: plan exited %d\n%s" % (p.returncode, p.stderr[-2000:]))
    with open(out, "w") as f:
        f.write(p.stdout)
    doc = json.loads(p.stdout)
    failed = [d["device"] + ": " + d["error"] for d in doc["devices"] if d["status"] == "failed"]
    if failed:
        raise SystemExit("online: plan could not read %d switches: %s" % (len(failed), failed[0]))
    return {d["device"] for d in doc["devices"] if d["status"] == "change"}


def faults_rows(fleet, jobs):
    """A 200-switch apply with one switch in ten failing in each way (FAULTS). Asserted: exit 3, every
    healthy switch applied, every failing one failed with its reason named, and afterwards (the faults
    taken away, a dead switch's timer fired) every failing switch back on its previous configuration and
    every healthy one converged; an apply of the healthy ones is then a no-op, and one of all of them
    converges the rest."""
    w = fleet.work
    go_live(fleet)
    before = getattr(fleet, "profile", "roce-lossless")
    target = inventory_for(fleet, "roce-lossless" if before == CHANGED_PROFILE else CHANGED_PROFILE)
    previous = inventory_for(fleet, before)
    fault = {}
    for i, name in enumerate(fleet.names):
        if i % 10 < len(FAULTS):
            fault[name] = FAULTS[i % 10]
    for name, mode in fault.items():
        platform = fleet.devices[name]["platform"]
        if mode == "refuse":
            refuse(fleet, name, platform)
        else:
            with open(os.path.join(w, "switches", name, "fault"), "w") as f:
                f.write("%s %s\n" % (mode, STAGE_PART[platform][mode]))
    out = os.path.join(w, "faults.apply.out")
    # The command timeout ends a hung command. The revert timers keep their default (300 s): 200 stages
    # at -j 32 take longer than a minute, and a shorter window would revert healthy switches before verify.
    row = measure(fleet, "fabricctl apply, faults", [
        (apply_argv(fleet, jobs, target, "-o", "json", "--command-timeout", "20"),
         out, None, (3,))])
    with open(out) as f:
        outcomes = {d["device"]: d for d in json.load(f)["devices"]}
    wrong = []
    for name in fleet.names:
        d = outcomes.get(name, {"outcome": "absent", "reason": ""})
        if name in fault and (d["outcome"] not in ("failed", "unreachable") or not d["reason"]):
            wrong.append("%s (%s): %s" % (name, fault[name], d["outcome"]))
        if name not in fault and d["outcome"] != "applied":
            wrong.append("%s (healthy): %s %s" % (name, d["outcome"], d["reason"]))
    if wrong:
        raise SystemExit("online: apply under faults: %d switches ended wrong: %s" % (len(wrong), "; ".join(wrong[:5])))
    row["reasons"] = {mode: sorted({outcomes[n]["reason"] for n in fault if fault[n] == mode})[:2] for mode in FAULTS}
    for name in fleet.names:
        heal(fleet, name, fleet.devices[name]["platform"])
    left = changing(fleet, jobs, target, os.path.join(w, "faults.plan-target.json"))
    if left != set(fault):
        raise SystemExit("online: after the faulted apply, the switches left to change are not the failed ones: "
                         "%d of them, %d not failed, %d failed ones converged" %
                         (len(left), len(left - set(fault)), len(set(fault) - left)))
    moved = changing(fleet, jobs, previous, os.path.join(w, "faults.plan-previous.json")) & set(fault)
    if moved:
        raise SystemExit("online: failed switches not back on their previous configuration: " + ", ".join(sorted(moved)[:5]))
    healthy = [a for n in fleet.names if n not in fault for a in ("--limit", n)]
    noop = os.path.join(w, "faults.apply-healthy.out")
    timed(apply_argv(fleet, jobs, target, *healthy), noop)
    with open(noop) as f:
        if "Nothing to change" not in f.read():
            raise SystemExit("online: an apply of the healthy switches after the faulted one was not a no-op")
    rows = [row, measure(fleet, "fabricctl apply, the rest", [(apply_argv(fleet, jobs, target), os.path.join(w, "faults.rest.out"), None, (0,))])]
    if changing(fleet, jobs, target, os.path.join(w, "faults.plan-end.json")):
        raise SystemExit("online: switches still to change after the faults were gone and the rest applied")
    fleet.profile = "roce-lossless" if before == CHANGED_PROFILE else CHANGED_PROFILE
    return rows


def ssh_args(fleet):
    return ["-i", os.path.join(fleet.work, "client_key"), "-o", "UserKnownHostsFile=" + fleet.known_hosts,
            "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes", "-o", "ConnectTimeout=30"]


def pdsh_steps(fleet, jobs):
    """One pdsh fan-out per command and kind of switch: each its own SSH connection to every switch of
    that kind (pdsh's ssh module: a process per connection)."""
    w = fleet.work
    env = dict(os.environ, PDSH_SSH_ARGS=" ".join(["-x", "-l%u", "%h"] + ssh_args(fleet)), PDSH_RCMD_TYPE="ssh")
    steps = []
    for (platform, role), cmds in sorted(fleet.commands().items()):
        hosts = os.path.join(w, "pdsh-%s-%s.hosts" % (platform, role))
        with open(hosts, "w") as f:
            f.writelines(fleet.addresses[n] + "\n" for n in fleet.names
                         if fleet.devices[n]["platform"] == platform and (("spine" in n) == (role == "spine")))
        for i, cmd in enumerate(cmds):
            steps.append((fleet.ns("pdsh", "-R", "ssh", "-l", "root", "-f", str(jobs), "-w", "^" + hosts, cmd),
                          os.path.join(w, "pdsh-%s-%s-%d.out" % (platform, role, i)), env, (0, 1)))
    return steps


# The playbook's filter: {port: MTU} from each platform's output of MTU_COMMAND.
PORT_MTUS = """import json


def port_mtus(out, platform):
    d = out if isinstance(out, dict) else json.loads(out)  # Ansible may have read the JSON already
    if platform == "sonic":
        return {p: int(v.get("mtu", 9100)) for p, v in d["PORT"].items()}
    if platform == "eos":
        return {p: int(v["mtu"]) for p, v in d["interfaces"].items()}
    return {p: int(v["link"]["mtu"]) for p, v in d.items() if v.get("type") == "swp"}


class FilterModule:
    def filters(self):
        return {"port_mtus": port_mtus}
"""
MTU_COMMAND = {"sonic": "show runningconfiguration all", "eos": "show interfaces | json", "nvue": "nv show interface -o json"}


def ansible_steps(fleet, jobs):
    """A playbook as a network team would write it with ansible-core alone: the raw module runs the same
    show commands on every switch (gather_facts off), then a play on the controller asserts that both
    ends of every link have the same MTU."""
    w = fleet.work
    kinds = fleet.commands()
    inv = os.path.join(w, "ansible-hosts.yaml")
    hosts = {n: {"ansible_host": fleet.addresses[n], "platform": fleet.devices[n]["platform"],
                 "commands": kinds[(fleet.devices[n]["platform"], "spine" if "spine" in n else "leaf")]}
             for n in fleet.names}
    with open(inv, "w") as f:
        json.dump({"all": {"hosts": hosts, "vars": {
            "ansible_user": "root", "ansible_ssh_private_key_file": os.path.join(w, "client_key"),
            "ansible_ssh_common_args": " ".join(ssh_args(fleet)[2:]), "ansible_python_interpreter": "/usr/bin/python3"}}}, f)
    links = [{"a": a, "pa": pa, "b": b, "pb": pb} for a, pa, b, pb in fleet.links]
    play = [
        {"name": "collect", "hosts": "all", "gather_facts": False, "tasks": [
            {"name": "show", "raw": "{{ item }}", "loop": "{{ commands }}", "register": "shows", "changed_when": False,
             # a command this release lacks fails, as fabricctl reads it as no counters
             "failed_when": False},
            {"name": "mtu", "set_fact": {"mtu": "{{ out | port_mtus(platform) }}"},
             "vars": {"out": "{{ (shows.results | selectattr('item', 'equalto', mtu_command[platform]) | first).stdout }}"}}]},
        {"name": "links", "hosts": "localhost", "gather_facts": False, "tasks": [
            {"name": "mtu equal on both ends", "assert": {
                "that": "hostvars[item.a].mtu[item.pa] == hostvars[item.b].mtu[item.pb]", "quiet": True},
             "loop": links}]},
    ]
    with open(os.path.join(w, "playbook.yaml"), "w") as f:
        json.dump(play, f)
    plugins = os.path.join(w, "filter_plugins")
    os.makedirs(plugins, exist_ok=True)
    with open(os.path.join(plugins, "mtu.py"), "w") as f:
        f.write(PORT_MTUS)
    env = dict(os.environ, ANSIBLE_FORKS=str(jobs), ANSIBLE_HOST_KEY_CHECKING="True", ANSIBLE_NOCOLOR="1",
               ANSIBLE_FILTER_PLUGINS=plugins, ANSIBLE_LOCAL_TEMP=os.path.join(w, "ansible-tmp"),
               ANSIBLE_RETRY_FILES_ENABLED="0", ANSIBLE_DISPLAY_SKIPPED_HOSTS="0",
               ANSIBLE_SSH_CONTROL_PATH_DIR=os.path.join(w, "cp"))
    extra = json.dumps({"mtu_command": MTU_COMMAND})
    return [(fleet.ns("ansible-playbook", "-i", inv, "-e", extra, os.path.join(w, "playbook.yaml")),
             os.path.join(w, "ansible.out"), env, (0,))]


def report(fleet, rows):
    print("online: %d switches (%d links): states loaded in %.1f s, answers kept in %.1f s (not timed)" %
          (len(fleet.names), len(fleet.links), fleet.load_seconds, fleet.warm_seconds))
    print("  %-26s %8s %8s %10s %10s %10s" % ("tool", "wall s", "CPU s", "CPU ms/dev", "peak RSS", "sshd CPU s"))
    for r in rows:
        rss = "%.1f MiB" % (r["rss_kib"] / 1024) if r["tool"].startswith("fabricctl") else "-"
        print("  %-26s %8.2f %8.2f %10.2f %10s %10.2f" % (r["tool"], r["wall"], r["cpu"], 1000 * r["cpu"] / len(fleet.names),
                                                         rss, r["sshd_cpu"]))
    for r in rows:
        for mode, reasons in sorted(r.get("reasons", {}).items()):
            for reason in reasons:
                print("  %-8s %s" % (mode, reason[:150]))
    by = {r["tool"]: r for r in rows}
    f = by.get("fabricctl collect+verify")
    if f and "pdsh" in by:
        print("  fabricctl/pdsh wall: %.2f" % (f["wall"] / by["pdsh"]["wall"]))
    if f and "ansible" in by:
        print("  ansible/fabricctl wall: %.1f" % (by["ansible"]["wall"] / f["wall"]))
    if "fabricctl apply" in by:
        live = by["fabricctl collect, live"]
        print("  apply/collect wall: %.1f (the same collect from kept answers: %s)" %
              (by["fabricctl apply"]["wall"] / live["wall"],
               "%.1f" % (by["fabricctl apply"]["wall"] / f["wall"]) if f else "not run"))
    sys.stdout.flush()


def bench(build, n, jobs, tools, keep):
    fabricctl = os.path.join(os.path.abspath(build), "fabricctl")
    work = tempfile.mkdtemp(prefix="fabbench-")
    fleet = Fleet(work, fabricctl, n)
    try:
        fleet.up()
        started = time.monotonic()
        fleet.warm(jobs)
        fleet.warm_seconds = time.monotonic() - started
        rows = []
        if "fabricctl" in tools:
            steps = [(fleet.ns(*a), o, e, k) for a, o, e, k in fabricctl_steps(fleet, jobs, "timed")]
            rows.append(measure(fleet, "fabricctl collect+verify", steps))
        if "pdsh" in tools:
            if not shutil.which("pdsh"):
                raise SystemExit("online: pdsh is not installed (scripts/install-deps)")
            steps = pdsh_steps(fleet, jobs)
            rows.append(measure(fleet, "pdsh", steps))
            for _, out, _, _ in steps:  # pdsh exits 0 when an ssh fails: its message says so
                with open(out + ".err", errors="replace") as f:
                    lost = [line for line in f if "exit code 255" in line]
                if lost:
                    raise SystemExit("online: pdsh lost switches (%s): %s" % (out, lost[0].strip()))
        if "ansible" in tools:
            rows.append(measure(fleet, "ansible", ansible_steps(fleet, jobs)))
        if "apply" in tools:
            rows += apply_rows(fleet, jobs)
        if "faults" in tools:
            rows += faults_rows(fleet, jobs)
        report(fleet, rows)
        return fleet, rows
    finally:
        fleet.down()
        if keep:
            shutil.copytree(work, os.path.join(keep, "n%d" % n), dirs_exist_ok=True, symlinks=True,
                            ignore=shutil.ignore_patterns("*.sock", "cp"))
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build")
    ap.add_argument("sizes", nargs="*", type=int)
    ap.add_argument("--jobs", "-j", type=int, default=32)
    ap.add_argument("--tools", default="fabricctl,pdsh,ansible")
    ap.add_argument("--keep")
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("online: needs root (a network namespace of its own)")
    tools = a.tools.split(",")
    for n in a.sizes or [200]:
        bench(a.build, n, a.jobs, tools, a.keep)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""The NVUE emulator (nvue.py) against what NVIDIA documents, run by tests/cli/emulator_nvue.sh:
  - REFUSED: commands NVUE refuses, each with the release it is refused on and its source; the emulator
    must refuse each (exit 1, an "Error:" line) and leave the configuration as it was;
  - ACCEPTED: their counterparts, which it must accept;
  - both generations of `qos roce` (5.14 `enable on|off`, 5.15 `state enabled|disabled`);
  - range keys: kept unexpanded by 5.15's `nv config show`, expanded by `--expand`;
  - what `nv config apply` validates of a whole revision.
  --replay SHARED: the real NVUE outputs in SHARED/reference/outputs/nvue against the emulator's answers
  (the shapes of `nv show interface -o json`; `nv show interface swp1 qos pfc-watchdog` line by line).
Sources are CumulusNetworks/docs pages, published under https://docs.nvidia.com/networking-ethernet-software/
(nvue_refusals.py names them: CLI, QOS, ROCE, CHANGED, REF-QOS)."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EMULATOR = os.path.join(HERE, "nvue.py")

# (release, command, what the error says, source). Each is refused with exit status 1.
REFUSED = [
    ("5.15.0", "nv set qos roce enable on", "Invalid command",
     "CHANGED (cumulus-linux-515/Whats-New/New-and-Changed-NVUE-Commands.md): enable on|off became state in 5.15"),
    ("5.14.0", "nv set qos roce state enabled", "Invalid command",
     "CHANGED: `nv set qos roce state enabled|disabled` is the 5.15 and later form"),
    ("5.15.0", "nv set qos roce state on", "Invalid value 'on'", "CHANGED: state takes enabled|disabled"),
    ("5.14.0", "nv set qos roce enable yes", "Invalid value 'yes'", "CHANGED: enable takes on|off"),
    ("5.15.0", "nv unset qos roce enable", "Invalid command", "CHANGED: no `enable` under qos roce in 5.15"),
    ("5.15.0", "nv set interface swp1 qos pfc-watchdog state on", "Invalid value 'on'",
     "REF-QOS (nvue-reference/Set-and-Unset-Commands/QoS.md): pfc-watchdog state enable|disable"),
    ("5.15.0", "nv set interface bond1 qos pfc-watchdog", "Invalid command",
     "REF-QOS: the watchdog is enabled on physical swp interfaces only, not on a bond"),
    ("5.14.0", "nv config show --expand -o json", "Invalid option",
     "cumulus-linux-515/Whats-New/_index.md: `--expand` for nv config show is new in 5.15"),
    ("5.15.0", "nv set interface swp1 link mtu 9217", "Invalid value '9217'",
     "CLI (NVUE-CLI.md): `nv set interface swp1 link mtu ?` integer 552 - 9216"),
    ("5.15.0", "nv set interface swp3-1 link mtu 9000", "not a range",
     "CLI: ranges name swp1-4 style runs of ports (a range that runs backwards names none)"),
    ("5.15.0", "nv config apply --confirm 300s", "Invalid value '300s'",
     "CLI: --confirm <time> is documented in minutes (`--confirm 60m`; a bare 60 is one hour); other units "
     "are refused here (UNCONFIRMED whether NVUE takes them)"),
]
ACCEPTED = [
    ("5.15.0", "nv set qos roce state disabled"),
    ("5.14.0", "nv set qos roce enable off"),
    ("5.15.0", "nv set interface swp1 qos pfc-watchdog state disable"),
    ("5.14.0", "nv set interface swp1 qos pfc-watchdog state enable"),
    ("5.15.0", "nv unset interface swp9 qos pfc-watchdog"),  # absent: a no-op (UNCONFIRMED)
    ("5.15.0", "nv config show --expand -o json"),
]


class Switch:
    def __init__(self, release):
        self.dir = tempfile.TemporaryDirectory()
        self.state = self.dir.name
        with open(os.path.join(self.state, "ports.json"), "w") as f:
            json.dump({"swp1": {"speed": "400G", "oper": "up"}, "swp2": {"speed": "400G"}}, f)
        with open(os.path.join(self.state, "version.json"), "w") as f:
            json.dump({"release": release}, f)
        subprocess.run([sys.executable, EMULATOR, self.state, "--factory"], check=True)

    def nv(self, command):
        env = dict(os.environ, SSH_ORIGINAL_COMMAND=command, PYTHONDONTWRITEBYTECODE="1")
        p = subprocess.run([sys.executable, EMULATOR, self.state], env=env, capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    def ok(self, command):
        rc, out, err = self.nv(command)
        assert rc == 0, "%s: exit %d: %s" % (command, rc, err)
        return out

    def config(self, expand=False):
        return json.loads(self.ok("nv config show%s -o json" % (" --expand" if expand else "")))[1]["set"]

    def file(self, name):
        with open(os.path.join(self.state, name)) as f:
            return f.read()


def refused():
    for release, command, says, source in REFUSED:
        sw = Switch(release)
        before = sw.file("config.json")
        rc, _out, err = sw.nv(command)
        assert rc == 1 and err.startswith("Error: ") and says in err, \
            "%s on %s: want refused (%s; %s), got exit %d: %s" % (command, release, says, source, rc, err)
        assert sw.file("config.json") == before, command
    for release, command in ACCEPTED:
        Switch(release).ok(command)


def generations():
    for release, on, off in (("5.14.0", "enable on", "enable off"), ("5.15.0", "state enabled", "state disabled")):
        sw = Switch(release)
        sw.ok("nv set qos roce " + off)
        sw.ok("nv set qos roce mode lossless")
        sw.ok("nv config apply --assume-yes")
        key, value = off.split()
        assert sw.config()["qos"]["roce"] == {key: value, "mode": "lossless"}, sw.config()
        header = json.loads(sw.ok("nv config show -o json"))[0]["header"]
        assert header["version"] == "Cumulus Linux " + release, header


def ranges():
    sw = Switch("5.15.0")
    sw.ok("nv set interface swp1-2 link mtu 9000")
    sw.ok("nv set interface swp2 link mtu 1500")
    sw.ok("nv config apply -y")
    assert sorted(sw.config()["interface"]) == ["swp1-2", "swp2"], sw.config()
    expanded = sw.config(expand=True)["interface"]
    assert sorted(expanded) == ["swp1", "swp2"], expanded
    assert expanded["swp1"]["link"]["mtu"] == 9000 and expanded["swp2"]["link"]["mtu"] == 1500, expanded
    mtus = {n: v["link"]["mtu"] for n, v in json.loads(sw.ok("nv show interface -o json")).items() if n != "eth0"}
    assert mtus == {"swp1": 9000, "swp2": 1500}, mtus
    old = Switch("5.14.0")
    old.ok("nv set interface swp1-2 link mtu 9000")
    old.ok("nv config apply -y")
    assert sorted(old.config()["interface"]) == ["swp1", "swp2"], old.config()


def apply_validation():
    # REF-QOS: "You can only configure PFC watchdog on a port with PFC (or link pause) configuration".
    sw = Switch("5.15.0")
    before = sw.file("config.json")
    sw.ok("nv set interface swp1 qos pfc-watchdog state enable")
    rc, _out, err = sw.nv("nv config apply -y")
    assert rc == 1 and "PFC watchdog can only be configured on a port with PFC" in err, err
    assert sw.file("config.json") == before
    sw.ok("nv set qos roce state enabled")  # RoCE lossless: PFC on switch priority 3
    sw.ok("nv config apply -y")
    sw.ok("nv set qos roce state disabled")  # PFC gone, the watchdog stays: refused again
    rc, _out, err = sw.nv("nv config apply -y")
    assert rc == 1 and "PFC watchdog" in err, err


def replay(shared):
    """The emulator's `nv show interface -o json` in the shape of NVIDIA's REST example of the same
    collection (nvue-api_get-interface-filter-type-svi.json): each record's `link` fields that both
    print have the same JSON types, `type` is a string, and link.stats has NVIDIA's keys and integers."""
    outputs = os.path.join(shared, "reference", "outputs", "nvue")
    with open(os.path.join(outputs, "nvue-api_get-interface-filter-type-svi.json")) as f:
        real = json.load(f)
    sw = Switch("5.15.0")
    mine = json.loads(sw.ok("nv show interface -o json"))
    real_link = next(iter(real.values()))["link"]
    checked = 0
    for name, entry in mine.items():
        assert isinstance(entry.get("type"), str), (name, entry)
        for key, value in entry["link"].items():
            if key in real_link:
                assert type(value) is type(real_link[key]), (name, key, value, real_link[key])
                checked += 1
    assert checked >= 4, checked
    # link.stats: the keys NVIDIA's examples have (the collection's and one port's), integers all.
    with open(os.path.join(outputs, "nvue-api_get-interface-swp1-link-stats.json")) as f:
        port_stats = json.load(f)
    assert all(isinstance(v, int) for v in port_stats.values())
    known = set(real_link["stats"]) | set(port_stats)
    for name, entry in mine.items():
        stats = entry["link"]["stats"]
        assert set(stats) <= known and all(type(v) is int for v in stats.values()), (name, stats, known)

    # `nv show interface swp1 qos pfc-watchdog` (NVIDIA's example, from the QoS page) on a switch set up
    # as that one: RoCE lossless, the watchdog on swp1. The same lines, word for word, but the counts:
    # the emulator has no storms, so every class is OK with no deadlocks.
    with open(os.path.join(outputs, "nv-show-interface-swp1-qos-pfc-watchdog.txt")) as f:
        real = f.read().split("\n")
    sw.ok("nv set qos roce state enabled")
    sw.ok("nv set interface swp1 qos pfc-watchdog state enable")
    sw.ok("nv config apply -y")
    mine = sw.ok("nv show interface swp1 qos pfc-watchdog").split("\n")
    assert len(mine) == len(real), (len(mine), len(real), mine)
    for got, want in zip(mine, real):
        if want.startswith("    ") and want.split() and want.split()[0].isdigit():
            w, g = want.split(), got.split()
            assert g[0] == w[0] and g[1] in ("OK", "DEADLOCK") and g[2].isdigit() and len(g) == 3, (got, want)
            assert got.index(g[1]) == want.index(w[1]) and got.index(g[2], got.index(g[1]) + len(g[1])) == \
                want.index(w[2], want.index(w[1]) + len(w[1])), ("columns", got, want)
        else:
            assert got == want, (got, want)

    # `nv show interface swp1 counters qos` (NVIDIA's example): with every count 0, the example's lines
    # byte for byte (trailing spaces and all) up to its closing elision ("... "), whose last row NVIDIA's
    # page prints without its padding.
    with open(os.path.join(outputs, "nv-show-interface-swp1-counters-qos.txt")) as f:
        real = f.read().split("\n")
    mine = sw.ok("nv show interface swp1 counters qos").split("\n")
    assert real[-2] == "... " and mine[-1] == "", (real[-2:], mine[-1:])
    assert mine[:len(real) - 3] == real[:-3], [(g, w) for g, w in zip(mine, real) if g != w][:3]
    assert mine[len(real) - 3].rstrip() == real[-3], (mine[len(real) - 3], real[-3])


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--replay":
        replay(sys.argv[2])
    else:
        refused()
        generations()
        ranges()
        apply_validation()
    print("ok")

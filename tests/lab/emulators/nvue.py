#!/usr/bin/python3
"""An NVIDIA Cumulus Linux switch's NVUE CLI, as much of it as fabricctl uses, behind a real sshd
(ForceCommand): each SSH command runs this once with the command in SSH_ORIGINAL_COMMAND, answers in the
shapes NVUE prints (shared/reference/outputs/nvue; src/platform/nvue/config_reader.h says which parts of
the shapes are documented and which assumed), and exits. Unknown commands are refused with an error and
exit status 1 (the wording is this emulator's: NVIDIA documents none).

The switch's state is a directory (argument 1):
  config.json    its applied configuration, the tree `nv config show` prints (paths are `nv set` words)
  pending.json   `nv set` / `nv unset` lines not yet applied
  ports.json     what the configuration does not hold: {"swp1": {"speed": "400G", "oper": "up",
                 "lldp": ["host1", "ens1f0np0"]}}
  answers.json   for tests, answers that replace the emulator's own: {"nv show interface -o json":
                 {"stdout": "...", "stderr": "...", "exit": 1}}

  nvue.py STATE              answer $SSH_ORIGINAL_COMMAND: nv config show -o json, nv show interface
                             -o json, nv show interface --view=lldp, nv set ..., nv unset ...,
                             nv config apply [-y] [--confirm T] [-m M]
  nvue.py STATE --load FILE  apply the nv set/unset lines of FILE (a rendered commands.nvue)
"""
import json
import os
import re
import sys

import lab_ports
from common import answered, load, natural

# Paths whose last word is a key set without a value (a PFC switch priority, a port's watchdog).
PRESENCE = re.compile(r"qos pfc \S+ switch-priority \d|interface \S+ qos pfc-watchdog")


def save(state, name, value):
    with open(os.path.join(state, name), "w") as f:
        json.dump(value, f, indent=2)


def expanded(words):
    """Each comma list of the words stands for each of its members."""
    paths = [[]]
    for w in words:
        paths = [p + [m] for p in paths for m in w.split(",")]
    return paths


def apply_line(tree, line):
    """One `nv set PATH [VALUE]` or `nv unset PATH` on the tree; False if it is neither."""
    words = line.split()
    if len(words) < 3 or words[0] != "nv" or words[1] not in ("set", "unset"):
        return False
    for path in expanded(words[2:]):
        if words[1] == "set":
            value = {}
            if not PRESENCE.fullmatch(" ".join(path)):
                leaf = path.pop()
                value = int(leaf) if leaf.isdigit() else leaf
            node = tree
            for w in path[:-1]:
                node = node.setdefault(w, {})
            node[path[-1]] = value
            if path[0] == "interface" and len(path) > 2:
                tree["interface"][path[1]]["type"] = "swp"
        else:
            node = tree
            for w in path[:-1]:
                node = node.get(w) if isinstance(node, dict) else None
                if node is None:
                    break
            if isinstance(node, dict):
                node.pop(path[-1], None)
    return True


def lldp_view(ports):
    """`nv show interface lldp` as NVIDIA's reference prints it: left-aligned, padded columns."""
    header = ["Interface", "Speed", "Type", "Remote Host", "Remote Port"]
    rows = [[n, p.get("speed", ""), "swp", p["lldp"][0], p["lldp"][1]] for n, p in sorted(ports.items(), key=lambda i: natural(i[0]))
            if p.get("lldp")]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
    line = lambda cells: "  ".join(c.ljust(widths[i]) for i, c in enumerate(cells))
    return "\n".join([line(header), "  ".join("-" * w for w in widths)] + [line(r) for r in rows]) + "\n"


def interfaces(config, ports):
    out = {"eth0": {"type": "eth", "link": {"admin-status": "up", "oper-status": "up", "speed": "1G", "mtu": 1500}}}
    names = set(ports) | {n for n, v in config.get("interface", {}).items() if isinstance(v, dict) and v.get("type") == "swp"}
    for name in sorted(names, key=natural):
        p = ports.get(name, {})
        mtu = config.get("interface", {}).get(name, {}).get("link", {}).get("mtu", 9216)
        link = {"admin-status": "up", "oper-status": p.get("oper", "down"), "mtu": mtu}
        if "speed" in p:
            link["speed"] = p["speed"]
        out[name] = {"type": "swp", "link": link}
    return out


def apply_mtu(state, config):
    """The applied link MTUs on the lab's real netdevs."""
    lab_ports.set_mtu(state, {n: i.get("link", {}).get("mtu", 9216) for n, i in config.get("interface", {}).items()})


def main():
    state = sys.argv[1]
    config = load(state, "config.json", {})
    if len(sys.argv) == 4 and sys.argv[2] == "--load":
        with open(sys.argv[3]) as f:
            for line in f:
                if line.strip() and not line.startswith("#") and not apply_line(config, line):
                    sys.exit("not an nv set or unset line: " + line.strip())
        save(state, "config.json", config)
        apply_mtu(state, config)
        return 0
    command = " ".join(os.environ.get("SSH_ORIGINAL_COMMAND", "").split())
    status = answered(state, command)
    if status is not None:
        return status
    ports = lab_ports.load(state)
    if command == "nv config show -o json":
        header = {"model": "SN5600", "nvue-api-version": "nvue_v1", "rev-id": 1.0, "version": "Cumulus Linux 5.14.0"}
        sys.stdout.write(json.dumps([{"header": header}, {"set": config}], indent=2) + "\n")
    elif command == "nv show interface -o json":
        sys.stdout.write(json.dumps(interfaces(config, ports), indent=2) + "\n")
    elif command == "nv show interface --view=lldp":
        sys.stdout.write(lldp_view(ports))
    elif command.startswith(("nv set ", "nv unset ")) and len(command.split()) >= 3:
        save(state, "pending.json", load(state, "pending.json", []) + [command])
    elif re.fullmatch(r"nv config apply( -y| --assume-yes| --confirm \S+| -m \S+)*", command):
        for line in load(state, "pending.json", []):
            apply_line(config, line)
        save(state, "config.json", config)
        save(state, "pending.json", [])
        apply_mtu(state, config)
        sys.stdout.write("applied\n")
    else:
        sys.stderr.write("Error: Invalid command: %s\n" % command)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

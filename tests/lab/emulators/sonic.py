#!/usr/bin/python3
"""A SONiC switch's CLI, as much of it as fabricctl reads, behind a real sshd (ForceCommand): each SSH
command runs this once with the command in SSH_ORIGINAL_COMMAND, answers in the shapes sonic-utilities
prints (shared/reference/outputs/sonic, docs/lab.md), and exits. Unknown commands are refused the way
click does (`Error: No such command "x".`, exit 2).

The switch's state is a directory (argument 1):
  config_db.json   its running CONFIG_DB (a rendered config_db.json loads as `config load` would:
                   its null entries delete, and are not kept)
  ports.json       what CONFIG_DB does not hold: {"Ethernet0": {"speed": "400G", "oper": "up",
                   "lldp": ["host1", "ens1f0np0"]}}
  answers.json     for tests, answers that replace the emulator's own: {"show lldp table":
                   {"stdout": "...", "stderr": "...", "exit": 1}}

  sonic.py STATE              answer $SSH_ORIGINAL_COMMAND
  sonic.py STATE --load FILE  `config load FILE -y`: merge a config_db.json into CONFIG_DB
"""
import json
import os
import sys

import lab_ports
from common import answered, load, natural


def table(header, rows):
    """python-tabulate's "simple" format, as sonic-utilities prints it: right-aligned cells."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    line = lambda cells: "  ".join(c.rjust(widths[i]) for i, c in enumerate(cells))
    return "\n".join([line(header), "  ".join("-" * w for w in widths)] + [line(r) for r in rows]) + "\n"


def merge(db, update):
    for table_name, entries in update.items():
        if entries is None:
            db.pop(table_name, None)
            continue
        t = db.setdefault(table_name, {})
        for key, fields in entries.items():
            if fields is None:
                t.pop(key, None)
            else:
                t.setdefault(key, {}).update(fields)


def main():
    state = sys.argv[1]
    db = load(state, "config_db.json", {})
    ports = lab_ports.load(state)
    if len(sys.argv) == 4 and sys.argv[2] == "--load":
        with open(sys.argv[3]) as f:
            merge(db, json.load(f))
        with open(os.path.join(state, "config_db.json"), "w") as f:
            json.dump(db, f, indent=4, sort_keys=True)
        lab_ports.set_mtu(state, {n: p.get("mtu", "9100") for n, p in db.get("PORT", {}).items()})
        return 0
    command = " ".join(os.environ.get("SSH_ORIGINAL_COMMAND", "").split())
    status = answered(state, command)
    if status is not None:
        return status
    if command == "show runningconfiguration all":
        sys.stdout.write(json.dumps(db, indent=4, sort_keys=True) + "\n")
    elif command == "show interfaces status":
        rows = []
        for name in sorted(db.get("PORT", {}), key=natural):
            p = ports.get(name, {})
            mtu = db["PORT"][name].get("mtu", "9100")
            rows.append([name, "0", p.get("speed", "N/A"), mtu, "N/A", name.replace("Ethernet", "etp"), "routed",
                         p.get("oper", "down"), "up", "N/A", "off"])
        sys.stdout.write(table(["Interface", "Lanes", "Speed", "MTU", "FEC", "Alias", "Vlan", "Oper", "Admin", "Type",
                                "Asym PFC"], rows))
    elif command == "show lldp table":
        rows = [[n, p["lldp"][0], p["lldp"][1], "BR", ""] for n, p in sorted(ports.items(), key=lambda i: natural(i[0]))
                if p.get("lldp")]
        sys.stdout.write("Capability codes: (R) Router, (B) Bridge, (O) Other\n")
        sys.stdout.write(table(["LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr"], rows))
        sys.stdout.write("-" * 50 + "\nTotal entries displayed:  %d\n" % len(rows))
    elif command.startswith("config interface pfc priority "):
        # sonic-utilities: `config interface pfc priority <interface> <0-7> <on|off>` edits the port's
        # PORT_QOS_MAP pfc_enable list.
        words = command.split(" ")
        if len(words) != 7 or words[4] not in db.get("PORT", {}) or words[5] not in "01234567" or \
                len(words[5]) != 1 or words[6] not in ("on", "off"):
            sys.stderr.write("Usage: config interface pfc priority [OPTIONS] <interface_name> <priority> <on|off>\n")
            return 2
        entry = db.setdefault("PORT_QOS_MAP", {}).setdefault(words[4], {})
        prios = {p for p in entry.get("pfc_enable", "").split(",") if p}
        prios = prios | {words[5]} if words[6] == "on" else prios - {words[5]}
        entry["pfc_enable"] = ",".join(sorted(prios))
        with open(os.path.join(state, "config_db.json"), "w") as f:
            json.dump(db, f, indent=4, sort_keys=True)
    else:
        word = command.split(" ")[1] if command.startswith("show ") and " " in command else command
        sys.stderr.write('Usage: show [OPTIONS] COMMAND [ARGS]...\nTry "show -h" for help.\n\n'
                         'Error: No such command "%s".\n' % word)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""An Arista EOS switch's CLI, as much of it as fabricctl reads, behind a real sshd (ForceCommand): each
SSH command runs this once with the command in SSH_ORIGINAL_COMMAND, answers in the shapes EOS prints
(shared/reference/outputs/eos), and exits. Unknown commands are refused the way EOS does
(`% Invalid input`, exit 1).

The switch's state is a directory (argument 1):
  config.json     its running configuration as data (written by --load)
  preamble.txt    for tests: lines printed at the top of the running-config (usernames, secrets, ...)
  ports.json      what the configuration does not hold: {"Ethernet1": {"speed": 400000, "oper": "up",
                  "lldp": ["leaf2", "Ethernet1"]}} (speed in Mb/s)
  answers.json    for tests, answers that replace the emulator's own: {"show lldp neighbors | json":
                  {"stdout": "...", "stderr": "...", "exit": 1}}

  eos.py STATE              answer $SSH_ORIGINAL_COMMAND
  eos.py STATE --load FILE  `configure session` + FILE's lines + `commit`: merge a session.cfg (a line sets
                            its setting, its `no` form puts back EOS's default)

`show running-config` prints what differs from EOS's defaults only, in EOS's layout (the defaults are the
ones src/platform/eos/running_config.cpp assumes: DSCP d -> traffic-class of COS d/8 with COS 0 -> 1 and
1 -> 0; traffic-class n -> queue n; queues strict; PFC off; a port's watchdog on; trust COS).
"""
import json
import os
import re
import sys

import lab_ports
from common import answered, load, natural


def default_tc(dscp):
    cos = dscp // 8
    return {0: 1, 1: 0}.get(cos, cos)


class Invalid(Exception):
    pass


def new_interface():
    return {"mtu": None, "trust": None, "pfc": False, "no_drop": [], "watchdog": True, "queues": {}}


# Session lines: (regex, what it does to (config, interface, queue)); first match wins.
def set_dscp(c, i, q, m):
    for d in m[1].split():
        c["dscp"][d] = int(m[2])


def set_tc(c, i, q, m):
    c["queue_keyword"] = m[2]
    for p in m[1].split():
        c["tc"][p] = int(m[3])


def set_wd(c, i, q, m):
    c["watchdog"][m[1]] = m[2]


def no_wd(c, i, q, m):
    c["watchdog"].pop(m[1], None)


def no_drop(c, i, q, m):
    s = set(i["no_drop"])
    (s.discard if m[1] else s.add)(int(m[2]))
    i["no_drop"] = sorted(s)


TOP = [
    (r"qos map dscp ([\d ]+) to traffic-class (\d)", set_dscp),
    (r"qos map traffic-class ([\d ]+) to (uc-tx-queue|tx-queue) (\d)", set_tc),
    (r"priority-flow-control pause watchdog (default timeout|default recovery-time|default polling-interval|action) (\S+)", set_wd),
    (r"no priority-flow-control pause watchdog (default timeout|default recovery-time|default polling-interval|action)", no_wd),
]
INTERFACE = [
    (r"mtu (\d+)", lambda c, i, q, m: i.update(mtu=int(m[1]))),
    (r"qos trust (dscp|cos)", lambda c, i, q, m: i.update(trust=m[1])),
    (r"priority-flow-control on", lambda c, i, q, m: i.update(pfc=True)),
    (r"no priority-flow-control", lambda c, i, q, m: i.update(pfc=False)),
    (r"(no )?priority-flow-control priority (\d) no-drop", no_drop),
    (r"priority-flow-control pause watchdog", lambda c, i, q, m: i.update(watchdog=True)),
    (r"no priority-flow-control pause watchdog", lambda c, i, q, m: i.update(watchdog=False)),
]
QUEUE = [
    (r"priority strict", lambda c, i, q, m: q.update(strict=True)),
    (r"no priority", lambda c, i, q, m: q.update(strict=False)),
    (r"bandwidth percent (\d+)", lambda c, i, q, m: q.update(bandwidth=int(m[1]))),
    (r"no bandwidth percent", lambda c, i, q, m: q.pop("bandwidth", None)),
    (r"random-detect ecn (minimum-threshold .*)", lambda c, i, q, m: q.update(ecn=m[1])),
    (r"no random-detect ecn minimum-threshold", lambda c, i, q, m: q.pop("ecn", None)),
]


def apply(table, line, *args):
    for pattern, action in table:
        m = re.fullmatch(pattern, line)
        if m:
            action(*args, m)
            return
    raise Invalid(line)


def merge(config, session):
    interface = queue = None
    for raw in session.splitlines():
        line = raw.strip()
        indent = len(raw) - len(raw.lstrip(" "))
        if not line or line.startswith("!"):
            if indent == 0:
                interface = queue = None
            queue = None
            continue
        m = re.fullmatch(r"(uc-tx-queue|tx-queue) (\d)", line)
        if indent == 0 and line.startswith("interface "):
            interface = config["interfaces"].setdefault(line.split(" ", 1)[1], new_interface())
            queue = None
        elif indent == 0:
            interface = queue = None
            apply(TOP, line, config, None, None)
        elif interface is not None and m and indent == 3:
            queue = interface["queues"].setdefault(m[2], {"strict": True})
        elif queue is not None and indent == 6:
            apply(QUEUE, line, config, interface, queue)
        elif interface is not None and indent == 3:
            queue = None
            apply(INTERFACE, line, config, interface, None)
        else:
            raise Invalid(line)


def running_config(state, config, ports):
    out = ["! Command: show running-config", "! device: %s (vEOS-lab, EOS-4.30.1F)" % os.path.basename(
        os.path.dirname(os.path.abspath(state))), "!"]
    try:
        with open(os.path.join(state, "preamble.txt")) as f:
            out += f.read().splitlines() + ["!"]
    except FileNotFoundError:
        pass
    by_tc = {}
    for d in range(64):
        tc = config["dscp"].get(str(d), default_tc(d))
        if tc != default_tc(d):
            by_tc.setdefault(tc, []).append(str(d))
    out += ["qos map dscp %s to traffic-class %d" % (" ".join(ds), tc) for tc, ds in sorted(by_tc.items())]
    by_q = {}
    for p in range(8):
        q = config["tc"].get(str(p), p)
        if q != p:
            by_q.setdefault(q, []).append(str(p))
    kw = config.get("queue_keyword", "uc-tx-queue")
    out += ["qos map traffic-class %s to %s %d" % (" ".join(ps), kw, q) for q, ps in sorted(by_q.items())]
    out.append("!")
    wd = config["watchdog"]
    for key in ("default timeout", "default recovery-time", "default polling-interval", "action"):
        if key in wd and not (key == "action" and wd[key] == "drop"):
            out.append("priority-flow-control pause watchdog %s %s" % (key, wd[key]))
    out.append("!")
    names = set(config["interfaces"]) | set(ports)
    for name in sorted(names, key=natural):
        i = config["interfaces"].get(name, new_interface())
        out.append("interface " + name)
        if i["mtu"] is not None:
            out.append("   mtu %d" % i["mtu"])
        if i["trust"] == "dscp":
            out.append("   qos trust dscp")
        if i["pfc"]:
            out.append("   priority-flow-control on")
        out += ["   priority-flow-control priority %d no-drop" % p for p in i["no_drop"]]
        if not i["watchdog"]:
            out.append("   no priority-flow-control pause watchdog")
        for q in sorted(i["queues"], key=int):
            lines = ([] if i["queues"][q].get("strict", True) else ["no priority"])
            if "bandwidth" in i["queues"][q]:
                lines.append("bandwidth percent %d" % i["queues"][q]["bandwidth"])
            if "ecn" in i["queues"][q]:
                lines.append("random-detect ecn " + i["queues"][q]["ecn"])
            if lines:
                out += ["   !", "   %s %s" % (kw, q)] + ["      " + l for l in lines]
        out.append("!")
    out += ["management api http-commands", "   no shutdown", "!", "end"]
    return "\n".join(out) + "\n"


def show_interfaces(config, ports):
    interfaces = {"Management1": {"name": "Management1", "interfaceStatus": "connected", "lineProtocolStatus": "up",
                                  "hardware": "ethernet", "forwardingModel": "routed", "mtu": 1500,
                                  "bandwidth": 1000000000, "duplex": "duplexFull", "description": ""}}
    for name in sorted(set(config["interfaces"]) | set(ports), key=natural):
        p = ports.get(name, {})
        mtu = config["interfaces"].get(name, {}).get("mtu")
        up = p.get("oper", "down") == "up"
        interfaces[name] = {"lastStatusChangeTimestamp": 1466586841.4151127, "name": name,
                            "interfaceStatus": "connected" if up else "notconnect",
                            "lineProtocolStatus": "up" if up else "down", "hardware": "ethernet",
                            "forwardingModel": "bridged", "mtu": mtu if mtu is not None else 9214,
                            "l3MtuConfigured": mtu is not None, "l2Mru": 0,
                            "bandwidth": int(p.get("speed", 0)) * 1000000 if up else 0,
                            "duplex": "duplexFull", "description": ""}
    return {"interfaces": interfaces}


def show_lldp(ports):
    neighbors = [{"ttl": 120, "neighborDevice": p["lldp"][0], "neighborPort": p["lldp"][1], "port": n}
                 for n, p in sorted(ports.items(), key=lambda i: natural(i[0])) if p.get("lldp")]
    return {"tablesLastChangeTime": 1448356585.4279644, "tablesAgeOuts": 0, "tablesInserts": len(neighbors),
            "lldpNeighbors": neighbors, "tablesDeletes": 0, "tablesDrops": 0}


def main():
    state = sys.argv[1]
    config = load(state, "config.json", {"dscp": {}, "tc": {}, "watchdog": {}, "interfaces": {}})
    ports = lab_ports.load(state)
    if len(sys.argv) == 4 and sys.argv[2] == "--load":
        with open(sys.argv[3]) as f:
            try:
                merge(config, f.read())
            except Invalid as e:
                sys.stderr.write("%% Invalid input: %s\n" % e)
                return 1
        with open(os.path.join(state, "config.json"), "w") as f:
            json.dump(config, f, indent=1, sort_keys=True)
        lab_ports.set_mtu(state, {n: i.get("mtu", 9214) for n, i in config["interfaces"].items()})
        return 0
    command = " ".join(os.environ.get("SSH_ORIGINAL_COMMAND", "").split())
    status = answered(state, command)
    if status is not None:
        return status
    answers = {
        "show running-config": lambda: running_config(state, config, ports),
        "show interfaces | json": lambda: json.dumps(show_interfaces(config, ports), indent=4) + "\n",
        "show lldp neighbors | json": lambda: json.dumps(show_lldp(ports), indent=4) + "\n",
    }
    if command not in answers:
        sys.stderr.write("% Invalid input\n")
        return 1
    sys.stdout.write(answers[command]())
    return 0


if __name__ == "__main__":
    sys.exit(main())

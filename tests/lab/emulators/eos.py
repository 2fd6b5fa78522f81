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
  startup.json    the startup configuration (`copy running-config startup-config`, `write memory`)
  counters.json   interface counters `show interfaces | json` reports (interface_counters()), for tests
  qos-counters.json  the PFC frames and ECN marks `show priority-flow-control counters` and `show qos
                  interfaces ecn counters queue` report: {"Ethernet1": {"pfc": {"rxFrames": 5, "txFrames": 0},
                  "ecn": {"3": 12}}} (the lab's traffic, tests/lab/traffic.py); 0 where it says nothing
  sessions.json   configuration sessions, kept apart from running: {name: {"state": "pending" |
                  "pendingCommitTimer", "config": ..., "before": running before the timed commit,
                  "expires": epoch seconds}}
  chip.txt        the chip family (trident, tomahawk, jericho; default tomahawk): its queue word
  release.txt     the EOS release (default 4.30.1F): the shape of `show configuration sessions detail`
  timers/NAME.json  a session's commit timer (common.py: the one timer of every emulator)
  lock            every command holds it (common.locked), and so does the timer when it reverts

  eos.py STATE              answer $SSH_ORIGINAL_COMMAND
  eos.py STATE --load FILE  `configure session` + FILE's lines + `commit`: merge a session.cfg (a line sets
                            its setting, its `no` form puts back EOS's default)
  eos.py STATE --factory    a switch as it boots with no configuration: a block for each port of
                            ports.json, nothing set (L3 MTU 1500, EOS's default, on the netdevs)
  eos.py STATE --timer NAME the commit timer's process (common.py)
  eos.py STATE --fire-timers  the fire hook: every session under a commit timer reverts now

The transaction fabricctl runs (src/platform/eos/apply.cpp):
  configure session NAME\n<lines>\nend   one exec of several lines: the lines go into the session; a bad
                                         one prints `% Invalid input (at token N: 'X')` (exit status 0,
                                         as the CLI goes on to the next line) and is not taken
  show session-config named NAME diffs   the session against running, unified diff
  configure session NAME commit timer HH:MM:SS
                                         running = the session; a detached process reverts running (and
                                         the netdevs' MTU) when the timer ends
  configure session NAME commit          with the timer running: confirm (the timer stops); without:
                                         commit now
  configure session NAME abort           drop a pending session; with the timer running: revert now
  show configuration sessions [detail] | json
                                         sessions and their state, in the shape of the release
                                         (eos_sessions.py); a second session's `commit timer` while
                                         one runs is refused (one commit timer per switch)

Session lines are read with EOS's grammar (eos_grammar.py: words, ranges, units and queue words per chip,
with their sources); a line it refuses prints EOS's `% Invalid input (at token N: 'W')` and is not taken.

`show running-config` prints what differs from EOS's defaults only, in EOS's layout (the defaults are the
ones src/platform/eos/running_config.cpp assumes: DSCP d -> traffic-class of COS d/8 with COS 0 -> 1 and
1 -> 0; traffic-class n -> queue n; queues strict; PFC off; a port's watchdog on; trust COS).
"""
import copy
import json
import os
import re
import sys
import time

import lab_ports
import eos_grammar
import eos_sessions
from eos_grammar import Invalid
from common import UNKNOWN, dispatch, answered, arm_timer, disarm_timer, load, locked, natural, timer_main


DEFAULT_MTU = 1500  # EOS's default L3 MTU on an Ethernet port (the lab's factory state)
# STATE/chip.txt: the switch's chip family (eos_grammar.CHIPS); STATE/release.txt: its EOS release, which
# decides the shape of `show configuration sessions detail` (eos_sessions.py).
HARDWARE = {"chip": eos_grammar.DEFAULT_CHIP, "release": "4.30.1F"}
EMPTY = {"dscp": {}, "tc": {}, "watchdog": {}, "interfaces": {}}


def default_tc(dscp):
    cos = dscp // 8
    return {0: 1, 1: 0}.get(cos, cos)


def new_interface():
    return {"mtu": None, "trust": None, "pfc": False, "no_drop": [], "watchdog": True, "queues": {}}


def no_drop(i, priority, on):
    s = set(i["no_drop"])
    (s.add if on else s.discard)(int(priority))
    i["no_drop"] = sorted(s)


def map_to(table, keys, value):
    for k in keys:
        table[k] = int(value)


def numbers(words, start, stop_word):
    return words[start:words.index(stop_word, start)]


# What each command of eos_grammar.COMMANDS does to (config, interface, queue); `w` is the line's words.
EFFECTS = {
    "dscp map": lambda c, i, q, w: map_to(c["dscp"], numbers(w, 3, "to"), w[w.index("traffic-class") + 1]),
    "cos map": lambda c, i, q, w: map_to(c.setdefault("cos", {}), numbers(w, 3, "to"), w[-1]),
    "queue map": lambda c, i, q, w: map_to(c["tc"], numbers(w, 3, "to"), w[-1]),
    "mtu": lambda c, i, q, w: i.update(mtu=int(w[1])),
    "trust": lambda c, i, q, w: i.update(trust=w[2]),
    "no trust": lambda c, i, q, w: i.update(trust=None),
    "pfc on": lambda c, i, q, w: i.update(pfc=True),
    "no pfc": lambda c, i, q, w: i.update(pfc=False),
    "pfc priority": lambda c, i, q, w: no_drop(i, w[2], w[3] == "no-drop"),
    "no pfc priority": lambda c, i, q, w: no_drop(i, w[3], False),
    "watchdog on": lambda c, i, q, w: i.update(watchdog=True),
    "watchdog off": lambda c, i, q, w: i.update(watchdog=False),
    "strict": lambda c, i, q, w: q.update(strict=True),
    "no strict": lambda c, i, q, w: q.update(strict=False),
    "bandwidth": lambda c, i, q, w: q.update(bandwidth=int(w[2])),
    "no bandwidth": lambda c, i, q, w: q.pop("bandwidth", None),
    "ecn": lambda c, i, q, w: q.update(ecn=" ".join(w[2:])),
    "no ecn": lambda c, i, q, w: q.pop("ecn", None),
}
WATCHDOG_KEYS = ("default timeout", "default recovery-time", "default polling-interval", "action")
for _key in WATCHDOG_KEYS:
    EFFECTS["watchdog " + _key] = lambda c, i, q, w: c["watchdog"].__setitem__(" ".join(w[3:-1]), w[-1])
    EFFECTS["no watchdog " + _key] = lambda c, i, q, w: c["watchdog"].pop(" ".join(w[4:]), None)


def apply(mode, line, config, interface, queue):
    name, words = eos_grammar.parse(mode, line, HARDWARE["chip"])
    EFFECTS[name](config, interface, queue, words)


def merge(config, session, errors=None):
    """Applies session lines to `config`. A bad line raises Invalid, or with `errors` (a list) is
    recorded there and skipped, as EOS's CLI does with a line it refuses."""
    interface = queue = None
    for raw in session.splitlines():
        try:
            interface, queue = merge_line(config, raw, interface, queue)
        except Invalid as e:
            if errors is None:
                raise
            errors.append(e.message)


def merge_line(config, raw, interface, queue):
    line = raw.strip()
    indent = len(raw) - len(raw.lstrip(" "))
    if not line or line.startswith("!"):
        if indent == 0:
            interface = queue = None
        return interface, None
    if indent == 0 and line.startswith("interface "):
        interface = config["interfaces"].setdefault(line.split(" ", 1)[1], new_interface())
        queue = None
    elif indent == 0:
        interface = queue = None
        apply("top", line, config, None, None)
    elif interface is not None and indent == 3:
        queue = None
        name, words = eos_grammar.parse("interface", line, HARDWARE["chip"])
        if name == "queue":
            queue = interface["queues"].setdefault(words[1], {"strict": True})
        else:
            EFFECTS[name](config, interface, None, words)
    elif queue is not None and indent == 6:
        apply("queue", line, config, interface, queue)
    else:
        raise Invalid(line)
    return interface, queue


def running_config(state, config, ports):
    device = os.path.basename(os.path.dirname(os.path.abspath(state)))
    out = ["! Command: show running-config", "! device: %s (vEOS-lab, EOS-%s)" % (device, HARDWARE["release"]), "!"]
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
    kw = eos_grammar.CHIPS[HARDWARE["chip"]]
    out += ["qos map traffic-class %s to %s %d" % (" ".join(ps), kw, q) for q, ps in sorted(by_q.items())]
    cos = config.get("cos", {})
    by_cos = {}
    for c in range(8):
        tc = cos.get(str(c), default_tc(c * 8))
        if tc != default_tc(c * 8):
            by_cos.setdefault(tc, []).append(str(c))
    out += ["qos map cos %s to traffic-class %d" % (" ".join(cs), tc) for tc, cs in sorted(by_cos.items())]
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


def interface_counters(counters, name):
    """interfaceCounters of `show interfaces | json` in vEOS's shape (shared/reference/outputs/eos/
    show-interfaces.json): all 0 and one link change, unless STATE/counters.json ({"Ethernet1":
    {"inDiscards": 3, "inputErrorsDetail": {"fcsErrors": 9}}}, a test's or the lab's) says otherwise."""
    c = {"inOctets": 0, "inUcastPkts": 0, "inMulticastPkts": 0, "inBroadcastPkts": 0, "inDiscards": 0,
         "totalInErrors": 0, "outOctets": 0, "outUcastPkts": 0, "outMulticastPkts": 0, "outBroadcastPkts": 0,
         "outDiscards": 0, "totalOutErrors": 0, "linkStatusChanges": 1, "counterRefreshTime": 1466589559.98,
         "inputErrorsDetail": {"runtFrames": 0, "rxPause": 0, "fcsErrors": 0, "alignmentErrors": 0,
                               "giantFrames": 0, "symbolErrors": 0},
         "outputErrorsDetail": {"deferredTransmissions": 0, "txPause": 0, "collisions": 0, "lateCollisions": 0}}
    for key, value in counters.get(name, {}).items():
        if isinstance(value, dict):
            c.setdefault(key, {}).update(value)
        else:
            c[key] = value
    return c


def show_interfaces(config, ports, counters):
    interfaces = {"Management1": {"name": "Management1", "interfaceStatus": "connected", "lineProtocolStatus": "up",
                                  "hardware": "ethernet", "forwardingModel": "routed", "mtu": 1500,
                                  "bandwidth": 1000000000, "duplex": "duplexFull", "description": ""}}
    for name in ethernet_ports(config, ports):
        p = ports.get(name, {})
        mtu = config["interfaces"].get(name, {}).get("mtu")
        up = p.get("oper", "down") == "up"
        interfaces[name] = {"lastStatusChangeTimestamp": 1466586841.4151127, "name": name,
                            "interfaceStatus": "connected" if up else "notconnect",
                            "lineProtocolStatus": "up" if up else "down", "hardware": "ethernet",
                            "forwardingModel": "bridged", "mtu": mtu if mtu is not None else DEFAULT_MTU,
                            "l3MtuConfigured": mtu is not None, "l2Mru": 0,
                            "bandwidth": int(p.get("speed", 0)) * 1000000 if up else 0,
                            "duplex": "duplexFull", "description": "",
                            "interfaceCounters": interface_counters(counters, name)}
    return {"interfaces": interfaces}


def ethernet_ports(config, ports):
    return sorted(set(config["interfaces"]) | set(ports), key=natural)


def show_pfc_counters(config, ports, counters):
    """`show priority-flow-control counters | json` in the shape of ANTA's eAPI data (shared/reference/
    outputs/eos/show-priority-flow-control-counters_anta.json): PFC frames received and sent per port,
    summed over the priorities. UNCONFIRMED: whether EOS lists a port with PFC off (here every port is
    listed, its frames counted as they arrive)."""
    return {"interfaceCounters": {
        name: {"rxFrames": int(counters.get(name, {}).get("pfc", {}).get("rxFrames", 0)),
               "txFrames": int(counters.get(name, {}).get("pfc", {}).get("txFrames", 0))}
        for name in ethernet_ports(config, ports)}}


def show_ecn_counters(config, ports, counters):
    """`show qos interfaces ecn counters queue | json` in the shape of ANTA's eAPI data (shared/reference/
    outputs/eos/show-qos-interfaces-ecn-counters-queue_anta.json): marks per egress queue as strings, "-"
    for a queue without ECN configured (its `tx-queue N` block has no `random-detect ecn`).
    UNCONFIRMED: that every queue 0-7 is listed (ANTA's sample shows three)."""
    out = {}
    for name in ethernet_ports(config, ports):
        queues = config["interfaces"].get(name, {}).get("queues", {})
        marks = counters.get(name, {}).get("ecn", {})
        out[name] = {"queueCounters": {
            str(q): str(int(marks.get(str(q), 0))) if "ecn" in queues.get(str(q), {}) else "-" for q in range(8)}}
    return {"intfQueueCounters": out}


def show_lldp(ports):
    neighbors = [{"ttl": 120, "neighborDevice": p["lldp"][0], "neighborPort": p["lldp"][1], "port": n}
                 for n, p in sorted(ports.items(), key=lambda i: natural(i[0])) if p.get("lldp")]
    return {"tablesLastChangeTime": 1448356585.4279644, "tablesAgeOuts": 0, "tablesInserts": len(neighbors),
            "lldpNeighbors": neighbors, "tablesDeletes": 0, "tablesDrops": 0}


def save(state, name, data):
    """STATE/NAME as JSON, replaced whole (a reader never sees half a file)."""
    path = os.path.join(state, name)
    with open(path + ".tmp", "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.replace(path + ".tmp", path)


def make_running(state, config):
    """`config` becomes the running configuration, and its MTUs (EOS's default where none is set) those
    of the real netdevs."""
    save(state, "config.json", config)
    ports = lab_ports.load(state)
    names = set(config["interfaces"]) | set(ports)
    lab_ports.set_mtu(state, {n: (config["interfaces"].get(n) or {}).get("mtu") or DEFAULT_MTU for n in names})


def timer_fired(state, name, _data):
    """The commit timer ended unconfirmed: running goes back to what it was before the timed commit."""
    sessions = load(state, "sessions.json", {})
    s = sessions.get(name)
    if s and s["state"] == "pendingCommitTimer":
        make_running(state, s["before"])
        del sessions[name]
        save(state, "sessions.json", sessions)


def not_found(name):
    return "", "%% Session %s not found\n" % name, 1


def session_edit(cli, name, lines):
    s = cli["sessions"].setdefault(name, {"state": "pending", "config": copy.deepcopy(cli["config"])})
    if s["state"] != "pending":
        return "", "%% Session %s is pending a commit timer and cannot be modified\n" % name, 1
    errors = []
    merge(s["config"], "\n".join(lines), errors)
    save(cli["state"], "sessions.json", cli["sessions"])
    return "".join(e + "\n" for e in errors), "", 0


def session_diffs(cli, m):
    s = cli["sessions"].get(m[1])
    if s is None:
        return not_found(m[1])
    ports = cli["ports"]
    old = running_config(cli["state"], cli["config"], ports).splitlines(True)
    new = running_config(cli["state"], s["config"], ports).splitlines(True)
    import difflib  # here: only this command needs it, and every command would pay its import

    diff = difflib.unified_diff(old, new, "system:/running-config", "session:/%s-session-config" % m[1])
    return "".join(diff), "", 0


def commit_timer(cli, m):
    name, (h, mi, sec) = m[1], (int(m[2]), int(m[3]), int(m[4]))
    s = cli["sessions"].get(name)
    if s is None or s["state"] != "pending":
        return not_found(name)
    if mi > 59 or sec > 59 or h * 3600 + mi * 60 + sec == 0:
        return "", "% Invalid input\n", 1
    holder = eos_sessions.timer_holder(cli["sessions"])
    if holder is not None:  # one commit timer per switch; the session stays pending, running unchanged
        return "", eos_sessions.second_timer(name, holder), 1
    now = time.time()
    s.update(state="pendingCommitTimer", before=cli["config"], expires=now + h * 3600 + mi * 60 + sec, completed=now)
    make_running(cli["state"], s["config"])
    save(cli["state"], "sessions.json", cli["sessions"])
    arm_timer(cli["state"], __file__, name, s["expires"] - time.time())
    return "", "", 0


def commit(cli, m):
    s = cli["sessions"].pop(m[1], None)
    if s is None:
        return not_found(m[1])
    if s["state"] == "pendingCommitTimer":
        disarm_timer(cli["state"], m[1])  # confirmed: running stays
    else:
        make_running(cli["state"], s["config"])
    save(cli["state"], "sessions.json", cli["sessions"])
    return "", "", 0


def abort(cli, m):
    s = cli["sessions"].pop(m[1], None)
    if s is None:
        return not_found(m[1])
    if s["state"] == "pendingCommitTimer":
        disarm_timer(cli["state"], m[1])
        make_running(cli["state"], s["before"])
    save(cli["state"], "sessions.json", cli["sessions"])
    return "", "", 0


def write_memory(cli, m):
    save(cli["state"], "startup.json", cli["config"])
    return "Copy completed successfully.\n", "", 0


def show_sessions(cli, m):
    doc = eos_sessions.show(cli["sessions"], HARDWARE["release"], detail=m[1] is not None)
    return json.dumps(doc, indent=4) + "\n", "", 0


def text(f):
    return lambda cli, m: (f(cli), "", 0)


COMMANDS = [
    (r"show running-config", text(lambda c: running_config(c["state"], c["config"], c["ports"]))),
    (r"show interfaces \| json", text(lambda c: json.dumps(show_interfaces(
        c["config"], c["ports"], load(c["state"], "counters.json", {})), indent=4) + "\n")),
    (r"show lldp neighbors \| json", text(lambda c: json.dumps(show_lldp(c["ports"]), indent=4) + "\n")),
    (r"show priority-flow-control counters \| json", text(lambda c: json.dumps(show_pfc_counters(
        c["config"], c["ports"], load(c["state"], "qos-counters.json", {})), indent=4) + "\n")),
    (r"show qos interfaces ecn counters queue \| json", text(lambda c: json.dumps(show_ecn_counters(
        c["config"], c["ports"], load(c["state"], "qos-counters.json", {})), indent=4) + "\n")),
    (r"show session-config named (\S+) diffs", session_diffs),
    (r"show configuration sessions( detail)? \| json", show_sessions),
    (r"configure session (\S+)", lambda cli, m: session_edit(cli, m[1], [])),
    (r"configure session (\S+) commit timer (\d{1,2}):(\d\d):(\d\d)", commit_timer),
    (r"configure session (\S+) commit", commit),
    (r"configure session (\S+) abort", abort),
    (r"write memory|copy running-config startup-config", write_memory),
]


def run(cli, raw):
    """One SSH exec: a command, or `configure session NAME` followed by lines for the session."""
    lines = raw.split("\n")
    first = " ".join(lines[0].split())
    if len(lines) > 1:
        m = re.fullmatch(r"configure session (\S+)", first)
        if not m:
            return "", "% Invalid input\n", 1
        body = lines[1:]
        while body and body[-1].strip() in ("", "end"):
            body.pop()
        return session_edit(cli, m[1], body)
    result = dispatch(COMMANDS, first, cli)
    return ("", "% Invalid input\n", 1) if result is UNKNOWN else result


def factory(state):
    """EOS with no configuration: a block for each port of ports.json, nothing set."""
    config = copy.deepcopy(EMPTY)
    for name in lab_ports.load(state):
        config["interfaces"][name] = new_interface()
    make_running(state, config)
    save(state, "startup.json", config)
    save(state, "sessions.json", {})


def read_hardware(state):
    """STATE/chip.txt (trident, tomahawk, jericho) and STATE/release.txt (e.g. 4.32.2F), when there."""
    for name, key in (("chip.txt", "chip"), ("release.txt", "release")):
        try:
            with open(os.path.join(state, name)) as f:
                HARDWARE[key] = f.read().strip()
        except FileNotFoundError:
            pass
    if HARDWARE["chip"] not in eos_grammar.CHIPS:
        raise SystemExit("chip.txt: %r is not one of %s" % (HARDWARE["chip"], ", ".join(eos_grammar.CHIPS)))


def main():
    state = sys.argv[1]
    read_hardware(state)
    status = timer_main(state, timer_fired)
    if status is not None:
        return status
    if len(sys.argv) == 3 and sys.argv[2] == "--factory":
        factory(state)
        return 0
    if len(sys.argv) == 4 and sys.argv[2] == "--load":
        config = load(state, "config.json", copy.deepcopy(EMPTY))
        with open(sys.argv[3]) as f:
            try:
                merge(config, f.read())
            except Invalid as e:
                sys.stderr.write("%% Invalid input: %s\n" % e)
                return 1
        make_running(state, config)
        return 0
    raw = os.environ.get("SSH_ORIGINAL_COMMAND", "")
    status = answered(state, " ".join(raw.split()))
    if status is not None:
        return status
    cli = {"state": state, "lock": locked(state)}
    cli.update(config=load(state, "config.json", copy.deepcopy(EMPTY)), ports=lab_ports.load(state),
               sessions=load(state, "sessions.json", {}))
    out, err, status = run(cli, raw)
    sys.stdout.write(out)
    sys.stderr.write(err)
    return status


if __name__ == "__main__":
    sys.exit(main())

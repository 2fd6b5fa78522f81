#!/usr/bin/python3
"""A Juniper QFX's Junos, as much of it as fabricctl reads and changes, behind a real sshd (ForceCommand):
each SSH command runs this once with the command in SSH_ORIGINAL_COMMAND, answers in the shapes Junos
prints (tests/fixtures/junos, SOURCES.md), and exits; the NETCONF command holds the session until the
client closes it. What it takes and refuses is junos_grammar.py's, each row with its source
(docs/reference-junos.md).

The switch's state is a directory (argument 1):
  config.json     the committed configuration: its statements, one `set` line (without `set `) per leaf and
                  per leaf-list member, in the order they were set (junos_grammar.atomic)
  candidate.json  the candidate configuration, the same way: one for the whole switch, as Junos's shared
                  candidate is (absent: the committed one)
  history.json    the commits, newest first (rollback 0 = the committed configuration), at most 50:
                  [{"revision": "re0-SECONDS-N", "seconds", "log", "confirm": minutes or null, "client",
                  "config"}]
  candidate-lock.json  the NETCONF session holding the candidate's lock: {"pid", "start" (its process's
                  start time, /proc), "user", "since"}; a lock whose process is gone is free
  broadcast.txt   what Junos broadcast to logged-in users (the confirmed commit's automatic rollback)
  ports.json      what the configuration does not hold (lab_ports.py): speed in Mb/s, oper, LLDP
  counters.json   what `show interfaces extensive` counts per port (show_interfaces_extensive()); tests write it
  answers.json    for tests, answers that replace the emulator's own (common.py)
  timers/commit-confirmed.json  the confirmed commit's countdown (common.py: the one timer of every emulator)
  lock            every command and every NETCONF RPC holds it (common.locked), and so does the timer

  junos.py STATE               answer $SSH_ORIGINAL_COMMAND
  junos.py STATE --load FILE   FILE's `set` lines (`#` comments skipped) loaded and committed (config.set)
  junos.py STATE --factory     a switch with no configuration: each port of ports.json at media MTU 1514
  junos.py STATE --timer NAME  the confirmed commit's countdown process (common.py)
  junos.py STATE --fire-timers the fire hook: a pending confirmed commit rolls back now

Commands (one per SSH exec; the Junos CLI for a user whose login shell is the CLI, docs/reference-junos.md
c: UNCONFIRMED that an exec carries exactly one command):
  show configuration [class-of-service|interfaces] | display set
  show configuration | display inheritance no-comments | display set
        the committed configuration's statements, `set ...` a line, grouped by hierarchy (junos_grammar.order);
        nothing for an empty hierarchy. Each leaf-list member and each statement of a one-liner (a
        forwarding class's queue-num, no-loss, pfc-priority) on a line of its own: UNCONFIRMED
        (docs/reference-junos.md a); Juniper's published `.set` files print one `code-points` member a
        line and never `[ ]` (jvd@005ab344 automation/configuration/set/ag1-1_acx7509.set:13897-13898).
        No `{master:0}` prompt after it (UNCONFIRMED)
  show interfaces | display json       interface-information (the vQFX fixture's shape), then `\\n\\n{master:0}\\n`
  show lldp neighbors | display json   lldp-neighbors-information (Junos's XML mapped to JSON), then the prompt
  show interfaces extensive | display json  the same rows with error lists, FEC, PFC and queue counters
                                       (show_interfaces_extensive(); STATE/counters.json), then the prompt
  xml-mode netconf need-trailer        a NETCONF 1.0 session on stdin/stdout (below); also as
                                       `[/usr/sbin/]cli xml-mode netconf need-trailer` and `netconf`, what
                                       sshd passes for the `netconf` subsystem (NETCONF_COMMAND)
Any other command prints `error: syntax error, expecting <command>: WORD` (UNCONFIRMED: the interactive
CLI prints a caret line and "syntax error, expecting <command>." (pklimai/junos_hidden_commands README);
the `error: ` prefix and the word of the non-interactive form are not from a source), exit status 0 as for
every command here (UNCONFIRMED, docs/reference-junos.md b).

NETCONF (the `netconf` subsystem of Junos runs `cli xml-mode netconf need-trailer`; ncclient's Junos handler
runs it as an exec): messages end with `]]>]]>`. The server's <hello> first (its comments, capabilities and
<session-id>, the PID of the session's process, as real Junos traces show: Juniper/py-junos-eznc issues
#1213, #1378), then each <rpc> answered in order with <rpc-reply xmlns=base:1.0 xmlns:junos=...
message-id=the rpc's>, until <close-session/> or the end of the input. RPCs: rpc_*() below.

Confirmed commits: `<commit-configuration><confirmed/>` arms the countdown (minutes, default 10, 1-65535);
a commit without <confirmed/> confirms (disarms) it; when it ends, the configuration committed before the
first unconfirmed confirmed commit is committed again (log `automatic rollback`) and `Commit was not
confirmed; automatic rollback complete.` is broadcast (docs/reference-junos.md c). It survives the session
that made it: the Junos XML protocol guide's confirmed commit is timer-only (docs/reference-junos.md c). NOTE:
Juniper's "Terminate a NETCONF Session" page (https://www.juniper.net/documentation/us/en/software/junos/
netconf/topics/task/netconf-session-terminating.html) says that when a session is terminated (the page is
about <kill-session>) a pending confirmed commit is rolled back at once; whether an ordinary session end
does so is UNCONFIRMED, and not done here.
"""
import json
import os
import re
import sys
import time
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape, quoteattr

import junos_grammar
import lab_ports
from common import UNKNOWN, answered, arm_timer, armed, disarm_timer, dispatch, load, locked, natural, timer_main
from junos_grammar import Refused

RELEASE = "23.4R2"  # the JVD devices' release (tests/fixtures/junos); in the junos namespace as Junos writes it
JUNOS_NS = "http://xml.juniper.net/junos/%s/junos" % RELEASE
BASE_NS = "urn:ietf:params:xml:ns:netconf:base:1.0"
EOM = "]]>]]>"
DEFAULT_MTU = 1514  # media MTU of an Ethernet port without `mtu` (vQFX fixture; docs/reference-junos.md a)
ETHERNET = 14  # media MTU - IP MTU on an untagged port (docs/reference-junos.md, "Interface MTU")
HISTORY = 50  # rollback 0 .. 49 (docs/reference-junos.md c: "up to 49 rollback configurations")
PROMPT = "\n\n{master:0}\n"  # after `| display json` on a QFX (vQFX fixture)
TIMER = "commit-confirmed"
# The NETCONF session's command: as an exec, or as sshd's SSH_ORIGINAL_COMMAND for the `netconf` subsystem
# when the lab's sshd_config says `Subsystem netconf /usr/sbin/cli xml-mode netconf need-trailer` (Junos's
# subsystem runs that command, docs/reference-junos.md c) beside its ForceCommand.
NETCONF_COMMAND = r"(?:(?:/usr/sbin/)?cli )?xml-mode netconf need-trailer|netconf"
DEFAULT_CONFIRM = 10  # minutes (docs/reference-junos.md c)


def save(state, name, data):
    path = os.path.join(state, name)
    with open(path + ".tmp", "w") as f:
        json.dump(data, f, indent=1)
    os.replace(path + ".tmp", path)


def ports_of(state):
    return {n: p for n, p in load(state, "ports.json", {}).items() if not n.startswith("_")}


def media_mtus(config, names):
    """{port: media MTU} of the ports `names`: its `mtu` statement, 1514 without one."""
    out = {n: DEFAULT_MTU for n in names}
    for line in config:
        m = re.fullmatch(r"interfaces (\S+) mtu (\d+)", line)
        if m and m[1] in out:
            out[m[1]] = int(m[2])
    return out


def ip_mtus(config, names):
    """{port: IP MTU}: unit 0's `family inet mtu`, else the media MTU - 14 (docs/reference-junos.md a:
    UNCONFIRMED that a QFX derives it so)."""
    out = {n: mtu - ETHERNET for n, mtu in media_mtus(config, names).items()}
    for line in config:
        m = re.fullmatch(r"interfaces (\S+) unit 0 family inet mtu (\d+)", line)
        if m and m[1] in out:
            out[m[1]] = int(m[2])
    return out


def make_running(state, config):
    """`config` becomes the committed configuration, and its IP MTUs those of the lab's real netdevs."""
    save(state, "config.json", config)
    lab_ports.set_mtu(state, ip_mtus(config, ports_of(state)))


def committed(state):
    return load(state, "config.json", [])


def candidate(state):
    config = load(state, "candidate.json", None)
    return committed(state) if config is None else config


# ---- loading statements

def apply(config, lines):
    """`set`/`delete` lines applied to `config` (a list, changed in place) as Junos's `load set` does: each
    line on its own; a refused line is not taken and the others are (a real `load set` goes on after an
    error, "load complete (1 errors)": real Junos session in an unidentified public repository, find_string
    `load complete (1 errors)`, id 70570196379; UNCONFIRMED: that capture shows Junos keeping the part of a
    refused line before its bad word, which the emulator does not). Returns [(severity, message,
    bad element)] in line order."""
    keys = keys_of(config)
    out = []
    for raw in lines:
        try:
            ws = junos_grammar.words(raw)
            if not ws:
                continue
            if ws[0] == "set":
                for line, kind, key in junos_grammar.atomic(ws[1:]):
                    if kind == "leaf" and keys.get(key):
                        config[keys[key][0]] = line  # a second set of a leaf replaces its value in place
                    elif line not in config:
                        keys.setdefault(key, []).append(len(config))
                        config.append(line)
            elif ws[0] == "delete":
                if not delete(config, ws[1:]):
                    out.append(("warning", "statement not found", None))
                keys = keys_of(config)
            else:
                raise Refused("syntax error", ws[0])
        except Refused as e:
            out.append(("error", e.message, e.element))
    return out


def keys_of(config):
    """{leaf key: [indexes]} of the statements in `config`. A statement the grammar does not know (a state
    file written by hand, an older emulator's) is its own key: it stays, and is never replaced."""
    keys = {}
    for i, line in enumerate(config):
        try:
            key = junos_grammar.key_of(line)
        except Refused:
            key = line
        keys.setdefault(key, []).append(i)
    return keys


def delete(config, path):
    """`delete PATH`: every statement at or under PATH goes (a leaf-list's `[ a b ]`: those members).
    False when there was none (Junos: warning `statement not found`, py-junos-eznc issue #624)."""
    if "[" in path:
        head = path[:path.index("[")]
        members = [w for w in path[path.index("[") + 1:] if w != "]"]
        paths = [" ".join(head + [m]) for m in members]
    else:
        paths = [" ".join(path)]
    words = paths[0].split(" ") if paths and paths[0] else []
    if not words or junos_grammar.viable(words) < len(words):
        raise Refused("syntax error", junos_grammar.bad_element(words) if words else "delete")
    before = len(config)
    config[:] = [line for line in config if not any(line == p or line.startswith(p + " ") for p in paths)]
    return len(config) != before


# ---- commits

def history(state):
    return load(state, "history.json", [])


def commit(state, config, log=None, confirm=None, client="netconf", timer=True):
    """`config` committed: a history entry, running and the netdevs' MTUs, the candidate. `confirm`
    (minutes): a confirmed commit, its countdown (re)armed; without it a pending one is confirmed.
    timer=False: the countdown's own rollback, which leaves the timer to common.py."""
    entries = history(state)
    now = int(time.time())
    seq = (entries[0].get("seq", 0) + 1) if entries else 1
    entries.insert(0, {"revision": "re0-%d-%d" % (now, seq), "seq": seq, "seconds": now, "log": log,
                       "confirm": confirm, "client": client, "config": list(config)})
    before = committed(state)
    save(state, "history.json", entries[:HISTORY])
    make_running(state, list(config))
    save(state, "candidate.json", list(config))
    pending = armed(state, TIMER) if timer else None
    if confirm:
        # a second confirmed commit extends the countdown; the rollback still goes to the configuration
        # before the first (UNCONFIRMED: Junos's target when confirmed commits follow one another)
        target = pending["data"]["before"] if pending else before
        disarm_timer(state, TIMER)
        arm_timer(state, __file__, TIMER, confirm * 60, {"before": target})
    elif pending:
        disarm_timer(state, TIMER)  # "confirm by `commit` (a second commit)" (docs/reference-junos.md c)


def timer_fired(state, name, data):
    """The confirmed commit was not confirmed in time: Junos loads the configuration from before it and
    commits it (docs/reference-junos.md c), and tells the logged-in users."""
    before = (data or {}).get("before", [])
    commit(state, before, log="automatic rollback", client="junos", timer=False)
    with open(os.path.join(state, "broadcast.txt"), "a") as f:
        f.write("Commit was not confirmed; automatic rollback complete.\n")


# ---- CLI commands

def show_config(cli, only):
    lines = junos_grammar.order(cli["config"])
    if only:
        lines = [line for line in lines if line.split(" ", 1)[0] == only]
    return "".join("set %s\n" % line for line in lines)


def data(value, attributes=None):
    d = {"data": str(value)}
    if attributes:
        d["attributes"] = attributes
    return [d]


def speed_text(mbps):
    mbps = int(mbps or 0)
    return "%dGbps" % (mbps // 1000) if mbps >= 1000 and mbps % 1000 == 0 else "%dmbps" % mbps


def show_interfaces(config, ports):
    """`show interfaces | display json` in the shape of a real vQFX's (tests/fixtures/junos/show-interfaces-
    display-json.vqfx-17.4R1.txt): physical `mtu` the media MTU, the unit's `inet` `mtu` the IP MTU."""
    media = media_mtus(config, ports)
    ip = ip_mtus(config, ports)
    rows = []
    for name in sorted(ports, key=natural):
        p = ports[name]
        rows.append({
            "name": data(name),
            "admin-status": data("up", {"junos:format": "Enabled"}),
            "oper-status": data("up" if p.get("oper") == "up" else "down"),
            "link-level-type": data("Ethernet"),
            "mtu": data(media[name]),
            "speed": data(speed_text(p.get("speed"))),
            "if-flow-control": data("disabled"),
            "logical-interface": [{
                "name": data(name + ".0"),
                "address-family": [{"address-family-name": data("inet"), "mtu": data(ip[name])}],
            }],
        })
    doc = {"interface-information": [{
        "attributes": {"xmlns": "http://xml.juniper.net/junos/%s/junos-interface" % RELEASE, "junos:style": "normal"},
        "physical-interface": rows}]}
    return json.dumps(doc, indent=4) + PROMPT


# The queues a QFX uses without forwarding classes of its own: best-effort, fcoe, no-loss, network-control
# (the 22.4 QFX's queue table, tests/fixtures/junos/show-interfaces-extensive-pfc.qfx-22.4.apstra-iba-doc.*).
DEFAULT_QUEUES = {0: "best-effort", 3: "fcoe", 4: "no-loss", 7: "network-control"}


def queues_in_use(config):
    """{queue: forwarding class} of the committed forwarding classes (`queue-num`), the defaults without
    any. UNCONFIRMED: that a class of one's own replaces every default class's row (a QFX keeps the
    default classes it is not told to drop; the lab's configurations name all they use)."""
    out = {}
    for line in config:
        m = re.fullmatch(r"class-of-service forwarding-classes class (\S+) queue-num (\d+)", line)
        if m:
            out.setdefault(int(m[2]), m[1])
    return dict(sorted(out.items())) if out else DEFAULT_QUEUES


def show_interfaces_extensive(config, ports, counters):
    """`show interfaces extensive | display json`: the plain rows, and each port's error lists, FEC,
    PFC frames per priority and queue table, in the shape of the Junos 22.4 QFX's output (its XML,
    tests/fixtures/junos, mapped to JSON by the rule every `display json` follows: SOURCES.md). All 0
    unless STATE/counters.json says otherwise, a test's or the lab's: {"et-0/0/1": {"framing-errors": 9,
    "input-drops": 0, "output-drops": 0, "carrier-transitions": 1, "fec_ccw_count": 0, "fec_nccw_count": 0,
    "pfc": {"3": {"input": 5, "output": 0}}, "queues": {"3": {"transmitted": 10, "dropped": 0}}}}."""
    doc = json.loads(show_interfaces(config, ports).removesuffix(PROMPT))
    queues = queues_in_use(config)
    for row in doc["interface-information"][0]["physical-interface"]:
        c = counters.get(row["name"][0]["data"], {})
        n = lambda key: data(int(c.get(key, 0)))
        row["input-error-list"] = [{"input-errors": n("framing-errors"), "input-drops": n("input-drops"),
                                    "framing-errors": n("framing-errors"), "input-runts": data(0),
                                    "input-discards": data(0), "input-resource-errors": data(0)}]
        row["output-error-list"] = [{"carrier-transitions": n("carrier-transitions"), "output-errors": data(0),
                                     "output-drops": n("output-drops"), "mtu-errors": data(0),
                                     "output-resource-errors": data(0)}]
        def queue(q, name):
            sent, dropped = (int(c.get("queues", {}).get(str(q), {}).get(k, 0)) for k in ("transmitted", "dropped"))
            return {"queue-number": data(q), "forwarding-class-name": data(name),
                    "queue-counters-queued-packets": data(sent + dropped),
                    "queue-counters-trans-packets": data(sent), "queue-counters-total-drop-packets": data(dropped)}
        row["queue-counters"] = [{
            "attributes": {"junos:style": "brief"},
            "interface-cos-short-summary": [{"intf-cos-queue-type": data("Egress queues"),
                                             "intf-cos-num-queues-supported": data(8),
                                             "intf-cos-num-queues-in-use": data(len(queues))}],
            "queue": [queue(q, name) for q, name in queues.items()]}]
        row["ethernet-fec-statistics"] = [{"attributes": {"junos:style": "verbose"},
                                           "fec_ccw_count": n("fec_ccw_count"), "fec_nccw_count": n("fec_nccw_count"),
                                           "fec_ccw_error_rate": data(0), "fec_nccw_error_rate": data(0)}]
        row["ethernet-mac-pfc-statistics"] = [{
            "attributes": {"junos:style": "verbose"}, "mac-pfc-dot1p": data(p),
            "input-mac-pfc-frames": data(int(c.get("pfc", {}).get(str(p), {}).get("input", 0))),
            "output-mac-pfc-frames": data(int(c.get("pfc", {}).get(str(p), {}).get("output", 0)))} for p in range(8)]
    return json.dumps(doc, indent=4) + PROMPT


def show_lldp(ports):
    """`show lldp neighbors | display json`: the brief reply's elements (napalm's QFX fixtures,
    tests/fixtures/junos/get-lldp-neighbors-information.*.xml) mapped to JSON the way `display json` maps
    every reply (docs/reference-junos.md d). UNCONFIRMED: no QFX capture of this command's JSON exists."""
    rows = []
    for i, (name, p) in enumerate(sorted(ports.items(), key=lambda item: natural(item[0]))):
        if not p.get("lldp"):
            continue
        rows.append({
            "lldp-local-port-id": data(name),
            "lldp-local-parent-interface-name": data("-"),
            "lldp-remote-chassis-id-subtype": data("Mac address"),
            "lldp-remote-chassis-id": data("52:54:00:00:%02x:%02x" % (i // 256, i % 256)),
            "lldp-remote-port-id-subtype": data("Interface name"),
            "lldp-remote-port-id": data(p["lldp"][1]),
            "lldp-remote-system-name": data(p["lldp"][0]),
        })
    doc = {"lldp-neighbors-information": [{"attributes": {"junos:style": "brief"},
                                           "lldp-neighbor-information": rows}]}
    return json.dumps(doc, indent=4) + PROMPT


def text(f):
    return lambda cli, m: f(cli)


EXEC = [
    (r"show configuration \| display set", text(lambda c: show_config(c, None))),
    # `| display inheritance no-comments`: what apply-groups give, shown as if configured where it applies
    # (Juniper CLI guide, "display inheritance"); this switch has no groups, so it prints the same.
    (r"show configuration \| display inheritance no-comments \| display set", text(lambda c: show_config(c, None))),
    (r"show configuration (class-of-service|interfaces) \| display set", lambda c, m: show_config(c, m[1])),
    (r"show interfaces \| display json", text(lambda c: show_interfaces(c["config"], lab_ports.load(c["state"])))),
    (r"show lldp neighbors \| display json", text(lambda c: show_lldp(lab_ports.load(c["state"])))),
    (r"show interfaces extensive \| display json",
     text(lambda c: show_interfaces_extensive(c["config"], lab_ports.load(c["state"]),
                                              load(c["state"], "counters.json", {})))),
]
COMMAND_WORDS = [["show", "configuration", "|", "display", "set"],
                 ["show", "configuration", "class-of-service", "|", "display", "set"],
                 ["show", "configuration", "interfaces", "|", "display", "set"],
                 ["show", "interfaces", "|", "display", "json"], ["show", "lldp", "neighbors", "|", "display", "json"],
                 ["show", "interfaces", "extensive", "|", "display", "json"],
                 ["xml-mode", "netconf", "need-trailer"]]


def unknown(command):
    """The word of `command` where no command goes on (module docstring: UNCONFIRMED text)."""
    ws = command.split()
    k = 0
    while k < len(ws) and any(c[:k + 1] == ws[:k + 1] for c in COMMAND_WORDS):
        k += 1
    return "error: syntax error, expecting <command>: %s\n" % (ws[k] if k < len(ws) else ws[-1] if ws else "")


# ---- NETCONF

CAPABILITIES = [  # a QFX's hello (py-junos-eznc issues #1213 and #1378, NETCONF traces of Junos)
    "urn:ietf:params:netconf:base:1.0",
    "urn:ietf:params:netconf:capability:candidate:1.0",
    "urn:ietf:params:netconf:capability:confirmed-commit:1.0",
    "urn:ietf:params:netconf:capability:validate:1.0",
    "urn:ietf:params:netconf:capability:url:1.0?scheme=http,ftp,file",
    "urn:ietf:params:xml:ns:netconf:base:1.0",
    "urn:ietf:params:xml:ns:netconf:capability:candidate:1.0",
    "urn:ietf:params:xml:ns:netconf:capability:confirmed-commit:1.0",
    "urn:ietf:params:xml:ns:netconf:capability:validate:1.0",
    "urn:ietf:params:xml:ns:netconf:capability:url:1.0?scheme=http,ftp,file",
    "urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring",
    "http://xml.juniper.net/netconf/junos/1.0",
    "http://xml.juniper.net/dmi/system/1.0",
]


def rpc_error(message, severity="error", tag="operation-failed", kind="protocol", element=None, path=None,
              padded=False):
    """An <rpc-error> as Junos writes it: error-type, error-tag, error-severity, [error-path],
    [error-info/bad-element], error-message (Juniper/net-netconf PR #46, a Junos 14.2R4 load reply;
    opendaylight netconf NETCONF-666, a Junos 18.4R1 commit reply, whose messages are set between
    newlines: `padded`)."""
    out = ["<rpc-error>", "<error-type>%s</error-type>" % kind, "<error-tag>%s</error-tag>" % tag,
           "<error-severity>%s</error-severity>" % severity]
    if path:
        out.append("<error-path>%s</error-path>" % escape(path))
    if element is not None:
        out += ["<error-info>", "<bad-element>%s</bad-element>" % escape(element), "</error-info>"]
    out.append("<error-message>%s</error-message>" % (("\n%s\n" if padded else "%s") % escape(message)))
    out.append("</rpc-error>")
    return "\n".join(out)


def process_start(pid):
    """The start time of process `pid` (/proc/PID/stat field 22), None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError, ValueError):
        return None


class Session:
    """One NETCONF session: this process. It holds the candidate's lock when candidate-lock.json names it."""

    def __init__(self, state):
        self.state = state
        self.pid = os.getpid()
        self.start = process_start(self.pid)
        self.user = os.environ.get("USER") or "root"
        self.private = None  # the session's private copy (<open-configuration><private/>), or None

    def holder(self):
        """The lock's holder, or None. A holder whose process is gone loses the lock and, as its session
        ended, its uncommitted changes (RFC 6241 7.5; Juniper's <lock> page, below)."""
        lock = load(self.state, "candidate-lock.json", None)
        if lock is None:
            return None
        if process_start(lock["pid"]) != lock.get("start"):
            self.release()
            return None
        return lock

    def mine(self):
        lock = self.holder()
        return lock is not None and lock["pid"] == self.pid

    def release(self):
        """The lock goes and the candidate's uncommitted changes with it: "If the NETCONF session ends or the
        application emits the <unlock> tag element before the candidate configuration is committed, all
        changes made to the candidate are discarded" (https://juniper.net/documentation/en_US/junos13.2/topics/
        reference/tag-summary/netconf-lock.html)."""
        try:
            os.remove(os.path.join(self.state, "candidate-lock.json"))
        except FileNotFoundError:
            pass
        save(self.state, "candidate.json", committed(self.state))

    def locked_by_other(self):
        """The error Junos gives a session that changes a candidate another session has locked, or None.
        Text: Juniper's "Terminate a NETCONF Session" page and napalm issue #1445 (a real one):
        `configuration database locked by:\\n  USER terminal  (pid PID) on since TIME, idle TIME\\n
        exclusive`. UNCONFIRMED: the error-tag (lock-denied here, RFC 6241 appendix A)."""
        lock = self.holder()
        if lock is None or lock["pid"] == self.pid:
            return None
        since = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(lock["since"]))
        idle = int(time.time() - lock["since"])
        message = "configuration database locked by:\n  %s terminal  (pid %d) on since %s, idle %02d:%02d:%02d\n" \
                  "      exclusive" % (lock["user"], lock["pid"], since, idle // 3600, idle // 60 % 60, idle % 60)
        return rpc_error(message, tag="lock-denied")

    # -- the RPCs: each returns the inside of its <rpc-reply>

    def rpc_lock(self, op):
        """<lock><target><candidate/></target></lock>: <ok/>. Refused (lock-denied) when another session holds
        it, or when the candidate differs from the committed configuration (RFC 6241 7.5; text `configuration
        database modified`: what a QFX5100 answers `configure exclusive` then, a JTAC note's capture in an
        unidentified public repository, find_string id 16203881890)."""
        if op.find("./target/candidate") is None:
            return rpc_error("syntax error", tag="operation-not-supported", element="target")  # UNCONFIRMED
        other = self.locked_by_other()
        if other:
            return other
        if self.mine():
            return rpc_error("configuration database locked by this session", tag="lock-denied")  # UNCONFIRMED
        if candidate(self.state) != committed(self.state):
            return rpc_error("configuration database modified", tag="lock-denied")
        save(self.state, "candidate-lock.json", {"pid": self.pid, "start": self.start, "user": self.user,
                                                 "since": int(time.time())})
        return "<ok/>"

    def rpc_unlock(self, op):
        """<unlock>: <ok/>, and the uncommitted changes discarded (release()). Without the lock:
        `Configuration database is not open` (what Junos 20.2 answers <unlock-configuration/> then,
        Juniper/ansible-junos-stdlib issue #578; UNCONFIRMED for <unlock>)."""
        if not self.mine():
            return rpc_error("Configuration database is not open")
        self.release()
        return "<ok/>"

    def rpc_load_configuration(self, op):
        """<load-configuration action="set" format="text"><configuration-set>LINES</configuration-set>: each
        line applied to the candidate (apply()); <load-configuration rollback="N"/>: the candidate becomes
        rollback N. Reply <load-configuration-results><ok/></...>; with errors, their <rpc-error>s (and
        warnings') then <load-error-count>N</load-error-count> and no <ok/> (Juniper/net-netconf PR #46: a
        Junos 14.2R4 reply; tests/fixtures/junos/rpc-reply-load-configuration-error.pyez-test.xml); with
        only warnings, the warnings then <ok/> (UNCONFIRMED)."""
        other = self.locked_by_other()
        if other:
            return other
        if op.get("rollback") is not None:
            entries = history(self.state)
            n = op.get("rollback")
            if not re.fullmatch(r"\d+", n) or int(n) >= len(entries):
                return "<load-configuration-results>\n%s\n<load-error-count>1</load-error-count>\n" \
                       "</load-configuration-results>" % rpc_error("rollback %s does not exist" % n)  # UNCONFIRMED
            save(self.state, "candidate.json", entries[int(n)]["config"])
            return "<load-configuration-results>\n<ok/>\n</load-configuration-results>"
        text_el = op.find("./configuration-set")
        if op.get("action") != "set" or text_el is None:
            return rpc_error("syntax error", tag="operation-not-supported",
                             element=op.get("action") or "load-configuration")
        config = candidate(self.state) if self.private is None else self.private
        results = apply(config, (text_el.text or "").splitlines())
        if self.private is None:
            save(self.state, "candidate.json", config)
        errors = [r for r in results if r[0] == "error"]
        out = [rpc_error(message, severity=severity, element=element) for severity, message, element in results]
        out.append("<load-error-count>%d</load-error-count>" % len(errors) if errors else "<ok/>")
        return "<load-configuration-results>\n%s\n</load-configuration-results>" % "\n".join(out)

    def rpc_commit_configuration(self, op):
        """<commit-configuration> [<check/>] [<confirmed/>] [<confirm-timeout>MINUTES</confirm-timeout>]
        [<log>TEXT</log>]: junos_grammar.must() of the candidate; refused: one <rpc-error> per failed check,
        then `configuration check-out failed` (NETCONF-666's Junos 18.4R1 reply; the CLI's `error:
        configuration check-out failed`); else <commit-results> (the Junos XML protocol's reply,
        docs/reference-junos.md c)."""
        other = self.locked_by_other()
        if other:
            return other
        config = candidate(self.state) if self.private is None else self.private
        errors = junos_grammar.must(config)
        if errors:
            out = [rpc_error(message, path=path, element=statement, padded=True) for path, statement, message in errors]
            out.append(rpc_error("configuration check-out failed", padded=True))
            return "\n".join(out)
        engine = '<routing-engine junos:style="normal">\n<name>re0</name>\n%s\n</routing-engine>'
        if op.find("./check") is not None:
            return "<commit-results>\n%s\n</commit-results>" % (engine % "<commit-check-success/>")
        confirm = None
        if op.find("./confirmed") is not None and self.private is not None:
            # "You cannot issue the commit confirmed command when you are in configure private mode" (Junos
            # 8.5 CLI guide; the XML protocol guide says the same of a private copy); the text UNCONFIRMED.
            return rpc_error("commit confirmed is not supported in configure private mode")
        if op.find("./confirmed") is not None:
            timeout = (op.findtext("./confirm-timeout") or str(DEFAULT_CONFIRM)).strip()
            if not re.fullmatch(r"\d+", timeout) or not 1 <= int(timeout) <= 65535:
                # 1-65535 minutes (docs/reference-junos.md c); the text UNCONFIRMED
                return rpc_error("value %s is not within range (1..65535)" % timeout, element=timeout)
            confirm = int(timeout)
        commit(self.state, config, log=op.findtext("./log"), confirm=confirm)
        output = ""
        if confirm:
            output = "<output>commit confirmed will be automatically rolled back in %d minutes unless confirmed" \
                     "</output>\n" % confirm
        return "<commit-results>\n%s%s\n</commit-results>" % (output, engine % "<commit-success/>")

    def rpc_open_configuration(self, op):
        """<open-configuration><private/></open-configuration>: a private copy of the committed configuration
        for this session (`configure private`). Refused while the shared candidate holds uncommitted changes:
        "You cannot enter configure private mode when the global configuration has been modified" (Junos
        12.3 CLI guide, docs/reference-junos.md c); the reply's text UNCONFIRMED. Other databases: refused."""
        if op.find("./private") is None:
            return rpc_error("syntax error", tag="operation-not-supported", element="open-configuration")
        if candidate(self.state) != committed(self.state):
            return rpc_error("shared configuration database modified")
        self.private = committed(self.state)
        return "<ok/>"

    def rpc_close_configuration(self, op):
        """<close-configuration/>: the private copy, and what was loaded into it, goes."""
        self.private = None
        return "<ok/>"

    def rpc_discard_changes(self, op):
        """<discard-changes/>: the candidate becomes the committed configuration (RFC 6241 8.3.4.2)."""
        other = self.locked_by_other()
        if other:
            return other
        save(self.state, "candidate.json", committed(self.state))
        return "<ok/>"

    def rpc_get_commit_revision_information(self, op):
        """`show system commit revision detail` (napalm junos.py _get_pending_commits reads ./revision,
        ./date-time@seconds and ./comment): the newest commit; its <comment> `commit confirmed, rollback in
        Nmins` only while it is a confirmed commit waiting for confirmation. UNCONFIRMED: the element layout
        beyond those three."""
        entries = history(self.state)
        if not entries:
            return "<commit-revision-information/>"
        e = entries[0]
        out = ["<commit-revision-information>", "<revision>%s</revision>" % e["revision"],
               '<date-time junos:seconds="%d">%s</date-time>' % (e["seconds"], time.strftime(
                   "%Y-%m-%d %H:%M:%S UTC", time.gmtime(e["seconds"])))]
        if e.get("confirm") and armed(self.state, TIMER):
            out.append("<comment>commit confirmed, rollback in %dmins</comment>" % e["confirm"])
        out.append("</commit-revision-information>")
        return "\n".join(out)

    def rpc_get_system_uptime_information(self, op):
        """The device clock napalm reads beside the commit revision (.//current-time/date-time@seconds)."""
        now = int(time.time())
        return '<system-uptime-information>\n<current-time>\n<date-time junos:seconds="%d">%s</date-time>\n' \
               '</current-time>\n</system-uptime-information>' % (now, time.strftime("%Y-%m-%d %H:%M:%S UTC",
                                                                                    time.gmtime(now)))

    def answer(self, message):
        """The reply to one message (an <rpc>), and whether the session ends."""
        try:
            root = ET.fromstring(message)
        except ET.ParseError:
            return reply(None, rpc_error("syntax error", kind="rpc", tag="malformed-message")), False  # UNCONFIRMED
        strip(root)
        message_id = root.get("message-id")
        op = root[0] if root.tag == "rpc" and len(root) else None
        if op is None:
            return reply(message_id, rpc_error("syntax error", tag="operation-not-supported", element=root.tag)), False
        if op.tag == "close-session":
            return reply(message_id, "<ok/>"), True
        handler = getattr(self, "rpc_" + op.tag.replace("-", "_"), None)
        if handler is None:
            # UNCONFIRMED: Junos's answer to an RPC it does not know
            return reply(message_id, rpc_error("syntax error", tag="operation-not-supported", element=op.tag)), False
        with locked(self.state):
            return reply(message_id, handler(op)), False

    def end(self):
        """The session is over: its lock goes, and its uncommitted changes with it (release())."""
        with locked(self.state):
            if self.mine():
                self.release()


def strip(element):
    """Namespaces dropped from the tags: an <rpc> may come in base:1.0's namespace or none."""
    for e in element.iter():
        if isinstance(e.tag, str) and "}" in e.tag:
            e.tag = e.tag.split("}", 1)[1]


def reply(message_id, body):
    attribute = " message-id=%s" % quoteattr(message_id) if message_id is not None else ""
    return '<rpc-reply xmlns="%s" xmlns:junos="%s"%s>\n%s\n</rpc-reply>\n%s\n' % (BASE_NS, JUNOS_NS, attribute, body,
                                                                               EOM)


def write(data):
    raw = data.encode()
    while raw:
        n = os.write(1, raw)
        raw = raw[n:]


def messages():
    """The client's messages, each up to its `]]>]]>`, until the end of the input."""
    buffer = b""
    while True:
        while EOM.encode() not in buffer:
            chunk = os.read(0, 65536)
            if not chunk:
                return
            buffer += chunk
        message, buffer = buffer.split(EOM.encode(), 1)
        text_ = message.decode("utf-8", "replace").strip()
        if text_:
            yield text_


def netconf(state):
    """A NETCONF session: the server's hello, the client's, then each RPC answered in order."""
    session = Session(state)
    hello = ["<!-- No zombies were killed during the creation of this user interface -->",
             "<!-- user %s, class super-user -->" % session.user, '<hello xmlns="%s">' % BASE_NS, "  <capabilities>"]
    hello += ["    <capability>%s</capability>" % escape(c) for c in CAPABILITIES]
    hello += ["  </capabilities>", "  <session-id>%d</session-id>" % session.pid, "</hello>", EOM, ""]
    write("\n".join(hello))
    try:
        greeted = False
        for message in messages():
            if not greeted:
                greeted = True
                if re.search(r"<(\w+:)?hello\b", message):
                    continue  # the client's hello: its capabilities change nothing here (base:1.0 framing)
            out, done = session.answer(message)
            write(out)
            if done:
                break
    except (BrokenPipeError, OSError):
        pass
    finally:
        session.end()
    return ""


# ---- entry points

def factory(state):
    """A switch with no configuration (each port of ports.json at media MTU 1514), one commit in its history."""
    for name in ("candidate-lock.json",):
        try:
            os.remove(os.path.join(state, name))
        except FileNotFoundError:
            pass
    disarm_timer(state, TIMER)
    save(state, "history.json", [])
    commit(state, [], client="cli")


def load_file(state, path):
    """--load FILE: its `set` lines loaded into a copy of the committed configuration and committed, as
    `load set FILE` + `commit` would; a refused line or a failed check is printed and nothing committed."""
    with open(path) as f:
        lines = [line.strip() for line in f.read().splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")]
    config = committed(state)
    for line in lines:
        for severity, message, element in apply(config, [line]):
            if severity == "error":
                sys.stderr.write("%s\nerror: %s%s\n" % (line, message, ": " + element if element else ""))
                return 1
    errors = junos_grammar.must(config)
    if errors:
        for path, statement, message in errors:
            sys.stderr.write("%s\n  '%s'\n    %s\n" % (path, statement, message))
        sys.stderr.write("error: configuration check-out failed\n")
        return 1
    commit(state, config, client="cli")
    return 0


def main():
    state = sys.argv[1]
    status = timer_main(state, timer_fired)
    if status is not None:
        return status
    if len(sys.argv) == 3 and sys.argv[2] == "--factory":
        with locked(state):
            factory(state)
        return 0
    if len(sys.argv) == 4 and sys.argv[2] == "--load":
        with locked(state):
            return load_file(state, sys.argv[3])
    raw = os.environ.get("SSH_ORIGINAL_COMMAND", "")
    command = " ".join(raw.split())
    status = answered(state, command)
    if status is not None:
        return status
    if re.fullmatch(NETCONF_COMMAND, command):
        netconf(state)  # holds the lock only while it answers an RPC
        return 0
    cli = {"state": state}
    with locked(state):
        cli.update(config=committed(state))
        result = dispatch(EXEC, command, cli)
    sys.stdout.write(unknown(command) if result is UNKNOWN else result)
    return 0


if __name__ == "__main__":
    sys.exit(main())

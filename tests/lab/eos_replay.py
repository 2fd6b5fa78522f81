#!/usr/bin/python3
"""The emulated EOS switch against real EOS output (shared/reference/outputs/eos, provenance in SOURCES.md):
what EOS printed, the emulator must take, and what the emulator prints must have EOS's shape.

  eos_replay.py OUTPUTS_DIR   (shared/reference/outputs/eos)

1. Grammar: every line of the real running-config (AVD's intended qos.cfg) that has the shape of a command
   the emulator models (eos_grammar.COMMANDS, with any word where the command takes an argument) is sent in
   a configure session, its block laid out as EOS does (`qos profile` bodies as an interface's), on the chip
   its queue word names; EOS printed it, so EOS takes it: no `%` line may come back.
2. Shapes: the keys and JSON types of the emulator's `show interfaces | json` and `show lldp neighbors |
   json` are keys and types the real outputs have, and their words (statuses, duplex, forwarding model) are
   words the real outputs use.
3. Sessions: the emulator's `show configuration sessions detail | json` has the keys and types of the real
   EOS 4.31 and 4.32 output in napalm-automation/napalm issue #2166 (quoted below, with its key order).
Prints one line per check; exit 1 on the first that does not hold."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EMULATOR = os.path.join(HERE, "emulators", "eos.py")
sys.path.insert(0, os.path.join(HERE, "emulators"))
import eos_grammar  # noqa: E402

# napalm issue #2166: a session under a commit timer, `show configuration sessions detail | json`.
NAPALM_2166 = {
    "4.30.1F": {"sessions": {"troubleshooting": {
        "state": "pendingCommitTimer", "completedTime": 1739832190.8418295, "commitBy": 1739835851.8256721,
        "commitUser": "adminuser", "description": "", "instances": {}}},
        "maxSavedSessions": 1, "maxOpenSessions": 5, "mergeOnCommit": False, "saveToStartupConfigOnCommit": False},
    "4.32.1F": {"sessions": {"troubleshooting": {
        "state": "committed", "completedTime": 1739832020.1816368, "commitUser": "adminuser", "description": "",
        "instances": {}}},
        "maxSavedSessions": 1, "maxOpenSessions": 5, "mergeOnCommit": False, "saveToStartupConfigOnCommit": False,
        # The issue names these two keys and their meaning; its excerpt ends before their values.
        "commitTimerSessionName": "troubleshooting", "commitTimerExpireTime": 1739835851.8256721},
}


def fail(why):
    print("FAIL: " + why)
    sys.exit(1)


def switch(chip="tomahawk", release=None):
    state = os.path.join(tempfile.mkdtemp(), "sw1", "state")
    os.makedirs(state)
    with open(os.path.join(state, "ports.json"), "w") as f:
        json.dump({"Ethernet1": {"speed": 400000, "oper": "up", "lldp": ["leaf2", "Ethernet7"]},
                   "Ethernet2": {"speed": 100000, "oper": "down"}}, f)
    with open(os.path.join(state, "chip.txt"), "w") as f:
        f.write(chip)
    if release:
        with open(os.path.join(state, "release.txt"), "w") as f:
            f.write(release)
    subprocess.run([sys.executable, EMULATOR, state, "--factory"], check=True)
    return state


def cli(state, command):
    p = subprocess.run([sys.executable, EMULATOR, state], env=dict(os.environ, SSH_ORIGINAL_COMMAND=command),
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


class AnyWord:
    def __call__(self, words, i, _chip):
        return 1 if i < len(words) else 0


class AnyNumbers:
    def __call__(self, words, i, _chip):
        n = 0
        while i + n < len(words) and words[i + n].isdigit():
            n += 1
        return n


def shape(row):
    """`row` with any word where it takes an argument (a list of numbers: any numbers)."""
    out = []
    for w in row:
        if isinstance(w, eos_grammar.optional):
            out.append(eos_grammar.optional(*shape(w.row)))
        elif w is eos_grammar.queue_word:  # the chip decides which; either is the command's shape
            out.append(eos_grammar.one_of(*set(eos_grammar.CHIPS.values())))
        elif callable(w):
            out.append(AnyNumbers() if w.__qualname__.startswith("integers") else AnyWord())
        else:
            out.append(w)
    return tuple(out)


def modelled(mode, line):
    words = line.split()
    for m, row in eos_grammar.COMMANDS.values():
        if m == mode:
            got, done, _ = eos_grammar.match(shape(row), words, 0, None)
            if done and got == len(words):
                return True
    return False


def blocks(text):
    """(header, [(mode, line)]) of the running-config: the global lines under None, each `interface X` /
    `qos profile X` block (its body as an interface's), queue blocks inside it under their header line."""
    out, current, queue = [(None, [])], None, None
    for raw in text.splitlines():
        line, indent = raw.strip(), len(raw) - len(raw.lstrip(" "))
        if not line or line.startswith("!"):
            continue
        if indent == 0:
            queue = None
            current = line if line.startswith(("interface ", "qos profile ")) else None
            if current:
                out.append((current, []))
            elif modelled("top", line):
                out[0][1].append(("top", line))
        elif current and indent == 3:
            queue = line if line.split()[0] in ("uc-tx-queue", "tx-queue") else "other"
            if queue == "other" and modelled("interface", line):
                out[-1][1].append(("interface", line))
        elif current and indent == 6 and queue not in (None, "other") and modelled("queue", line):
            out[-1][1].append((queue, line))
    return out


def chip_of(mode, line):
    """The chip whose queue word the line (or its queue block) uses: Jericho's tx-queue, else Tomahawk."""
    return "jericho" if mode.startswith("tx-queue") or "tx-queue" in line.split() else "tomahawk"


def grammar(outputs):
    with open(os.path.join(outputs, "running-config_qos-pfc-ecn_avd-intended.txt")) as f:
        text = f.read()
    taken = 0
    switches = {}  # chip -> a switch of it; each line in a session of its own
    for header, lines in blocks(text):
        for mode, line in lines:
            chip = chip_of(mode, line)
            if mode == "top":
                body = line
            elif mode == "interface":
                body = "interface Ethernet1\n   " + line
            else:
                body = "interface Ethernet1\n   %s\n      %s" % (mode, line)
            if chip not in switches:
                switches[chip] = switch(chip)
            state = switches[chip]
            status, out, err = cli(state, "configure session replay-%d\n%s\nend" % (taken, body))
            if status or out or err:
                fail("EOS printed %r (%s), the emulator (%s) refuses it: %s%s" % (line, header or "global", chip,
                                                                                 out, err))
            taken += 1
    if taken < 20:
        fail("only %d lines of the running-config have a modelled command's shape" % taken)
    print("ok: the emulator takes the %d lines of the real running-config it models" % taken)


def json_types(v):
    return {dict: "object", list: "array", str: "string", bool: "bool", int: "number", float: "number",
            type(None): "null"}[type(v)]


def shapes(outputs):
    real = {}  # key -> {types}, words seen, over every real interface
    words = {}
    for name in ("show-interfaces.json", "show-interfaces_mtu-subset_anta.json", "show-interfaces_speed-subset_anta.json"):
        with open(os.path.join(outputs, name)) as f:
            for i in json.load(f)["interfaces"].values():
                for k, v in i.items():
                    real.setdefault(k, set()).add(json_types(v))
                    if isinstance(v, str) and k != "name" and k != "description":
                        words.setdefault(k, set()).add(v)
    state = switch()
    emulated = json.loads(cli(state, "show interfaces | json")[1])["interfaces"]
    for name, i in emulated.items():
        for k, v in i.items():
            if k not in real:
                fail("show interfaces: %s.%s is a key no real output has" % (name, k))
            if json_types(v) not in real[k]:
                fail("show interfaces: %s.%s is a %s, real EOS gives %s" % (name, k, json_types(v), real[k]))
            if k in words and v not in words[k] and k not in ("hardware",):
                fail("show interfaces: %s.%s %r is not a word real EOS printed (%s)" % (name, k, v, sorted(words[k])))
    with open(os.path.join(outputs, "show-lldp-neighbors.json")) as f:
        real_lldp = json.load(f)
    lldp = json.loads(cli(state, "show lldp neighbors | json")[1])
    if set(lldp) != set(real_lldp):
        fail("show lldp neighbors: keys %s, real EOS %s" % (sorted(lldp), sorted(real_lldp)))
    want = {k: json_types(v) for k, v in real_lldp["lldpNeighbors"][0].items()}
    for n in lldp["lldpNeighbors"]:
        if {k: json_types(v) for k, v in n.items()} != want:
            fail("show lldp neighbors: %r is not shaped like %r" % (n, want))
    counters(outputs, state)
    print("ok: show interfaces, show lldp neighbors and the PFC and ECN counters have real EOS's keys, types "
          "and words")


def counters(outputs, state):
    """The PFC frame and ECN mark counters: real EOS's keys, and values of real EOS's types (ANTA's eAPI
    data): ints for PFC, strings of digits or "-" for ECN, a "-" on the queues without ECN."""
    for name, command, top in (("show-priority-flow-control-counters_anta.json",
                                "show priority-flow-control counters | json", "interfaceCounters"),
                               ("show-qos-interfaces-ecn-counters-queue_anta.json",
                                "show qos interfaces ecn counters queue | json", "intfQueueCounters")):
        with open(os.path.join(outputs, name)) as f:
            real = json.load(f)
        got = json.loads(cli(state, command)[1])
        if list(got) != list(real) or not got[top]:
            fail("%s: keys %s, real EOS %s" % (command, list(got), list(real)))
        real_port = next(iter(real[top].values()))
        for port, v in got[top].items():
            if sorted(v) != sorted(real_port) or {json_types(x) for x in v.values()} != {
                    json_types(x) for x in real_port.values()}:
                fail("%s: %s is %r, not shaped like real EOS's %r" % (command, port, v, real_port))
            for q, count in v.get("queueCounters", {}).items():
                if not (q.isdigit() and isinstance(count, str) and (count == "-" or count.isdigit())):
                    fail("%s: %s queue %r is %r, real EOS prints digits or \"-\"" % (command, port, q, count))


def sessions():
    for release, real in NAPALM_2166.items():
        state = switch(release=release)
        try:
            cli(state, "configure session troubleshooting\ninterface Ethernet1\n   mtu 9100\nend")
            cli(state, "configure session troubleshooting commit timer 01:00:00")
            got = json.loads(cli(state, "show configuration sessions detail | json")[1])
        finally:
            subprocess.run([sys.executable, EMULATOR, state, "--fire-timers"], check=False)
        if list(got) != list(real):
            fail("EOS %s sessions detail: top-level keys %s, real EOS %s" % (release, list(got), list(real)))
        for k, v in real.items():
            if json_types(got[k]) != json_types(v):
                fail("EOS %s sessions detail: %s is a %s, real EOS a %s" % (release, k, json_types(got[k]), json_types(v)))
        s, r = got["sessions"]["troubleshooting"], real["sessions"]["troubleshooting"]
        if sorted(s) != sorted(r) or s["state"] != r["state"]:
            fail("EOS %s sessions detail: the session is %r, real EOS %r" % (release, s, r))
    print("ok: show configuration sessions detail has the shapes of EOS 4.31 and 4.32 (napalm issue #2166)")


if __name__ == "__main__":
    grammar(sys.argv[1])
    shapes(sys.argv[1])
    sessions()

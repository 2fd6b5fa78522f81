#!/usr/bin/python3
"""The emulated Junos switch (emulators/junos.py) against real Junos material (tests/fixtures/junos,
provenance in SOURCES.md): what Juniper's devices hold, the emulator must take, and what it prints must
have Junos's shape.

  junos_replay.py FIXTURES_DIR   (tests/fixtures/junos)

1. Grammar: each real JVD `class-of-service` block (config-cos.*.conf, and the breakout `interfaces` block),
   turned into set lines by curly_to_set(), is loaded into a fresh switch through NETCONF (<load-configuration
   action="set">), passes <commit-configuration><check/>, is committed, and `show configuration
   class-of-service | display set` prints every one of its statements back (a leaf-list one line per
   member), nothing more, nothing less.
2. Refusals: statements beyond the YANG's ranges and patterns refused at load with their texts, and
   configurations that break a `junos:must` (or a platform check) refused by commit check with theirs.
3. Shapes: `show interfaces | display json` (prompt cut off) has only keys the real vQFX output has, each
   with its JSON type; the LLDP answer has the elements of the real brief reply.
4. Confirmed commit: it changes running and the netdevs' MTU; napalm's pending-commit comment is there;
   the fire hook rolls it back (a new commit, `automatic rollback`); a later confirmed commit confirmed by
   a plain commit stays.
5. Lock: a second session's <lock> is refused with `configuration database locked by`; a session's
   uncommitted changes go when it ends; a modified candidate cannot be locked.
Prints one line per check; exit 1 on the first that does not hold."""
import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
EMULATOR = os.path.join(HERE, "emulators", "junos.py")
sys.path.insert(0, os.path.join(HERE, "emulators"))
import junos_grammar  # noqa: E402  (to expand a leaf-list the way `display set` prints it)


def fail(why):
    print("FAIL: " + why)
    sys.exit(1)


# ---- Junos's curly configuration as set lines

def curly_tokens(text):
    """The words of a curly configuration: quoted strings whole, `{ } ; [ ]` on their own, comments out."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"(?m)^\s*#.*$", " ", text)
    return re.findall(r'"[^"]*"|[{};\[\]]|[^\s{};\[\]"]+', text)


def curly_to_set(text):
    """`set` lines of a curly configuration (a file may stop with blocks still open, SOURCES.md: the
    breakout excerpt does). `[ a b ]` stays a bracketed list, which `load set` takes."""
    out, stack, current = [], [], []
    tokens = curly_tokens(text)
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t == "{":
            stack.append(current)
            current = []
        elif t == "}":
            current = []
            stack.pop()
        elif t == ";":
            if current:
                out.append("set " + " ".join([w for frame in stack for w in frame] + current))
            current = []
        elif t == "[":
            j = tokens.index("]", i)
            current.append("[ " + " ".join(tokens[i + 1:j]) + " ]")
            i = j
        else:
            current.append(t)
        i += 1
    return out


def display_lines(set_lines):
    """What `display set` prints of these `set` lines: one line per leaf-list member and per statement of a
    one-liner, quotes as Junos keeps them."""
    out = []
    for line in set_lines:
        for atom, _, _ in junos_grammar.atomic(junos_grammar.words(line[len("set "):])):
            out.append("set " + atom)
    return out


# ---- the switch

WORK = tempfile.mkdtemp()
atexit.register(shutil.rmtree, WORK, True)


def switch(ports):
    state = os.path.join(tempfile.mkdtemp(dir=WORK), "sw1", "state")
    os.makedirs(state)
    with open(os.path.join(state, "ports.json"), "w") as f:
        json.dump(ports, f)
    subprocess.run([sys.executable, EMULATOR, state, "--factory"], check=True)
    return state


def cli(state, command):
    p = subprocess.run([sys.executable, EMULATOR, state], env=dict(os.environ, SSH_ORIGINAL_COMMAND=command),
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


class Netconf:
    """A NETCONF 1.0 client over the emulator's stdin/stdout, as over `ssh SWITCH xml-mode netconf need-trailer`."""

    def __init__(self, state):
        self.p = subprocess.Popen([sys.executable, EMULATOR, state], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  env=dict(os.environ, SSH_ORIGINAL_COMMAND="xml-mode netconf need-trailer"))
        self.buffer, self.n = b"", 0
        self.hello = self.read()
        self.send('<hello xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><capabilities><capability>'
                  'urn:ietf:params:netconf:base:1.0</capability></capabilities></hello>')

    def send(self, message):
        self.p.stdin.write(message.encode() + b"]]>]]>")
        self.p.stdin.flush()

    def read(self):
        while b"]]>]]>" not in self.buffer:
            chunk = self.p.stdout.read1(65536)
            if not chunk:
                fail("the NETCONF session ended before its reply: %r" % self.buffer)
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"]]>]]>", 1)
        return message.decode()

    def rpc(self, body):
        """The <rpc-reply> element (namespaces dropped) of one RPC."""
        self.n += 1
        self.send('<rpc message-id="%d" xmlns="urn:ietf:params:xml:ns:netconf:base:1.0">%s</rpc>' % (self.n, body))
        text = self.read()
        root = ET.fromstring(text)
        for e in root.iter():
            e.tag = e.tag.split("}", 1)[-1]
        if root.tag != "rpc-reply" or root.get("message-id") != str(self.n):
            fail("NETCONF: reply %r to message %d" % (text, self.n))
        return root

    def load(self, lines):
        return self.rpc('<load-configuration action="set" format="text"><configuration-set>%s</configuration-set>'
                        '</load-configuration>' % escape("\n".join(lines)))

    def close(self):
        reply = self.rpc("<close-session/>")
        self.p.stdin.close()
        self.p.wait(timeout=10)
        return reply


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def errors(reply, severity="error"):
    return [(e.findtext("error-message") or "").strip() for e in reply.iter("rpc-error")
            if e.findtext("error-severity") == severity]


def check_ok(reply, what):
    if errors(reply) or reply.find(".//ok") is None and reply.find(".//commit-check-success") is None \
            and reply.find(".//commit-success") is None:
        fail("%s: %s" % (what, ET.tostring(reply, encoding="unicode")))


# ---- the checks

def grammar(fixtures):
    for name in sorted(os.listdir(fixtures)):
        if not (name.startswith("config-cos.") or name.startswith("config-interfaces-")):
            continue
        with open(os.path.join(fixtures, name)) as f:
            lines = curly_to_set(f.read())
        ports = {"et-0/0/%d" % i: {"speed": 400000, "oper": "up"} for i in range(64)}
        state = switch(ports)
        nc = Netconf(state)
        check_ok(nc.rpc("<lock><target><candidate/></target></lock>"), name + ": lock")
        check_ok(nc.load(lines), name + ": load")
        check_ok(nc.rpc("<commit-configuration><check/></commit-configuration>"), name + ": commit check")
        check_ok(nc.rpc("<commit-configuration><log>replay</log></commit-configuration>"), name + ": commit")
        check_ok(nc.rpc("<unlock><target><candidate/></target></unlock>"), name + ": unlock")
        nc.close()
        hierarchy = lines[0].split()[1]
        _, out, _ = cli(state, "show configuration %s | display set" % hierarchy)
        want, got = display_lines(lines), out.splitlines()
        if sorted(want) != sorted(got):
            missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
            fail("%s: printed back %d lines for %d; missing %s, extra %s" % (name, len(got), len(want), missing[:5],
                                                                              extra[:5]))
        if want != got:  # the device's file is in its schema's order; the emulator's ORDER must not contradict it
            first = next(i for i, (a, b) in enumerate(zip(want, got)) if a != b)
            fail("%s: printed in another order than the device's, from line %d: %r" % (name, first, got[first]))
        print("ok grammar: %s, %d statements taken, committed and printed back in the device's order "
              "(%d display lines)" % (name, len(lines), len(got)))


# (statement, the error-message Junos gives when it is loaded)
LOAD_REFUSED = [
    ("set class-of-service forwarding-classes class NO-LOSS queue-num 4 no-loss pfc-priority 8",
     "value 8 is not within range (0..7)"),
    ("set class-of-service schedulers s1 transmit-rate percent 101", "value 101 is not within range (0..100)"),
    ("set class-of-service drop-profiles dp1 interpolate fill-level [ 55 101 ]",
     "value 101 is not within range (0..100)"),
    ("set class-of-service drop-profiles dp1 interpolate drop-probability 120",
     "value 120 is not within range (0..100)"),
    ("set class-of-service congestion-notification-profile cnp input dscp code-point 01101 pfc",
     "Must be of form xxxxxx, where x is 0 or 1"),
    ("set class-of-service congestion-notification-profile cnp input ieee-802.1 code-point 0111 pfc",
     "Must be of form xxx, where x is 0 or 1"),
    ("set class-of-service congestion-notification-profile cnp output ieee-802.1 code-point 011 flow-control-queue 8",
     "value 8 is not within range (0..7)"),
    ("set class-of-service forwarding-classes class X queue-num 12", "value 12 is not within range (0..11)"),
    ("set class-of-service schedulers s1 frobnicate", "syntax error"),
    ("set class-of-service congestion-notification-profile cnp pfc-watchdog-action drop", "syntax error"),
]
BASE = ["set class-of-service forwarding-classes class NO-LOSS queue-num 4 no-loss pfc-priority 3",
        "set class-of-service forwarding-classes class CNP queue-num 3",
        "set class-of-service classifiers dscp cl forwarding-class NO-LOSS loss-priority low code-points 011010",
        "set class-of-service congestion-notification-profile cnp input dscp code-point 011010 pfc",
        "set class-of-service congestion-notification-profile cnp output ieee-802.1 code-point 011 "
        "flow-control-queue 4",
        "set class-of-service schedulers s1 transmit-rate percent 50",
        "set class-of-service scheduler-maps sm1 forwarding-class NO-LOSS scheduler s1",
        "set class-of-service interfaces et-0/0/1 congestion-notification-profile cnp",
        "set class-of-service interfaces et-0/0/1 scheduler-map sm1",
        "set class-of-service interfaces et-0/0/1 unit 0 classifiers dscp cl"]
# (lines added to BASE, the error-message commit check gives)
COMMIT_REFUSED = [
    (["set class-of-service congestion-notification-profile wd pfc-watchdog"],
     "pfc-watchdog configurations mandate output config"),
    (["set class-of-service classifiers dscp empty"],
     "'At least one 'forwarding class' or 'import' classifier definition is required for classifier configuration"),
    (["set class-of-service interfaces et-0/0/1 unit 0 scheduler-map sm1"],
     "Cannot configure scheduler-map or traffic-control-profile statement on both physical and logical interface"),
    (["set class-of-service congestion-notification-profile cnp input dscp code-point 100010 mru 9000"],
     "MRU not allowed without PFC"),
    (["set class-of-service interfaces et-0/0/2 scheduler-map nosuch"], "scheduler-map 'nosuch' is not defined"),
    (["set class-of-service interfaces et-0/0/2 congestion-notification-profile nocnp"],
     "congestion-notification-profile 'nocnp' is not defined"),
    (["set class-of-service interfaces et-0/0/2 unit 0 classifiers dscp nocl"], "classifier 'nocl' is not defined"),
    (["set class-of-service scheduler-maps sm1 forwarding-class NOFC scheduler s1"],
     "forwarding-class 'NOFC' is not defined"),
    (["set interfaces et-0/0/1 mtu 9217"], "mtu value 9217 is not within range (256..9216)"),
    (["set class-of-service forwarding-classes queue 5 old"], "'queue' and 'class' cannot coexist"),
]


def refusals():
    state = switch({"et-0/0/1": {"speed": 400000, "oper": "up"}, "et-0/0/2": {"speed": 400000, "oper": "up"}})
    nc = Netconf(state)
    for line, message in LOAD_REFUSED:
        reply = nc.load([line])
        if message not in errors(reply):
            fail("load of %r: want %r, got %r" % (line, message, errors(reply)))
        if reply.find(".//load-error-count") is None or reply.find(".//ok") is not None:
            fail("load of %r: a refused load has <load-error-count> and no <ok/>" % line)
    nc.rpc("<discard-changes/>")
    reply = nc.load(["set class-of-service schedulers s9 priority low", "set class-of-service nonsense 1"])
    if errors(reply) != ["syntax error"] or reply.findtext(".//bad-element") != "nonsense":
        fail("a load with one bad line: %s" % ET.tostring(reply, encoding="unicode"))
    with open(os.path.join(state, "candidate.json")) as f:
        if json.load(f) != ["class-of-service schedulers s9 priority low"]:
            fail("a load with one bad line: the good line is not in the candidate")
    nc.rpc("<discard-changes/>")
    print("ok refusals at load: %d statements refused with Junos's texts; the other lines of a load are taken" %
          len(LOAD_REFUSED))
    reply = nc.load(["delete class-of-service schedulers nothere"])
    if errors(reply, "warning") != ["statement not found"] or reply.find(".//ok") is None:
        fail("delete of what is not there: want the warning `statement not found` and <ok/>: %s" %
             ET.tostring(reply, encoding="unicode"))
    print("ok delete of what is not there: warning `statement not found`, not an error")
    check_ok(nc.load(BASE), "BASE")
    check_ok(nc.rpc("<commit-configuration><check/></commit-configuration>"), "BASE: commit check")
    for added, message in COMMIT_REFUSED:
        nc.rpc("<discard-changes/>")
        check_ok(nc.load(BASE + added), "load %r" % added)
        reply = nc.rpc("<commit-configuration><check/></commit-configuration>")
        got = errors(reply)
        if message not in got or got[-1] != "configuration check-out failed":
            fail("commit check with %r: want %r then `configuration check-out failed`, got %r" % (added, message, got))
    nc.rpc("<discard-changes/>")
    nc.close()
    print("ok refusals at commit check: %d configurations refused with their texts, then `configuration "
          "check-out failed`" % len(COMMIT_REFUSED))


def keys_and_types(value, path, out):
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        for v in value:
            keys_and_types(v, path, out)
    elif isinstance(value, dict):
        for k, v in value.items():
            keys_and_types(v, path + "." + k, out)
    else:
        out.setdefault(path, set()).add("list" if isinstance(value, list) else type(value).__name__)
    return out


def pairs(items):
    """A JSON object of the real output, which repeats keys (docs/reference-junos.md d): the first kept."""
    out = {}
    for k, v in items:
        out.setdefault(k, v)
    return out


def shapes(fixtures):
    state = switch({"et-0/0/1": {"speed": 400000, "oper": "up", "lldp": ["host1", "ens1f0np0"]},
                    "et-0/0/2": {"speed": 100000, "oper": "down"}})
    with open(os.path.join(fixtures, "show-interfaces-display-json.vqfx-17.4R1.txt")) as f:
        real = f.read()
    prompt = "\n\n{master:0}\n"
    if not real.endswith(prompt):
        fail("the vQFX fixture does not end with the prompt")
    theirs = keys_and_types(json.loads(real[:-len(prompt)], object_pairs_hook=pairs), "", {})
    _, out, _ = cli(state, "show interfaces | display json")
    if not out.endswith(prompt):
        fail("show interfaces | display json: no trailing `{master:0}` prompt")
    doc = json.loads(out[:-len(prompt)])
    mine = keys_and_types(doc, "", {})
    for path, types in mine.items():
        if path not in theirs:
            fail("show interfaces | display json: the emulator prints %s, which the vQFX output has not" % path)
        if not types <= theirs[path]:
            fail("show interfaces | display json: %s is %s here, %s in the vQFX output" % (path, types, theirs[path]))
    ifs = {p["name"][0]["data"]: p for p in doc["interface-information"][0]["physical-interface"]}
    if ifs["et-0/0/1"]["mtu"][0]["data"] != "1514" or ifs["et-0/0/2"]["speed"][0]["data"] != "100Gbps" or \
            ifs["et-0/0/1"]["logical-interface"][0]["address-family"][0]["mtu"][0]["data"] != "1500":
        fail("show interfaces | display json: factory MTUs are media 1514, inet 1500: %s" % ifs["et-0/0/1"])
    print("ok shape: show interfaces | display json, %d keys, each with the vQFX output's type" % len(mine))
    _, out, _ = cli(state, "show lldp neighbors | display json")
    doc = json.loads(out[:-len(prompt)])
    rows = doc["lldp-neighbors-information"][0]["lldp-neighbor-information"]
    real_xml = ET.parse(os.path.join(fixtures, "get-lldp-neighbors-information.mixed.napalm-test.xml")).getroot()
    real_keys = {e.tag for n in real_xml for e in n}
    if len(rows) != 1 or not set(rows[0]) <= real_keys or rows[0]["lldp-remote-system-name"][0]["data"] != "host1":
        fail("show lldp neighbors | display json: %s (the real brief reply's elements: %s)" % (rows, real_keys))
    print("ok shape: show lldp neighbors | display json, the elements of the real brief reply")


def confirmed(fixtures):
    state = switch({"et-0/0/1": {"speed": 400000, "oper": "up"}})
    nc = Netconf(state)
    check_ok(nc.load(["set interfaces et-0/0/1 mtu 9216"]), "load")
    reply = nc.rpc("<commit-configuration><confirmed/><confirm-timeout>5</confirm-timeout></commit-configuration>")
    if reply.findtext(".//output") != "commit confirmed will be automatically rolled back in 5 minutes unless " \
                                      "confirmed" or reply.find(".//commit-success") is None:
        fail("confirmed commit: %s" % ET.tostring(reply, encoding="unicode"))
    revision = nc.rpc("<get-commit-revision-information><detail/></get-commit-revision-information>")
    if revision.findtext(".//comment") != "commit confirmed, rollback in 5mins" or \
            not re.fullmatch(r"re0-\d+-\d+", revision.findtext(".//revision") or ""):
        fail("pending confirmed commit: %s" % ET.tostring(revision, encoding="unicode"))
    nc.close()
    _, out, _ = cli(state, "show configuration interfaces | display set")
    if out != "set interfaces et-0/0/1 mtu 9216\n":
        fail("the confirmed commit is not running: %r" % out)
    subprocess.run([sys.executable, EMULATOR, state, "--fire-timers"], check=True)
    _, out, _ = cli(state, "show configuration interfaces | display set")
    with open(os.path.join(state, "history.json")) as f:
        newest = json.load(f)[0]
    with open(os.path.join(state, "broadcast.txt")) as f:
        broadcast = f.read()
    if out or newest["log"] != "automatic rollback" or "Commit was not confirmed; automatic rollback complete." \
            not in broadcast:
        fail("the fire hook did not roll the confirmed commit back: %r, %s" % (out, newest["log"]))
    nc = Netconf(state)
    if nc.rpc("<get-commit-revision-information><detail/></get-commit-revision-information>").find(".//comment") \
            is not None:
        fail("a rolled-back confirmed commit still reads as pending")
    print("ok confirmed commit: running changed, pending per napalm's reading, rolled back by the fire hook "
          "(a new commit, `automatic rollback`, broadcast)")
    check_ok(nc.load(["set interfaces et-0/0/1 mtu 9216"]), "load")
    check_ok(nc.rpc("<commit-configuration><confirmed/></commit-configuration>"), "confirmed commit")
    if not os.path.exists(os.path.join(state, "timers", "commit-confirmed.json")):
        fail("a confirmed commit armed no countdown")
    check_ok(nc.rpc("<commit-configuration/>"), "confirming commit")
    if os.path.exists(os.path.join(state, "timers", "commit-confirmed.json")):
        fail("a plain commit did not confirm the confirmed commit")
    nc.close()
    subprocess.run([sys.executable, EMULATOR, state, "--fire-timers"], check=True)
    _, out, _ = cli(state, "show configuration interfaces | display set")
    if out != "set interfaces et-0/0/1 mtu 9216\n":
        fail("a confirmed commit confirmed by a plain commit did not stay: %r" % out)
    print("ok confirmed commit: confirmed by a plain commit, it stays (nothing for the fire hook)")


def locking():
    state = switch({"et-0/0/1": {"speed": 400000, "oper": "up"}})
    a, b = Netconf(state), Netconf(state)
    check_ok(a.rpc("<lock><target><candidate/></target></lock>"), "lock")
    reply = b.rpc("<lock><target><candidate/></target></lock>")
    if not errors(reply) or not errors(reply)[0].startswith("configuration database locked by:") or \
            reply.findtext(".//error-tag") != "lock-denied":
        fail("a second session's lock: %s" % ET.tostring(reply, encoding="unicode"))
    check_ok(a.load(["set interfaces et-0/0/1 mtu 9000"]), "load")
    a.p.kill()  # the session ends without a word: its lock and its changes go
    a.p.wait()
    check_ok(b.rpc("<lock><target><candidate/></target></lock>"), "lock after the holder ended")
    check_ok(b.rpc("<commit-configuration/>"), "commit")
    _, out, _ = cli(state, "show configuration interfaces | display set")
    if out:
        fail("the uncommitted changes of a session that ended were committed by another: %r" % out)
    check_ok(b.rpc("<unlock><target><candidate/></target></unlock>"), "unlock")
    check_ok(b.load(["set interfaces et-0/0/1 mtu 9000"]), "load without a lock")
    c = Netconf(state)
    reply = c.rpc("<lock><target><candidate/></target></lock>")
    if errors(reply) != ["configuration database modified"]:
        fail("lock of a modified candidate: %s" % ET.tostring(reply, encoding="unicode"))
    c.close()
    b.close()
    print("ok lock: a second session refused, a dead holder's lock and changes gone, a modified candidate "
          "not lockable")


def main():
    fixtures = sys.argv[1]
    grammar(fixtures)
    refusals()
    shapes(fixtures)
    confirmed(fixtures)
    locking()


if __name__ == "__main__":
    main()

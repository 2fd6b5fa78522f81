#!/usr/bin/python3
"""The emulated EOS switch refuses what EOS refuses, as EOS says it: every row of eos_grammar.REFUSALS sent
through the emulator's own CLI entry (SSH_ORIGINAL_COMMAND, as sshd runs it) inside a configure session,
and a second session's commit timer while one runs. Each refused line must print EOS's message, leave the
exec's status 0 (EOS's CLI goes on with the next line) and not be taken; the second timer must be refused
with running unchanged. Prints one line per case; exit 1 on the first that does not hold."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EMULATOR = os.path.join(HERE, "emulators", "eos.py")
sys.path.insert(0, os.path.join(HERE, "emulators"))
import eos_grammar  # noqa: E402


def switch(chip):
    state = os.path.join(tempfile.mkdtemp(), "sw1", "state")
    os.makedirs(state)
    with open(os.path.join(state, "ports.json"), "w") as f:
        json.dump({"Ethernet1": {"speed": 400000, "oper": "up"}}, f)
    with open(os.path.join(state, "chip.txt"), "w") as f:
        f.write(chip + "\n")
    subprocess.run([sys.executable, EMULATOR, state, "--factory"], check=True)
    return state


def cli(state, command):
    env = dict(os.environ, SSH_ORIGINAL_COMMAND=command)
    p = subprocess.run([sys.executable, EMULATOR, state], env=env, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def session(state, name):
    with open(os.path.join(state, "sessions.json")) as f:
        return json.load(f)[name]["config"]


def fail(why):
    print("FAIL: " + why)
    sys.exit(1)


def in_mode(mode, line, chip):
    if mode == "top":
        return line
    if mode == "interface":
        return "interface Ethernet1\n   " + line
    return "interface Ethernet1\n   %s 3\n      %s" % (eos_grammar.CHIPS[chip], line)


def refusals():
    switches = {}  # chip -> a switch of it; each case in a session of its own
    for n, (mode, line, chip, message, source) in enumerate(eos_grammar.REFUSALS):
        if chip not in switches:
            switches[chip] = switch(chip)
        state, name = switches[chip], "s%d" % n
        cli(state, "configure session %s\n%s\nend" % (name, in_mode(mode, "", chip).rstrip()))
        before = session(state, name)
        status, out, err = cli(state, "configure session %s\n%s\nend" % (name, in_mode(mode, line, chip)))
        if status != 0 or out != message + "\n" or err:
            fail("%r (%s): status %d, stdout %r, stderr %r; EOS prints %r" % (line, source, status, out, err, message))
        if session(state, name) != before:
            fail("%r: refused but taken into the session" % line)
        print("ok: %s -> %s  [%s]" % (line, message, source))


def one_timer():
    state = switch(eos_grammar.DEFAULT_CHIP)
    try:
        for name, mtu in (("a", 9100), ("b", 9000)):
            status, out, err = cli(state, "configure session %s\ninterface Ethernet1\n   mtu %d\nend" % (name, mtu))
            if status or out or err:
                fail("session %s: %d %r %r" % (name, status, out, err))
        if cli(state, "configure session a commit timer 00:05:00")[0] != 0:
            fail("the first commit timer was refused")
        status, out, err = cli(state, "configure session b commit timer 00:05:00")
        if status != 1 or not err.startswith("% ") or "session a" not in err:
            fail("a second commit timer: status %d, stderr %r" % (status, err))
        running = cli(state, "show running-config")[1]
        if "   mtu 9100\n" not in running:
            fail("a refused commit timer changed running:\n" + running)
        detail = json.loads(cli(state, "show configuration sessions detail | json")[1])
        if detail["sessions"]["b"]["state"] != "pending" or detail["sessions"]["a"]["state"] != "pendingCommitTimer":
            fail("sessions after the refusal: %r" % detail["sessions"])
        print("ok: a second session's commit timer is refused while session a's runs: " + err.strip())
    finally:
        subprocess.run([sys.executable, EMULATOR, state, "--fire-timers"], check=False)


if __name__ == "__main__":
    refusals()
    one_timer()

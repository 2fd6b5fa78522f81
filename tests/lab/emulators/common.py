"""What every NOS emulator here does the same way: its state files, port order, and the answers a test
puts in place of the emulator's own (STATE/answers.json: {"<command>": {"stdout": "...", "stderr": "...",
"exit": 1}}). A key that ends in "*" answers every command it is a prefix of; "sleep": seconds makes
the answer wait first (a device that hangs); an answer of only "sleep" is the emulator's own, late."""
import fcntl
import json
import os
import re
import shlex
import sys
import time


def load(state, name, default):
    """STATE/NAME as JSON, or `default` when the file is not there."""
    try:
        with open(os.path.join(state, name)) as f:
            return json.load(f)
    except FileNotFoundError:
        return default


def natural(name):
    """Sort key: Ethernet2 before Ethernet10, swp1s2 before swp10."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def answered(state, command):
    """Writes a test's answer for `command` and returns its exit status; None when there is none."""
    answers = load(state, "answers.json", {})
    answer = answers.get(command)
    if answer is None:
        answer = next((a for k, a in answers.items() if k.endswith("*") and command.startswith(k[:-1])), None)
    if answer is None:
        return None
    time.sleep(answer.get("sleep", 0))
    if set(answer) == {"sleep"}:
        return None  # only slow: the emulator answers as usual
    sys.stdout.write(answer.get("stdout", ""))
    sys.stderr.write(answer.get("stderr", ""))
    return answer.get("exit", 0)


def locked(state):
    """The switch's lock (STATE/lock), held until the returned file is closed: one command at a time
    changes the state, as the NOS's own configuration daemon serialises its clients."""
    f = open(os.path.join(state, "lock"), "a")
    fcntl.flock(f, fcntl.LOCK_EX)
    return f


def command_words():
    """The SSH command (SSH_ORIGINAL_COMMAND), split into words as the switch's login shell would: quotes
    removed; unbalanced quotes split on spaces, for the NOS to refuse."""
    raw = os.environ.get("SSH_ORIGINAL_COMMAND", "")
    try:
        return shlex.split(raw)
    except ValueError:
        return raw.split()

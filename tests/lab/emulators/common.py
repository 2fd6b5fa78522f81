"""What every NOS emulator here does the same way: its state files, port order, and the answers a test
puts in place of the emulator's own (STATE/answers.json: {"<command>": {"stdout": "...", "stderr": "...",
"exit": 1}})."""
import json
import os
import re
import sys


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
    answer = load(state, "answers.json", {}).get(command)
    if answer is None:
        return None
    sys.stdout.write(answer.get("stdout", ""))
    sys.stderr.write(answer.get("stderr", ""))
    return answer.get("exit", 0)

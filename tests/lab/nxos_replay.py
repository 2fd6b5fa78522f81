#!/usr/bin/python3
"""The emulated NX-OS switch against real NX-OS output (tests/fixtures/nxos, provenance in SOURCES.md):
what NX-OS printed, the emulator must take, and what the emulator prints must have NX-OS's shape.

  nxos_replay.py FIXTURES_DIR   (tests/fixtures/nxos)

1. Grammar: the real leaf's `show running-config ipqos` (NX-OS 10.3(2)) is pasted into the emulator as it
   was printed; NX-OS printed it, so NX-OS takes it: no line may be refused. The emulator's own `show
   running-config` then holds every one of its lines, in the same blocks.
2. Refusals: values beyond the ranges of Cisco's model are refused with NX-OS's parser error.
3. Shapes: every key the emulator's `show interface | json` and `show lldp neighbors detail | json` print is
   a key the real outputs have, with the same JSON type; a single LLDP row is an object, as NX-OS prints it.
Prints one line per check; exit 1 on the first that does not hold."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EMULATOR = os.path.join(HERE, "emulators", "nxos.py")


def fail(why):
    print("FAIL: " + why)
    sys.exit(1)


def switch(ports):
    state = os.path.join(tempfile.mkdtemp(), "sw1", "state")
    os.makedirs(state)
    with open(os.path.join(state, "ports.json"), "w") as f:
        json.dump(ports, f)
    subprocess.run([sys.executable, EMULATOR, state, "--factory"], check=True)
    return state


def cli(state, command):
    p = subprocess.run([sys.executable, EMULATOR, state], env=dict(os.environ, SSH_ORIGINAL_COMMAND=command),
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def device_lines(path):
    """The device's lines of the capture: after its heading, before the prompt (SOURCES.md)."""
    with open(path) as f:
        text = f.read()
    return text[text.index("!Command:"):text.rindex("leaf1#")]


def blocks(text):
    """{top-level line: [its indented lines]} of a running-config, comments and `version` aside."""
    out, current = {}, None
    for raw in text.splitlines():
        if not raw.strip() or raw.startswith(("!", "version ")):
            continue
        if raw[0] != " ":
            current = raw.rstrip()
            out.setdefault(current, [])
        else:
            out[current].append(raw.rstrip())
    return out


def keys_and_types(value, path, out):
    if isinstance(value, dict):
        for k, v in value.items():
            keys_and_types(v, path + "." + k, out)
    elif isinstance(value, list):
        for v in value:
            keys_and_types(v, path, out)
    else:
        out.setdefault(path, set()).add(type(value).__name__)
    return out


def body(path):
    with open(path) as f:
        doc = json.load(f)
    if "output" in doc:
        return doc["output"]["body"]
    if "ins_api" in doc:
        return doc["ins_api"]["outputs"]["output"]["body"]
    return doc


def main():
    fixtures = sys.argv[1]
    ports = {"Ethernet1/%d" % i: {"speed": 400000, "oper": "up"} for i in (1, 2, 3, 4, 5, 6, 9, 11)}
    state = switch(ports)
    real = device_lines(os.path.join(fixtures, "show-running-config-ipqos_10.3.2_ndfc-aiml.txt"))
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
        f.write(real)
    p = subprocess.run([sys.executable, EMULATOR, state, "--load", f.name], capture_output=True, text=True)
    if p.returncode != 0:
        fail("the emulator refuses a line of the real running-config: " + p.stderr.strip())
    _, out, _ = cli(state, "show running-config")
    want, got = blocks(real), blocks(out)
    for header, lines in want.items():
        if header not in got:
            fail("the emulator's running-config lacks the block %r" % header)
        if sorted(lines) != sorted(got[header]):
            fail("block %r: the emulator prints %r, NX-OS printed %r" % (header, got[header], lines))
    print("ok grammar: the real leaf's %d blocks taken, and printed back alike" % len(want))

    refused = ["interface Ethernet1/1 ; mtu 9217", "interface Ethernet1/1 ; mtu 575",
               "policy-map type queuing X ; class type queuing c-out-8q-q3 ; bandwidth remaining percent 101",
               "policy-map type queuing X ; class type queuing c-out-8q-q3 ; priority level 9",
               "policy-map type network-qos X ; class type network-qos c-8q-nq0",
               "class-map type qos match-any X ; match dscp 64", "policy-map type qos X ; class Y ; set qos-group 8"]
    for commands in refused:
        status, out, _ = cli(state, "configure terminal ; %s ; end" % commands)
        if "% Invalid command at '^' marker." not in out:
            fail("the emulator takes %r, beyond Cisco's model" % commands)
    print("ok refusals: %d lines beyond Cisco's model refused with NX-OS's parser error" % len(refused))

    two = switch({"Ethernet1/1": {"speed": 400000, "oper": "up", "lldp": ["spine1", "Ethernet1/9"]},
                  "Ethernet1/2": {"speed": 400000, "oper": "down", "lldp": ["spine2", "Ethernet1/9"]}})
    for command, real_file in (("show interface | json", "show-interface_n9k-c9336c-fx2_harvest.json"),
                               ("show lldp neighbors detail | json", "show-lldp-neighbors-detail_harvest.json")):
        status, out, _ = cli(two, command)
        mine = keys_and_types(json.loads(out), "", {})
        theirs = keys_and_types(body(os.path.join(fixtures, real_file)), "", {})
        for path, types in mine.items():
            if path not in theirs:
                fail("%s: the emulator prints %s, which the real output has not" % (command, path))
            if not types <= theirs[path]:
                fail("%s: %s is %s in the emulator, %s in the real output" % (command, path, types, theirs[path]))
        print("ok shape: %s, %d keys, each with the real output's type" % (command, len(mine)))
    one = switch({"Ethernet1/1": {"speed": 400000, "oper": "up", "lldp": ["spine1", "Ethernet1/9"]}})
    _, out, _ = cli(one, "show lldp neighbors detail | json")
    if not isinstance(json.loads(out)["TABLE_nbor_detail"]["ROW_nbor_detail"], dict):
        fail("one LLDP neighbour is printed as a list; NX-OS prints a table of one row as the row itself")
    print("ok shape: a table of one row is the row")


if __name__ == "__main__":
    main()

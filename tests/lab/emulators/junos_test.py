#!/usr/bin/python3
"""The Junos emulator's grammar and configuration semantics (junos_grammar.py, junos.py), run by
tests/cli/junos_replay.sh before the replay against real Junos material (tests/lab/junos_replay.py):
  - every statement form fabricctl sends is taken (FABRICCTL below, the forms of its Junos renderer);
  - every row of the grammar names its source;
  - a leaf's second `set` replaces it, a leaf-list's adds members, a list entry's adds an entry;
  - `delete` takes a statement or a whole hierarchy, and warns of one that is not there;
  - what Junos refuses at load names the word it refuses;
  - the IP MTU the netdevs get is the media MTU - 14, or unit 0's `family inet mtu`;
  - `rollback N` loads the Nth previous commit; an unknown CLI command is an error printed with status 0."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import junos  # noqa: E402
import junos_grammar as g  # noqa: E402

EMULATOR = os.path.join(HERE, "junos.py")

FABRICCTL = [
    "set class-of-service forwarding-classes class CNP queue-num 3",
    "set class-of-service forwarding-classes class NO-LOSS queue-num 4 no-loss pfc-priority 3",
    "set class-of-service classifiers dscp dscp-cl forwarding-class NO-LOSS loss-priority low code-points 011010",
    "set class-of-service classifiers ieee-802.1 pcp-cl forwarding-class NO-LOSS loss-priority low code-points 011",
    "set class-of-service congestion-notification-profile cnp input dscp code-point 011010 pfc",
    "set class-of-service congestion-notification-profile cnp2 input ieee-802.1 code-point 011 pfc",
    "set class-of-service congestion-notification-profile cnp output ieee-802.1 code-point 011 flow-control-queue 4",
    "set class-of-service congestion-notification-profile cnp pfc-watchdog",
    "set class-of-service congestion-notification-profile cnp pfc-watchdog poll-interval 100",
    "set class-of-service congestion-notification-profile cnp pfc-watchdog detection 2",
    "set class-of-service congestion-notification-profile cnp pfc-watchdog recovery 200",
    "set class-of-service congestion-notification-profile cnp pfc-watchdog watchdog-action forward",
    "set class-of-service drop-profiles dp1 interpolate fill-level [ 55 90 ]",
    "set class-of-service drop-profiles dp1 interpolate drop-probability [ 0 100 ]",
    "set class-of-service schedulers s-cnp transmit-rate percent 5",
    "set class-of-service schedulers s-cnp priority strict-high",
    "set class-of-service schedulers s1 explicit-congestion-notification",
    "set class-of-service schedulers s1 drop-profile-map loss-priority any protocol any drop-profile dp1",
    "set class-of-service scheduler-maps sm1 forwarding-class NO-LOSS scheduler s1",
    "set class-of-service interfaces et-0/0/1:2 congestion-notification-profile cnp",
    "set class-of-service interfaces xe-0/0/2 scheduler-map sm1",
    "set class-of-service interfaces ge-0/0/3 unit 0 classifiers dscp dscp-cl",
    "set class-of-service interfaces et-0/0/1 unit 0 classifiers ieee-802.1 pcp-cl",
    "set interfaces et-0/0/1 mtu 9216",
]


def applied(config, lines):
    results = junos.apply(config, lines)
    return [r for r in results if r[0] == "error"], [r for r in results if r[0] == "warning"]


def test_fabricctl_forms():
    config = []
    errors, warnings = applied(config, FABRICCTL)
    assert not errors and not warnings, errors
    assert "class-of-service forwarding-classes class NO-LOSS no-loss" in config
    assert "class-of-service drop-profiles dp1 interpolate fill-level 90" in config
    assert "class-of-service congestion-notification-profile cnp pfc-watchdog watchdog-action forward" in config


def test_sources():
    for pattern, kind, source, checks in g.ROWS:
        assert source.strip(), pattern
        assert kind in ("leaf", "list", "flag", "expand"), pattern


def test_leaf_replaces_list_adds():
    config = []
    applied(config, ["set interfaces et-0/0/1 mtu 9000", "set interfaces et-0/0/1 mtu 9216"])
    assert config == ["interfaces et-0/0/1 mtu 9216"]
    p = "set class-of-service drop-profiles dp1 interpolate fill-level "
    applied(config, [p + "55", p + "90", p + "[ 55 90 ]"])
    assert [c for c in config if "fill-level" in c] == [p[4:] + "55", p[4:] + "90"]
    cnp = "set class-of-service interfaces et-0/0/1 congestion-notification-profile "
    applied(config, [cnp + "a", cnp + "b"])
    assert [c for c in config if "congestion-notification-profile" in c] == [cnp[4:] + "b"]
    # unit classifiers: dscp is a YANG list (QFXC:4358): a second name is a second entry; ieee-802.1 is a leaf
    u = "set class-of-service interfaces et-0/0/1 unit 0 classifiers "
    applied(config, [u + "dscp a", u + "dscp b", u + "ieee-802.1 x", u + "ieee-802.1 y"])
    assert [c[len(u) - 4:] for c in config if "unit 0 classifiers" in c] == ["dscp a", "dscp b", "ieee-802.1 y"]
    # a one-liner's statements merge with what the class has
    fc = "set class-of-service forwarding-classes class NO-LOSS "
    applied(config, [fc + "queue-num 4", fc + "queue-num 5 no-loss pfc-priority 3"])
    assert [c for c in config if "class NO-LOSS" in c] == [fc[4:] + "queue-num 5", fc[4:] + "no-loss",
                                                            fc[4:] + "pfc-priority 3"]


def test_delete():
    config = []
    applied(config, FABRICCTL)
    errors, warnings = applied(config, ["delete class-of-service schedulers s1"])
    assert not errors and not warnings and not any(" schedulers s1 " in c for c in config)
    applied(config, ["delete class-of-service drop-profiles dp1 interpolate fill-level 55"])
    assert [c for c in config if "fill-level" in c] == ["class-of-service drop-profiles dp1 interpolate fill-level 90"]
    errors, warnings = applied(config, ["delete class-of-service schedulers s1"])
    assert not errors and warnings == [("warning", "statement not found", None)]
    errors, _ = applied(config, ["delete class-of-service frobnicate"])
    assert errors == [("error", "syntax error", "frobnicate")]
    applied(config, ["delete class-of-service"])
    assert config == ["interfaces et-0/0/1 mtu 9216"]


def test_unknown_statement_in_state():
    # A state file holding a statement the grammar does not know (written by hand, or by an older
    # emulator): loading beside it still works, and it stays as it is.
    config = ["system frobnicate yes"]
    errors, _ = applied(config, ["set interfaces et-0/0/1 mtu 9216"])
    assert not errors and config == ["system frobnicate yes", "interfaces et-0/0/1 mtu 9216"]


def test_refused_words():
    cases = [("set class-of-service schedulers s1 priority urgent", "syntax error", "urgent"),
             ("set class-of-service classifiers dscp c1 forwarding-class F loss-priority lowest code-points 000000",
              "syntax error", "lowest"),
             ("set class-of-service congestion-notification-profile c pfc-watchdog watchdog-action halt",
              "syntax error", "halt"),
             ("set protocols lldp interface all", "syntax error", "protocols"),
             ("set interfaces et-0/0/1 number-of-sub-ports 9", "value 9 is not within range (1..8)", "9"),
             ("set class-of-service shared-buffer ingress buffer-partition lossless dynamic-threshold 11",
              "value 11 is not within range (0..10)", "11"),
             ("set interfaces et-0/0/1 description \"unclosed", "syntax error", '"')]
    for line, message, element in cases:
        errors, _ = applied([], [line])
        assert errors == [("error", message, element)], (line, errors)


def test_quotes_and_mtus():
    config = []
    applied(config, ['set interfaces et-0/0/0:0 description "to spine1"', "set interfaces et-0/0/0:1 description "
                     '"plain"', "set interfaces et-0/0/0:0 mtu 9216", "set interfaces et-0/0/0:1 mtu 9216",
                     "set interfaces et-0/0/0:1 unit 0 family inet mtu 9170"])
    assert 'interfaces et-0/0/0:0 description "to spine1"' in config
    assert "interfaces et-0/0/0:1 description plain" in config
    assert junos.ip_mtus(config, ["et-0/0/0:0", "et-0/0/0:1", "et-0/0/2"]) == \
        {"et-0/0/0:0": 9202, "et-0/0/0:1": 9170, "et-0/0/2": 1500}


def test_cli_and_rollback():
    with tempfile.TemporaryDirectory() as state:
        with open(os.path.join(state, "ports.json"), "w") as f:
            json.dump({"et-0/0/1": {"speed": 400000, "oper": "up"}}, f)
        run = lambda *a: subprocess.run([sys.executable, EMULATOR, state] + list(a), capture_output=True, text=True)
        assert run("--factory").returncode == 0
        with open(os.path.join(state, "a.set"), "w") as f:
            f.write("# rendered\nset interfaces et-0/0/1 mtu 9216\n")
        assert run("--load", os.path.join(state, "a.set")).returncode == 0
        with open(os.path.join(state, "b.set"), "w") as f:
            f.write("set interfaces et-0/0/1 mtu 9300\n")
        p = run("--load", os.path.join(state, "b.set"))
        assert p.returncode == 1 and "configuration check-out failed" in p.stderr, p.stderr
        env = dict(os.environ, SSH_ORIGINAL_COMMAND="show chassis hardware")
        p = subprocess.run([sys.executable, EMULATOR, state], env=env, capture_output=True, text=True)
        assert p.returncode == 0 and p.stdout == "error: syntax error, expecting <command>: chassis\n", p.stdout
        s = junos.Session(state)
        with junos.locked(state):
            import xml.etree.ElementTree as ET
            assert "<ok/>" in s.rpc_load_configuration(ET.fromstring('<load-configuration rollback="1"/>'))
            assert junos.candidate(state) == []
            assert "<ok/>" in s.rpc_discard_changes(None)
            assert junos.candidate(state) == ["interfaces et-0/0/1 mtu 9216"]


def key_paths(value, at=""):
    """Every key path of a `display json` document, arrays' elements taken as one."""
    out = set()
    if isinstance(value, list):
        for v in value:
            out |= key_paths(v, at)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.add(at + "/" + k)
            out |= key_paths(v, at + "/" + k)
    return out


def test_extensive_shape_is_the_qfx_outputs():
    # Every element the emulator prints for a port is where the Junos 22.4 QFX's output has it (its XML
    # mapped to JSON, tests/fixtures/junos/SOURCES.md), and the counters land in the named elements.
    fixture = os.path.join(HERE, "..", "..", "fixtures", "junos",
                           "show-interfaces-extensive-pfc.qfx-22.4.apstra-iba-doc.derived.json")
    with open(fixture) as f:
        real = [r for r in json.load(f)["interface-information"][0]["physical-interface"]
                if r["name"][0]["data"] == "et-0/0/24"][0]
    config = ["class-of-service forwarding-classes class TC3 queue-num 3", "interfaces et-0/0/1 mtu 9216"]
    counters = {"et-0/0/1": {"framing-errors": 9, "carrier-transitions": 2, "fec_nccw_count": 4,
                             "pfc": {"3": {"input": 5, "output": 6}}, "queues": {"3": {"transmitted": 10, "dropped": 1}}}}
    text = junos.show_interfaces_extensive(config, {"et-0/0/1": {"speed": 400000, "oper": "up"}}, counters)
    assert text.endswith(junos.PROMPT)
    row = json.loads(text.removesuffix(junos.PROMPT))["interface-information"][0]["physical-interface"][0]
    # What the plain command prints is checked against the vQFX's output elsewhere (junos_replay.py); the
    # elements extensive adds against this one.
    plain = json.loads(junos.show_interfaces(config, {"et-0/0/1": {}}).removesuffix(junos.PROMPT))
    missing = key_paths(row) - key_paths(plain["interface-information"][0]["physical-interface"][0]) - key_paths(real)
    assert not missing, missing
    assert len(key_paths(row)) > len(key_paths(plain)) + 30
    assert row["input-error-list"][0]["framing-errors"] == [{"data": "9"}]
    assert row["output-error-list"][0]["carrier-transitions"] == [{"data": "2"}]
    assert row["ethernet-fec-statistics"][0]["fec_nccw_count"] == [{"data": "4"}]
    pfc = {e["mac-pfc-dot1p"][0]["data"]: e for e in row["ethernet-mac-pfc-statistics"]}
    assert sorted(pfc) == [str(p) for p in range(8)]
    assert pfc["3"]["input-mac-pfc-frames"] == [{"data": "5"}] and pfc["3"]["output-mac-pfc-frames"] == [{"data": "6"}]
    queues = row["queue-counters"][0]["queue"]
    assert [q["queue-number"][0]["data"] for q in queues] == ["3"]  # the configured class's queue only
    assert queues[0]["queue-counters-trans-packets"] == [{"data": "10"}]
    assert queues[0]["queue-counters-total-drop-packets"] == [{"data": "1"}]
    default = json.loads(junos.show_interfaces_extensive([], {"et-0/0/1": {}}, {}).removesuffix(junos.PROMPT))
    assert [q["queue-number"][0]["data"]
            for q in default["interface-information"][0]["physical-interface"][0]["queue-counters"][0]["queue"]] == \
        ["0", "3", "4", "7"]


def main():
    tests = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_")]
    for name, f in tests:
        f()
        print("ok %s" % name)


if __name__ == "__main__":
    main()

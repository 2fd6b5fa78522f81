#!/usr/bin/python3
"""The emulated SONiC switch against real SONiC output (shared/reference/outputs/sonic, provenance in
SOURCES.md): what SONiC printed, the emulator must print in the same shape, and what SONiC's own
renders hold, the emulator must take and treat as SONiC's daemons do.

  sonic_replay.py OUTPUTS_DIR   (shared/reference/outputs/sonic)

1. `show interfaces status` and `show lldp table`: the emulator's tables are tabulate's "simple" layout
   as the real ones are (a header, a dashed rule under each column, two spaces between columns), every
   column of the real header is in the emulator's in the same order, and `show lldp table`'s first line
   and footer are the real ones.
2. The per-port QoS render of `config qos reload --ports` (update_qos.json: pfc_enable "3,4", a 300m
   cable), loaded as `config load` would: every entry kept as rendered, and the traditional model's
   buffermgrd then writes the lossless PG "Ethernet0|3-4" with its pg_lossless_<speed>_<cable>_profile,
   as sonic-swss cfgmgr/buffermgr.cpp does; nothing else.
3. The whole-switch render of `config qos reload` (its QoS and buffer tables): loaded onto the factory
   tables, `show runningconfiguration all` gives back every entry and value as rendered, all strings.
4. The emulator's factory tables (sonic_factory.py) against that render: the maps, schedulers and WRED
   profile qos_config.j2 renders on every switch are the real render's, key for key; and the factory
   CONFIG_DB of a switch with neighbours is valid for SONiC's own YANG models (with the checker in
   shared/tools, which sits beside these outputs).
5. The counter commands: COUNTERS_DB holding the values SONiC's own tests print, the emulator's `show
   pfc counters` and `show pfcwd stats` are those outputs byte for byte (pfcstat and pfcwd/main.py's
   tabulate layout, thousands separators, the blank line between the Rx and Tx tables); `show queue
   counters --json` has the real output's shape: per port, queue objects named UC<n>/MC<n>/ALL<n> of the
   same four keys, every value a string, laid out as json_dump lays out the real one (sorted keys,
   indent 2), with the "time" the real one has before sonic-utilities' test deletes it.
Prints one line per check; exit 1 on the first that does not hold."""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EMULATOR = os.path.join(HERE, "emulators", "sonic.py")


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
    env = dict(os.environ, SSH_ORIGINAL_COMMAND=command)
    p = subprocess.run([sys.executable, EMULATOR, state], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        fail("%s: exit %d: %s" % (command, p.returncode, p.stderr[-300:]))
    return p.stdout


def load(state, db):
    path = os.path.join(os.path.dirname(state), "load.json")
    with open(path, "w") as f:
        json.dump(db, f)
    subprocess.run([sys.executable, EMULATOR, state, "--load", path], check=True)
    with open(os.path.join(state, "config_db.json")) as f:
        return json.load(f)


def columns(lines, what):
    """The header's column names and the rule's column widths of a tabulate "simple" table at lines[0:2]."""
    header, rule = lines[0], lines[1]
    if not re.fullmatch(r"-+(  -+)*", rule):
        fail("%s: the line under the header is not tabulate's rule: %r" % (what, rule))
    widths = [len(r) for r in rule.split("  ")]
    names, at = [], 0
    for w in widths:
        names.append(header[at:at + w].strip())
        at += w + 2
    if "  ".join(n for n in names) != re.sub(r" {2,}", "  ", header.strip()):
        fail("%s: the header does not sit over the rule's columns: %r / %r" % (what, header, rule))
    return names


def in_order(real, emulated):
    at = 0
    for name in real:
        if name not in emulated[at:]:
            return False
        at = emulated.index(name, at) + 1
    return True


def shapes(outputs):
    state = switch({"Ethernet0": {"speed": "100G", "oper": "up", "lldp": ["T1-1", "hundredGigE1/2"]},
                    "Ethernet4": {"speed": "100G", "oper": "down"}})
    with open(os.path.join(outputs, "show-interfaces-status_cmdref.txt")) as f:
        real = f.read().splitlines()[:-1]  # SOURCES.md: the last line is the doc's, not the switch's
    emulated = cli(state, "show interfaces status").splitlines()
    real_cols, emu_cols = columns(real, "real show interfaces status"), columns(emulated, "emulated status")
    if not in_order(real_cols, emu_cols):
        fail("show interfaces status: the real columns %s are not all in the emulator's %s, in order"
             % (real_cols, emu_cols))
    print("ok: show interfaces status: tabulate's layout; the real columns %s in the emulator's order" % real_cols)

    with open(os.path.join(outputs, "show-lldp-table_cmdref.txt")) as f:
        real = f.read().splitlines()
    emulated = cli(state, "show lldp table").splitlines()
    if emulated[0] != real[0]:
        fail("show lldp table: first line %r, SONiC prints %r" % (emulated[0], real[0]))
    if columns(emulated[1:], "emulated lldp") != columns(real[1:], "real lldp"):
        fail("show lldp table: columns differ from SONiC's")
    footer = re.compile(r"Total entries displayed:  [0-9]+")
    if real[-2] != emulated[-2] or not footer.fullmatch(real[-1]) or not footer.fullmatch(emulated[-1]):
        fail("show lldp table: footer %r, SONiC prints %r" % (emulated[-2:], real[-2:]))
    print("ok: show lldp table: the capability line, columns and footer as SONiC prints them")


def buffermgrd(outputs):
    with open(os.path.join(outputs, "config-db_port-qos-map-buffer-pg_update-qos.json")) as f:
        render = json.load(f)
    state = switch({"Ethernet0": {"speed": "100G", "oper": "up"}})
    db = load(state, render)
    for table, entries in render.items():
        for key, fields in entries.items():
            if db.get(table, {}).get(key) != fields:
                fail("update_qos.json: %s|%s is %r after config load, rendered %r"
                     % (table, key, db.get(table, {}).get(key), fields))
    written = {k: v for k, v in db["BUFFER_PG"].items() if k not in render["BUFFER_PG"]}
    want = {"Ethernet0|3-4": {"profile": "pg_lossless_100000_300m_profile"}}
    if written != want:
        fail("buffermgrd on update_qos.json wrote %r, buffermgr.cpp writes %r" % (written, want))
    print("ok: update_qos.json loads as rendered; buffermgrd adds %s" % json.dumps(want))


def running(outputs):
    with open(os.path.join(outputs, "config-db_qos-tables_qos-reload-render.json")) as f:
        render = json.load(f)
    state = switch({"Ethernet0": {"speed": "100G", "oper": "up"}})
    load(state, render)
    shown = json.loads(cli(state, "show runningconfiguration all"))
    for table, entries in render.items():
        if not entries:
            continue  # config load writes no empty table; Redis holds no empty hash
        # config load merges field by field onto the factory's tables: every loaded field shows as loaded.
        for key, fields in entries.items():
            have = shown.get(table, {}).get(key, {})
            if any(have.get(f) != v for f, v in fields.items()):
                fail("show runningconfiguration all: %s|%s is %r, loaded %r" % (table, key, have, fields))
        if any(not isinstance(v, str) for e in entries.values() for v in e.values()):
            fail("%s: a value that is not a string" % table)
    print("ok: config qos reload's render (%d tables) shown back as loaded" % len([t for t in render if render[t]]))


def factory(outputs):
    sys.path.insert(0, os.path.join(HERE, "emulators"))
    import sonic_factory
    import sonic_yang

    with open(os.path.join(outputs, "config-db_qos-tables_qos-reload-render.json")) as f:
        render = json.load(f)
    for table, entries in sonic_factory.QOS_TABLES.items():
        if render.get(table) != entries:
            fail("factory %s is %r, config qos reload renders %r" % (table, entries, render.get(table)))
    ports = {"Ethernet%d" % (8 * i): {"speed": "400G", "oper": "up", "lldp": ["host%d" % i, "ens1f0np0"]}
             for i in range(4)}
    ports["Ethernet32"] = {"speed": "400G", "oper": "down"}
    db = sonic_factory.factory_db(ports)
    if sonic_yang.checker() is None:
        fail("no SONiC YANG checker beside these outputs (emulators/sonic_yang.py)")
    why = sonic_yang.invalid(db)
    if why:
        fail("the factory CONFIG_DB is invalid for SONiC's YANG models: " + why)
    print("ok: factory maps, schedulers and WRED as config qos reload renders them (%d tables); the factory "
          "CONFIG_DB of %d ports (%d with neighbours) valid for SONiC's YANG models"
          % (len(sonic_factory.QOS_TABLES), len(db["PORT"]), len(db["DEVICE_NEIGHBOR"])))


def counters(outputs):
    with open(os.path.join(outputs, "show-pfc-counters_pfcstat-test.txt")) as f:
        pfc = f.read()
    with open(os.path.join(outputs, "show-pfcwd-stats_pfcwd-test.txt")) as f:
        wd = f.read()
    db = {}
    for block, direction in zip(pfc.split("\n\n"), ("RX", "TX")):
        for line in block.splitlines()[2:]:
            cells = line.split()
            db.setdefault(cells[0], {}).update({"SAI_PORT_STAT_PFC_%d_%s_PKTS" % (p, direction): v.replace(",", "")
                                                for p, v in enumerate(cells[1:])})
    names = [("DEADLOCK_DETECTED", "DEADLOCK_RESTORED"), ("TX_PACKETS", "TX_DROPPED_PACKETS"),
             ("RX_PACKETS", "RX_DROPPED_PACKETS"), ("TX_PACKETS_LAST", "TX_DROPPED_PACKETS_LAST"),
             ("RX_PACKETS_LAST", "RX_DROPPED_PACKETS_LAST")]
    for line in wd.splitlines()[2:]:
        cells = line.split()
        entry = db.setdefault(cells[0], {"PFC_WD_STATUS": cells[1]})
        for (a, b), pair in zip(names, cells[2:]):
            entry["PFC_WD_QUEUE_STATS_" + a], entry["PFC_WD_QUEUE_STATS_" + b] = pair.split("/")
    state = switch({p: {"speed": "100G", "oper": "up"} for p in db if ":" not in p})
    with open(os.path.join(state, "counters.json"), "w") as f:
        json.dump(db, f)
    for command, real in (("show pfc counters", pfc), ("show pfcwd stats", wd)):
        shown = cli(state, command)
        if shown != real:
            fail("%s: the emulator prints\n%s\nSONiC prints\n%s" % (command, shown, real))
    print("ok: show pfc counters and show pfcwd stats as SONiC prints them, byte for byte")
    with open(os.path.join(outputs, "show-queue-counters-Ethernet8-json_queue-counter-test.json")) as f:
        real_text = f.read()
    real = json.loads(real_text)
    if real_text.rstrip("\n") != json.dumps(real, indent=2, sort_keys=True):
        fail("the real queue counters are not laid out as json_dump lays them out")
    with open(os.path.join(state, "counters.json"), "w") as f:
        json.dump({"Ethernet0:3": {"SAI_QUEUE_STAT_PACKETS": "1200"}}, f)
    shown_text = cli(state, "show queue counters --json")
    shown = json.loads(shown_text)
    if shown_text.rstrip("\n") != json.dumps(shown, indent=2, sort_keys=True):
        fail("show queue counters --json: not laid out as json_dump lays it out:\n" + shown_text[:300])
    queue = re.compile(r"(UC|MC|ALL)[0-9]+")
    real_keys = {k for q in real["Ethernet8"].values() for k in q}
    for port, queues in shown.items():
        if not isinstance(queues.pop("time", None), str):
            fail("show queue counters --json: %s has no time of the reading" % port)
        for name, stats in queues.items():
            if not queue.fullmatch(name) or set(stats) != real_keys or not all(isinstance(v, str) for v in stats.values()):
                fail("show queue counters --json: %s %s is %r; SONiC's are %s of strings" % (port, name, stats, sorted(real_keys)))
    if shown["Ethernet0"]["UC3"]["totalpacket"] != "1200":
        fail("show queue counters --json: %r" % shown["Ethernet0"]["UC3"])
    print("ok: show queue counters --json in the shape SONiC prints it")


def main():
    outputs = sys.argv[1]
    shapes(outputs)
    buffermgrd(outputs)
    running(outputs)
    factory(outputs)
    counters(outputs)
    return 0


if __name__ == "__main__":
    sys.exit(main())

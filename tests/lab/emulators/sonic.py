#!/usr/bin/python3
"""A SONiC switch's CLI, as much of it as fabricctl reads, behind a real sshd (ForceCommand): each SSH
command runs this once with the command in SSH_ORIGINAL_COMMAND, answers in the shapes sonic-utilities
prints (shared/reference/outputs/sonic, docs/lab.md), and exits. Unknown commands are refused the way
click does (`Error: No such command "x".`, exit 2).

The switch's state is a directory (argument 1); every command holds STATE/lock (fcntl.flock) while it
runs, and so does the revert timer when it fires:
  config_db.json   its running CONFIG_DB (a rendered config_db.json loads as `config load` would:
                   its null entries delete, and are not kept), with what the traditional model's
                   buffermgrd writes back into it after every change (sonic_factory.buffermgrd)
  saved.json       /etc/sonic/config_db.json, the startup configuration: `config save`, --load, --factory
  checkpoints/NAME.cp.json   `config checkpoint NAME` (GCU's /etc/sonic/checkpoints)
  tmp/NAME         a file a command wrote under /tmp (`tee /tmp/NAME`)
  timers/NAME.json a transient systemd timer (systemd-run, below), unloaded once it has fired: the
                   one timer of every emulator (common.py), whose process runs CMD at the deadline
  ports.json       what CONFIG_DB does not hold: {"Ethernet0": {"speed": "400G", "oper": "up",
                   "lldp": ["host1", "ens1f0np0"]}}
  answers.json     for tests, answers that replace the emulator's own (common.py)
  counters.json    COUNTERS_DB, what the counter commands print (counters_db()); tests write it:
                   ports' SAI statistics by port (and APPL_DB's flap_count), queues' by "Ethernet0:3",
                   ingress PGs' under "PG"
  version.json     the image: {"build_version": "20230531.22", "asic_type": "broadcom"} (sonic_version.yml;
                   default that 202305 image); the HWSKU is DEVICE_METADATA|localhost's, as GCU reads it

Commands (split as the switch's login shell, bash, would; `sudo ` is a prefix; lists of them with `;` and
`&&`, and bash's echo, as common.py shell_list runs them):
  show runningconfiguration all, show interfaces status, show lldp table, show version,
  show pfc counters, show pfcwd stats [-e], show priority-group drop counters, portstat -e -j,
  portstat -f -j (202205+), show queue counters --json, show queue wredcounters --json (202505+),
  show interfaces flap (202411+)
  (from counters.json, COUNTERS_DB's keys),
  config interface pfc priority IF N on|off, config checkpoint NAME, config rollback NAME,
  config delete-checkpoint NAME, config apply-patch [-d] FILE, config load [-y] FILE, config save [-y],
  tee /tmp/NAME, rm -f /tmp/NAME..., cp [-p] between /etc/sonic/config_db.json (saved.json) and /tmp/NAME,
  systemd-run --on-active=Ns --timer-property=RemainAfterElapse=no --unit=NAME sh -c CMD,
  systemctl stop NAME.timer, systemctl list-units --type=timer --all --plain --no-legend 'fabricctl-*'. FILE may be /dev/stdin. GCU refuses patch operations on the QoS map
  tables some platforms block (REFUSED_BY_GCU), what its field validators refuse for the image and
  HWSKU (sonic_gcu.py; `config rollback` too) and values outside the YANG ranges it checks (PORT mtu
  68-9216), as `config apply-patch` reports them on the image's branch: click's "Error: ..." on
  stderr, exit 2.

  sonic.py STATE              answer $SSH_ORIGINAL_COMMAND
  sonic.py STATE --load FILE  `config load FILE -y` + `config save`: merge a config_db.json (onto the
                             factory CONFIG_DB on a new switch)
  sonic.py STATE --factory    the factory CONFIG_DB of the emulated SKU for the ports of ports.json, with
                             the QoS and buffer tables its templates render (sonic_factory.py)
  sonic.py STATE --timer NAME  the transient timer NAME's process (started by systemd-run; common.py)
  sonic.py STATE --fire-timers the fire hook: every transient timer runs its command now
"""
import json
import os
import re
import shlex
import sys

import lab_ports
import sonic_gcu
import sonic_yang
from sonic_factory import DEFAULT_MTU, buffermgrd, factory_db
from common import UNKNOWN, dispatch, answered, arm_timer, armed, command_words, disarm_timer, is_list, load, locked, natural, shell_list, timer_main

DEFAULT_VERSION = {"build_version": "20230531.22", "asic_type": "broadcom"}  # a 202305 image
# GCU's field operation validators block these tables on some platforms (sonic-utilities PR #4219:
# "blocked", apply-patch failures in the Patch Sorter); the emulator refuses them always, so a test
# proves fabricctl never sends them through apply-patch. The wording is GCU's validator message.
REFUSED_BY_GCU = ("DSCP_TO_TC_MAP", "TC_TO_QUEUE_MAP", "TC_TO_PRIORITY_GROUP_MAP")
NAME = re.compile(r"[A-Za-z0-9._-]{1,100}")


def patch_error(why, version=None):
    """How `config apply-patch` fails (config/main.py apply_patch): up to 202311 a red "Failed to
    apply patch", then click's ctx.fail; from 202405 the error of each scope (one, localhost, here),
    printed once as "Failed to apply patch due to: ..." and again by ctx.fail."""
    usage = ["Usage: config apply-patch [OPTIONS] PATCH_FILE_PATH", 'Try "config apply-patch -h" for help.', ""]
    b = sonic_gcu.branch((version or DEFAULT_VERSION).get("build_version", ""))
    if b is not None and b <= 202311:
        return ClickError(why, ["Failed to apply patch"] + usage)
    why = "Failed to apply patch on the following scopes:\n- localhost: " + why
    return ClickError(why, ["Failed to apply patch due to: " + why] + usage)


class ClickError(Exception):
    """A click failure: `Error: ...` on stderr, exit status 2 (ctx.fail); `lines` are printed first."""

    def __init__(self, message, lines=()):
        super().__init__(message)
        self.lines = lines


def table(header, rows, left=()):
    """python-tabulate's "simple" format, as sonic-utilities prints it: each column as wide as its widest
    cell and at least its header plus tabulate's MIN_PADDING (2), its cells right-aligned (stralign
    "right", as pfcstat and the status table ask) or, for the columns in `left`, left-aligned (tabulate's
    default for text); no trailing spaces."""
    widths = [max(len(h) + 2, *(len(r[i]) for r in rows)) if rows else len(h) + 2 for i, h in enumerate(header)]
    cell = lambda i, c: c.ljust(widths[i]) if i in left else c.rjust(widths[i])
    line = lambda cells: "  ".join(cell(i, c) for i, c in enumerate(cells)).rstrip()
    return "\n".join([line(header), "  ".join("-" * w for w in widths)] + [line(r) for r in rows]) + "\n"


def merge(db, update):
    """sonic-cfggen --write-to-db: field by field; a null table or entry is deleted."""
    for table_name, entries in update.items():
        if entries is None:
            db.pop(table_name, None)
            continue
        t = db.setdefault(table_name, {})
        for key, fields in entries.items():
            if fields is None:
                t.pop(key, None)
            else:
                t.setdefault(key, {}).update(fields)
        if not t:
            db.pop(table_name)


def save(state, name, value):
    path = os.path.join(state, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(value, f, indent=4, sort_keys=True)
    os.replace(path + ".tmp", path)


def set_running(state, db):
    buffermgrd(db)
    save(state, "config_db.json", db)
    lab_ports.set_mtu(state, {n: p.get("mtu", DEFAULT_MTU) for n, p in db.get("PORT", {}).items()})


def tokens(path):
    if not path.startswith("/"):
        raise patch_error("Invalid jsonpatch path: " + path)
    return [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")]


def hwsku(db):
    return db.get("DEVICE_METADATA", {}).get("localhost", {}).get("hwsku", "")


def apply_patch(db, patch, version):
    """RFC 6902 on CONFIG_DB, whole or not at all, checked as GCU checks what fabricctl sends."""
    if not isinstance(patch, list):
        raise patch_error("a patch is a JSON array", version)
    new = json.loads(json.dumps(db))
    for op in patch:
        path = tokens(op.get("path", ""))
        if path[0] in REFUSED_BY_GCU:
            raise patch_error(version=version, why="Modification of %s table is illegal- validating function "
                             "generic_config_updater.field_operation_validators.rdma_config_update_validator "
                             "returned False" % path[0])
        parent = new
        for t in path[:-1]:
            if not isinstance(parent, dict) or t not in parent:
                raise patch_error("can't resolve path " + op["path"], version)
            parent = parent[t]
        leaf, kind = path[-1], op.get("op")
        if kind in ("remove", "replace") and leaf not in parent:
            raise patch_error("can't remove a non-existent object '%s'" % leaf, version)
        if kind == "remove":
            del parent[leaf]
        elif kind in ("add", "replace"):
            parent[leaf] = op["value"]
        else:
            raise patch_error("unknown operation " + str(kind), version)
    why = refused(db, new, version)
    if why:
        raise patch_error(why, version)
    return new


def refused(old, new, version):
    """Why GCU's PatchApplier.apply refuses to turn CONFIG_DB `old` into `new`, in its order: the field
    operation validators, then empty tables, then the patch sorter's YANG validation of the whole
    result (sonic_yang.py; without SONiC's models here, only the PORT mtu range the emulator knows)."""
    why = sonic_gcu.refusal(version, hwsku(old), old, new)
    if why:
        return why
    empty = [t for t, entries in new.items() if not entries]
    if empty:
        return ("Given patch is not valid because it will result in empty tables which is not allowed in "
                "ConfigDb. Table%s: %s" % ("s" if len(empty) != 1 else "", ", ".join(empty)))
    for port, fields in new.get("PORT", {}).items():  # sonic-port.yang: mtu uint16 68..9216
        mtu = fields.get("mtu", DEFAULT_MTU)
        if not (mtu.isdigit() and 68 <= int(mtu) <= 9216):
            return ("Given patch will produce invalid config. Error: Value \"%s\" does not satisfy the constraint "
                    "\"68..9216\" (PORT %s mtu)" % (mtu, port))
    why = sonic_yang.invalid(new)
    return "Given patch will produce invalid config. Error: " + why if why else None


def read_file(state, path, stdin):
    """FILE as the command sees it: /dev/stdin, or a file a command wrote under /tmp."""
    if path == "/dev/stdin":
        return stdin()
    m = re.fullmatch(r"/tmp/(%s)" % NAME.pattern, path)
    if m and os.path.exists(os.path.join(state, "tmp", m.group(1))):
        with open(os.path.join(state, "tmp", m.group(1))) as f:
            return f.read()
    return None


def checkpoint_path(state, name):
    if not NAME.fullmatch(name):
        raise ClickError("Failed to create a config checkpoint: bad name " + name)
    return os.path.join(state, "checkpoints", name + ".cp.json")


def rollback(state, name):
    cp = load(state, os.path.join("checkpoints", name + ".cp.json"), None) if NAME.fullmatch(name) else None
    if cp is None:
        raise ClickError("Checkpoint '%s' does not exist" % name, ["Failed to rollback config"])
    db = load(state, "config_db.json", {})
    why = refused(db, cp, version_of(state))  # ConfigRollbacker -> ConfigReplacer -> PatchApplier.apply
    if why:
        raise ClickError(why, ["Failed to rollback config"])
    set_running(state, cp)
    print("Config rolled back successfully.")


def version_of(state):
    return load(state, "version.json", DEFAULT_VERSION)


def start_timer(state, name, seconds, command):
    """systemd-run with a timer: it runs `command` at the deadline unless `systemctl stop` ended it first."""
    if armed(state, name) is not None:
        sys.stderr.write("Failed to start transient timer unit: Unit %s.timer already exists.\n" % name)
        return 1
    arm_timer(state, __file__, name, seconds, {"command": command})
    sys.stderr.write("Running timer as unit: %s.timer\nWill run service as unit: %s.service\n" % (name, name))
    return 0


def stop_timer(state, unit):
    """`systemctl stop NAME.timer`; a transient timer that has elapsed is unloaded, so none is found."""
    name = unit[:-len(".timer")] if unit.endswith(".timer") else None
    if not (name and NAME.fullmatch(name) and disarm_timer(state, name)):
        sys.stderr.write("Failed to stop %s: Unit %s not loaded.\n" % (unit, unit))
        return 5
    return 0


def show_running(cli, _m):
    sys.stdout.write(json.dumps(cli["db"], indent=4, sort_keys=True) + "\n")
    return 0


def show_status(cli, _m):
    ports, db = lab_ports.load(cli["state"]), cli["db"]
    rows = []
    for name in sorted(db.get("PORT", {}), key=natural):
        p = ports.get(name, {})
        mtu = db["PORT"][name].get("mtu", DEFAULT_MTU)
        rows.append([name, "0", p.get("speed", "N/A"), mtu, "N/A", name.replace("Ethernet", "etp"), "routed",
                     p.get("oper", "down"), "up", "N/A", "off"])
    sys.stdout.write(table(["Interface", "Lanes", "Speed", "MTU", "FEC", "Alias", "Vlan", "Oper", "Admin", "Type",
                            "Asym PFC"], rows))
    return 0


def show_version(cli, _m):
    """show/main.py `version` (202205-202511 line order): what fabricctl reads, the rest as a switch
    prints it."""
    v = version_of(cli["state"])
    sys.stdout.write("\nSONiC Software Version: SONiC.%s\nSONiC OS Version: 11\nDistribution: Debian 11.7\n"
                     "Kernel: 5.10.0-18-2-amd64\nBuild commit: 8c08d87\nBuild date: Wed May 31 08:03:42 UTC 2023\n"
                     "Built by: sonicbld@jenkins-slave-phx-2\n\nPlatform: x86_64-emulated-r0\nHwSKU: %s\n"
                     "ASIC: %s\nASIC Count: 1\nSerial Number: EMU0001\nModel Number: EMU\n"
                     "Hardware Revision: N/A\nUptime: 08:00:00 up 1 day,  1 user,  load average: 0.10, 0.20, 0.30\n"
                     "Date: Thu 01 Jun 2023 08:00:00\n\nDocker images:\nREPOSITORY  TAG  IMAGE ID  SIZE\n"
                     % (v.get("build_version", ""), hwsku(cli["db"]), v.get("asic_type", "")))
    return 0


def counters_db(cli):
    """COUNTERS_DB as the emulator holds it (STATE/counters.json, written by tests and the lab to make
    counters move): {"Ethernet0": {"SAI_PORT_STAT_PFC_3_RX_PKTS": "120", ...}, "Ethernet0:3":
    {"PFC_WD_STATUS": "stormed", "PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED": "1", ...}}. A port of CONFIG_DB
    without an entry has every PFC counter at 0, as syncd starts them."""
    return load(cli["state"], "counters.json", {})


def with_commas(value):
    """utilities_common/netstat.py format_number_with_comma: "N/A" stays, numbers get separators."""
    return value if value == "N/A" else "{:,}".format(int(value))


def show_pfc_counters(cli, _m):
    """scripts/pfcstat without a cache: the Rx table, a blank line, the Tx table; COUNTERS_DB's
    SAI_PORT_STAT_PFC_<p>_{RX,TX}_PKTS per port in natural order, "N/A" for a counter it lacks."""
    db = counters_db(cli)
    for direction, header in (("RX", "Port Rx"), ("TX", "Port Tx")):
        rows = []
        for port in sorted(cli["db"].get("PORT", {}), key=natural):
            stats = db.get(port, {})  # absent: every counter 0; present: a key it lacks is N/A
            cells = [stats.get("SAI_PORT_STAT_PFC_%d_%s_PKTS" % (p, direction), "N/A") if port in db else "0"
                     for p in range(8)]
            rows.append([port] + [with_commas(str(c)) for c in cells])
        sys.stdout.write(table([header] + ["PFC%d" % p for p in range(8)], rows))
        if direction == "RX":
            sys.stdout.write("\n")
    return 0


WD_STATS = [("STORM DETECTED/RESTORED", "DEADLOCK_DETECTED", "DEADLOCK_RESTORED"),
            ("TX OK/DROP", "TX_PACKETS", "TX_DROPPED_PACKETS"), ("RX OK/DROP", "RX_PACKETS", "RX_DROPPED_PACKETS"),
            ("TX LAST OK/DROP", "TX_PACKETS_LAST", "TX_DROPPED_PACKETS_LAST"),
            ("RX LAST OK/DROP", "RX_PACKETS_LAST", "RX_DROPPED_PACKETS_LAST")]


def show_pfcwd_stats(cli, m):
    """pfcwd/main.py `show stats [-e]`: per queue "<port>:<q>" (queues 0-7 of every port, and any other
    counters.json names), its status and "ok/drop" pairs from COUNTERS_DB ("0" for a statistic it
    lacks); without -e the all-zero rows are left out."""
    db = counters_db(cli)
    # get_all_queues: every queue COUNTERS_QUEUE_NAME_MAP names, here queues 0-7 of every port.
    queues = {"%s:%d" % (port, q) for port in cli["db"].get("PORT", {}) for q in range(8)}
    queues |= {k for k in db if ":" in k}
    rows = []
    for queue in sorted(queues, key=natural):
        stats = db.get(queue, {})
        pairs = ["%s/%s" % (stats.get("PFC_WD_QUEUE_STATS_" + a, "0"), stats.get("PFC_WD_QUEUE_STATS_" + b, "0"))
                 for _h, a, b in WD_STATS]
        if pairs != ["0/0"] * len(WD_STATS) or m[1]:
            rows.append([queue, stats.get("PFC_WD_STATUS", "N/A")] + pairs)
    sys.stdout.write(table(["QUEUE", "STATUS"] + [h for h, _a, _b in WD_STATS], rows))
    return 0


def branch_of(cli):
    """The image's release branch as a number (202305); None for a master or unknown build."""
    return sonic_gcu.branch(version_of(cli["state"]).get("build_version", ""))


def since(cli, first):
    """Whether the image's branch has what sonic-utilities added in `first` (a master build has all)."""
    b = branch_of(cli)
    return b is None or b >= first


def port_stat(db, port, name):
    """A SAI port statistic of COUNTERS_DB as portstat reads it: "0" for a port without an entry (syncd
    starts its counters at 0), "N/A" for a statistic an entry lacks."""
    return str(db[port].get(name, "N/A")) if port in db else "0"


def show_pg_drop(cli, _m):
    """scripts/pg-drop `-c show`: per port, its ingress PGs' SAI_INGRESS_PRIORITY_GROUP_STAT_DROPPED_PACKETS
    (counters.json "PG": {"Ethernet0:3": {...}}; PGs 0-7 of every port, "N/A" where an entry lacks the
    statistic), minus the user's cleared values (none here)."""
    pgs = counters_db(cli).get("PG", {})
    rows = []
    for port in sorted(cli["db"].get("PORT", {}), key=natural):
        cells = []
        for pg in range(8):
            entry = pgs.get("%s:%d" % (port, pg))
            cells.append("0" if entry is None else str(entry.get("SAI_INGRESS_PRIORITY_GROUP_STAT_DROPPED_PACKETS", "N/A")))
        rows.append([port] + cells)
    sys.stdout.write("Ingress PG dropped packets:\n")
    sys.stdout.write(table(["Port"] + ["PG%d" % pg for pg in range(8)], rows))
    return 0


PORT_STATE = {"up": "U", "down": "D"}


def portstat(cli, m):
    """scripts/portstat `-e -j` (header_errors_only) and `-f -j` (header_fec_only, 202205 and later; BER
    columns 202411 and later, N/A here: the emulator has no port rates): netstat.py table_as_json, sorted
    keys, indent 4, comma-formatted strings."""
    db = counters_db(cli)
    if m[1] == "-f" and not since(cli, 202205):
        sys.stderr.write("usage: portstat [-h] [-a] [-c] [-d] [-D] [-e] [-j] [-r] [-R] [-t TAG] [-p PERIOD]\n"
                         "                [-i INTERFACE] [-s SHOW] [-n NAMESPACE] [-v]\n"
                         "portstat: error: unrecognized arguments: -f\n")
        return 2
    if m[1] == "-e":
        columns = [("RX_ERR", "SAI_PORT_STAT_IF_IN_ERRORS"), ("RX_DRP", "SAI_PORT_STAT_IF_IN_DISCARDS"),
                   ("RX_OVR", "SAI_PORT_STAT_ETHER_RX_OVERSIZE_PKTS"), ("TX_ERR", "SAI_PORT_STAT_IF_OUT_ERRORS"),
                   ("TX_DRP", "SAI_PORT_STAT_IF_OUT_DISCARDS"), ("TX_OVR", "SAI_PORT_STAT_ETHER_TX_OVERSIZE_PKTS")]
    else:
        columns = [("FEC_CORR", "SAI_PORT_STAT_IF_IN_FEC_CORRECTABLE_FRAMES"),
                   ("FEC_UNCORR", "SAI_PORT_STAT_IF_IN_FEC_NOT_CORRECTABLE_FRAMES"),
                   ("FEC_SYMBOL_ERR", "SAI_PORT_STAT_IF_IN_FEC_SYMBOL_ERRORS")]
        if since(cli, 202411):
            columns += [("FEC_PRE_BER", None), ("FEC_POST_BER", None)]
    ports = lab_ports.load(cli["state"])
    out = {}
    for port in sorted(cli["db"].get("PORT", {}), key=natural):
        row = {"STATE": PORT_STATE.get(ports.get(port, {}).get("oper"), "N/A")}
        for column, stat in columns:
            row[column] = "N/A" if stat is None else with_commas(port_stat(db, port, stat))
        out[port] = row
    print(json.dumps(out, indent=4, sort_keys=True))
    return 0


def show_flap(cli, _m):
    """show/interfaces/__init__.py `flap` (202411 and later): per port APPL_DB PORT_TABLE's flap_count,
    which orchagent raises on every oper status change (the port entry of counters.json holds it here;
    "Never" without one), admin and oper state and the last changes' times; python-tabulate's defaults:
    a column of numbers right-aligned, any other left-aligned (as sonic-utilities' tests/flap_test.py
    shows both)."""
    if not since(cli, 202411):
        raise ClickError('No such command "flap".', ["Usage: show interfaces [OPTIONS] COMMAND [ARGS]...",
                                                      'Try "show interfaces -h" for help.', ""])
    db, ports = counters_db(cli), lab_ports.load(cli["state"])
    header = ["Interface", "Flap Count", "Admin", "Oper", "Link Down TimeStamp(UTC)", "Link Up TimeStamp(UTC)"]
    rows = []
    for port in sorted(cli["db"].get("PORT", {}), key=natural):
        count = str(db.get(port, {}).get("flap_count", "Never"))
        stamp = "Sat Dec 05 08:00:00 2026" if count != "Never" else "Never"
        oper = ports.get(port, {}).get("oper", "unknown").capitalize()
        rows.append([port, count, "Up", oper, stamp, stamp])
    text_columns = {i for i in range(len(header)) if not (rows and all(r[i].isdigit() for r in rows))}
    sys.stdout.write(table(header, rows, left=text_columns))
    return 0


QUEUE_STATS = {"counters": [("totalpacket", "SAI_QUEUE_STAT_PACKETS"), ("totalbytes", "SAI_QUEUE_STAT_BYTES"),
                            ("droppacket", "SAI_QUEUE_STAT_DROPPED_PACKETS"),
                            ("dropbytes", "SAI_QUEUE_STAT_DROPPED_BYTES")],
               "wredcounters": [("wreddroppacket", "SAI_QUEUE_STAT_WRED_DROPPED_PACKETS"),
                                ("wreddropbytes", "SAI_QUEUE_STAT_WRED_DROPPED_BYTES"),
                                ("ecnmarkedpacket", "SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS"),
                                ("ecnmarkedbytes", "SAI_QUEUE_STAT_WRED_ECN_MARKED_BYTES")]}


def show_queue(cli, m):
    """`show queue counters --json` (scripts/queuestat, JSON since 202106) and `show queue wredcounters
    --json` (scripts/wredstat, 202505 and later): per port its unicast and multicast queues 0-7 (the
    queue entries of counters.json, "Ethernet0:3", "0" for a queue without one, "N/A" for a statistic
    an entry lacks) and the reading's time; utilities_common/cli.py json_dump (sorted keys, indent 2).
    Without a user's cached clear, the values are COUNTERS_DB's, without separators (only the
    difference from a cache, netstat.py ns_diff, has them)."""
    kind = m[1]
    first = 202106 if kind == "counters" else 202505
    if not since(cli, first):
        raise ClickError('No such command "%s".' % kind if kind == "wredcounters" else "no such option: --json",
                         ["Usage: show queue [OPTIONS] COMMAND [ARGS]...", 'Try "show queue -h" for help.', ""])
    db = counters_db(cli)
    out = {}
    for port in sorted(cli["db"].get("PORT", {}), key=natural):
        entry = {"time": "2026-12-05T08:00:00.000000"}
        for tag in ("UC", "MC"):
            for q in range(8):
                stats = db.get("%s:%d" % (port, q)) if tag == "UC" else None
                entry["%s%d" % (tag, q)] = {key: str(stats.get(stat, "N/A")) if stats is not None else "0"
                                            for key, stat in QUEUE_STATS[kind]}
        out[port] = entry
    print(json.dumps(out, indent=2, sort_keys=True, ensure_ascii=False))
    return 0


def show_lldp(cli, _m):
    ports = lab_ports.load(cli["state"])
    rows = [[n, p["lldp"][0], p["lldp"][1], "BR", ""] for n, p in sorted(ports.items(), key=lambda i: natural(i[0]))
            if p.get("lldp")]
    sys.stdout.write("Capability codes: (R) Router, (B) Bridge, (O) Other\n")
    sys.stdout.write(table(["LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr"], rows))
    sys.stdout.write("-" * 50 + "\nTotal entries displayed:  %d\n" % len(rows))
    return 0


def pfc_priority(state, db, words):
    """`config interface pfc priority <interface> <0-7> <on|off>` edits the port's pfc_enable list."""
    if len(words) != 7 or words[4] not in db.get("PORT", {}) or words[5] not in "01234567" or \
            len(words[5]) != 1 or words[6] not in ("on", "off"):
        sys.stderr.write("Usage: config interface pfc priority [OPTIONS] <interface_name> <priority> <on|off>\n")
        return 2
    entry = db.setdefault("PORT_QOS_MAP", {}).setdefault(words[4], {})
    prios = {p for p in entry.get("pfc_enable", "").split(",") if p}
    prios = prios | {words[5]} if words[6] == "on" else prios - {words[5]}
    entry["pfc_enable"] = ",".join(sorted(prios))
    save(state, "config_db.json", db)
    return 0


def checkpoint(cli, m):
    save(cli["state"], os.path.relpath(checkpoint_path(cli["state"], m[1]), cli["state"]), cli["db"])
    print("Checkpoint created successfully.")
    return 0


def rollback_command(cli, m):
    rollback(cli["state"], m[1])
    return 0


def delete_checkpoint(cli, m):
    path = checkpoint_path(cli["state"], m[1])
    if not os.path.exists(path):
        raise ClickError("Checkpoint '%s' does not exist" % m[1], ["Failed to delete config checkpoint"])
    os.remove(path)
    print("Checkpoint deleted successfully.")
    return 0


def apply_patch_command(cli, m):
    """`config apply-patch [-d] FILE`. With -d (--dry-run, config/main.py) GCU runs the same checks
    through a DryRunConfigWrapper that writes nothing: "** DRY RUN EXECUTION **" first, then, per
    change its sorter makes, "** DryRun: Would apply changes to config db: ..." (not modelled: the
    emulator has no patch sorter), and the same success line or the same error."""
    dry = m[1] is not None
    if dry:
        print("** DRY RUN EXECUTION **")
    text = read_file(cli["state"], m[2], cli["stdin"])
    if text is None:
        raise patch_error("[Errno 2] No such file or directory: '%s'" % m[2], version_of(cli["state"]))
    try:
        patch = json.loads(text)
    except ValueError as e:
        raise patch_error("%s" % e, version_of(cli["state"]))
    new = apply_patch(cli["db"], patch, version_of(cli["state"]))
    if not dry:
        set_running(cli["state"], new)
    print("Patch applied successfully.")
    return 0


def load_command(cli, m):
    text = read_file(cli["state"], m[1], cli["stdin"])
    if text is None:
        print("The config_db file %s doesn't exist" % m[1])  # and exit status 0, as config load does
        return 0
    merge(cli["db"], json.loads(text))
    set_running(cli["state"], cli["db"])
    return 0


def save_command(cli, _m):
    save(cli["state"], "saved.json", cli["db"])
    return 0


def tee(cli, m):
    os.makedirs(os.path.join(cli["state"], "tmp"), exist_ok=True)
    with open(os.path.join(cli["state"], "tmp", m[1]), "w") as f:
        text = cli["stdin"]()
        f.write(text)
    sys.stdout.write(text)
    return 0


STARTUP = "/etc/sonic/config_db.json"  # saved.json here


def copy_command(cli, m):
    """`cp [-p] SRC DST` between the startup configuration and a file under /tmp (fabricctl keeps the
    startup configuration at stage and puts it back on rollback). GNU cp's message for a missing source:
    `cp: cannot stat 'SRC': No such file or directory`, exit status 1."""
    src, dst = m[2], m[3]
    text = json.dumps(load(cli["state"], "saved.json", {})) if src == STARTUP else read_file(cli["state"], src, None)
    if text is None:
        sys.stderr.write("cp: cannot stat '%s': No such file or directory\n" % src)
        return 1
    if dst == STARTUP:
        save(cli["state"], "saved.json", json.loads(text))
    else:
        os.makedirs(os.path.join(cli["state"], "tmp"), exist_ok=True)
        with open(os.path.join(cli["state"], "tmp", dst[len("/tmp/"):]), "w") as f:
            f.write(text)
    return 0


def remove_tmp(cli, _m):
    for path in cli["words"][2:]:
        try:
            os.remove(os.path.join(cli["state"], "tmp", path[len("/tmp/"):]))
        except FileNotFoundError:
            pass
    return 0


def list_timers(cli, _m):
    """`systemctl list-units --type=timer --all --plain --no-legend 'fabricctl-*'`: the armed transient
    timers, one line each, UNIT LOAD ACTIVE SUB DESCRIPTION as systemctl(1) documents the columns; the
    DESCRIPTION systemd-run gives a transient timer is UNCONFIRMED (the command line is shown here)."""
    directory = os.path.join(cli["state"], "timers")
    for name in sorted(os.listdir(directory)) if os.path.isdir(directory) else []:
        if name.endswith(".json") and name.startswith("fabricctl-"):
            data = load(cli["state"], os.path.join("timers", name), {}) or {}
            command = (data.get("data") or {}).get("command", "")
            print("%s.timer loaded active waiting /bin/sh -c %s" % (name[:-5], command))
    return 0


def systemd_run(cli, m):
    words = cli["words"]
    if len(words) != 7:  # `sh -c CMD`: CMD is one word
        return no_such_command(cli)
    return start_timer(cli["state"], m[2], int(m[1]), words[6])


def no_such_command(cli):
    """What the switch answers to a command it does not have: click's refusal of `config` or `show`."""
    words = cli["words"]
    if words[:1] == ["config"]:
        raise ClickError('No such command "%s".' % (words[1] if len(words) > 1 else ""),
                         ["Usage: config [OPTIONS] COMMAND [ARGS]...", 'Try "config -h" for help.', ""])
    word = words[1] if words[:1] == ["show"] and len(words) > 1 else " ".join(words)
    sys.stderr.write('Usage: show [OPTIONS] COMMAND [ARGS]...\nTry "show -h" for help.\n\n'
                     'Error: No such command "%s".\n' % word)
    return 2


# The commands of a transaction and of collect (sonic-utilities config/main.py, show/main.py), matched
# on the command line as bash splits it, `sudo ` removed.
COMMANDS = [
    (r"show runningconfiguration all", show_running),
    (r"show interfaces status", show_status),
    (r"show lldp table", show_lldp),
    (r"show version", show_version),
    (r"show pfc counters", show_pfc_counters),
    (r"show pfcwd stats( -e)?", show_pfcwd_stats),
    (r"show priority-group drop counters", show_pg_drop),
    (r"portstat (-e|-f) -j", portstat),
    (r"show queue (counters|wredcounters) --json", show_queue),
    (r"show interfaces flap", show_flap),
    (r"config interface pfc priority(?: .*)?", lambda cli, _m: pfc_priority(cli["state"], cli["db"], cli["words"])),
    (r"config checkpoint (\S+)", checkpoint),
    (r"config rollback (\S+)", rollback_command),
    (r"config delete-checkpoint (\S+)", delete_checkpoint),
    (r"config apply-patch (-d )?(\S+)", apply_patch_command),
    (r"config load -y (\S+)", load_command),
    (r"config save(?: -y)?", save_command),
    (r"tee /tmp/(%s)" % NAME.pattern, tee),
    (r"rm -f /tmp/%s(?: /tmp/%s)*" % (NAME.pattern, NAME.pattern), remove_tmp),
    (r"cp( -p)? (%s|/tmp/%s) (%s|/tmp/%s)" % (re.escape(STARTUP), NAME.pattern, re.escape(STARTUP), NAME.pattern),
     copy_command),
    (r"systemd-run --on-active=([0-9]{1,7})s --timer-property=RemainAfterElapse=no --unit=(%s) sh -c .*"
     % NAME.pattern, systemd_run),
    (r"systemctl stop (\S+)", lambda cli, m: stop_timer(cli["state"], m[1])),
    (r"systemctl list-units --type=timer --all --plain --no-legend fabricctl-\*", list_timers),
]


def answer(state, words, stdin):
    if words[:1] == ["sudo"]:
        words = words[1:]
    cli = {"state": state, "db": load(state, "config_db.json", {}), "words": words, "stdin": stdin}
    status = dispatch(COMMANDS, " ".join(words), cli)
    return no_such_command(cli) if status is UNKNOWN else status


def run_timer_command(state, command, stdin=lambda: ""):
    """What the timer's `sh -c` runs, as root: `config ...` commands in lists joined by `; ` (each
    runs) of commands joined by ` && ` (each runs while the one before succeeded)."""
    for sequence in command.split("; "):
        for part in sequence.split(" && "):
            words = shlex.split(part)
            try:
                if words[:1] != ["config"] or answer(state, words, stdin) != 0:
                    break
            except ClickError:
                break


def timer_fired(state, _name, data):
    """The transient timer's service: its command, at the deadline."""
    run_timer_command(state, data["command"])


def factory(state):
    """A switch as load_minigraph leaves it (sonic_factory.py), running and saved."""
    db = factory_db(load(state, "ports.json", {}))
    set_running(state, db)
    save(state, "saved.json", db)


def one_command(state, words):
    """One command of a list (collect's counter commands), answered as if it came alone: no standard input."""
    status = answered(state, " ".join(words))
    if status is not None:
        return status
    with locked(state):
        try:
            status = answer(state, words, lambda: "")
            return 0 if status is None else status
        except ClickError as e:
            for line in e.lines:
                sys.stderr.write(line + "\n")
            sys.stderr.write("Error: %s\n" % e)
            return 2


def main():
    state = sys.argv[1]
    status = timer_main(state, timer_fired)
    if status is not None:
        return status
    words = command_words()
    if len(sys.argv) == 2 and is_list(words):
        return shell_list(words, lambda command: one_command(state, command))
    if len(sys.argv) == 2:
        status = answered(state, " ".join(words))  # outside the lock: an answer may hang
        if status is not None:
            return status
    # Read only by the commands that take a file on stdin: the others must not wait for its end.
    stdin = lambda: "" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.read()
    with locked(state):
        if len(sys.argv) == 3 and sys.argv[2] == "--factory":
            factory(state)
            return 0
        if len(sys.argv) == 4 and sys.argv[2] == "--load":
            db = load(state, "config_db.json", None) or factory_db(load(state, "ports.json", {}))
            with open(sys.argv[3]) as f:
                merge(db, json.load(f))
            set_running(state, db)
            save(state, "saved.json", db)
            return 0
        try:
            return answer(state, words, stdin)
        except ClickError as e:
            for line in e.lines:
                sys.stderr.write(line + "\n")
            sys.stderr.write("Error: %s\n" % e)
            return 2


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""A Cisco Nexus 9000's NX-OS CLI, as much of it as fabricctl reads and changes, behind a real sshd
(ForceCommand): each SSH command runs this once with the command in SSH_ORIGINAL_COMMAND, answers in the
shapes NX-OS prints (tests/fixtures/nxos, SOURCES.md), and exits. What it takes and refuses is
nxos_grammar.py's, each row with its source.

The switch's state is a directory (argument 1):
  config.json     its running configuration: blocks as [line, [children...]] in NX-OS's layout
  preamble.txt    for tests: lines printed at the top of the running-config (usernames, secrets, ...)
  ports.json      what the configuration does not hold (lab_ports.py): speed in Mb/s, oper, LLDP
  answers.json    for tests, answers that replace the emulator's own (common.py)
  counters.json   for tests and the lab's traffic model: what `show interface`, `show queuing interface` and
                  `show queuing pfc-queue detail` count per port (show_interface(), show_queuing(),
                  show_pfc_queue()); all 0 without it
  startup.json    the startup configuration (`copy running-config startup-config`)
  checkpoints.json  named checkpoints: {name: config}; NX-OS keeps ten at most, each name once
  timers/NAME.json  an EEM applet's countdown (common.py: the one timer of every emulator)
  lock            every command holds it (common.locked), and so does the timer when it fires

  nxos.py STATE               answer $SSH_ORIGINAL_COMMAND
  nxos.py STATE --load FILE   FILE's lines entered in `configure terminal`, as a paste (config.cfg)
  nxos.py STATE --factory     a switch with no configuration: a bare block for each port of ports.json
  nxos.py STATE --timer NAME  an EEM countdown's process (common.py)
  nxos.py STATE --fire-timers the fire hook: every armed countdown's applet runs now

One exec may hold several commands separated by ` ; ` (NX-OS's CLI: Cisco's RoCE enablement script sends
its whole configuration so, docs/reference-nxos.md C.4). They run in order, as lines typed at the CLI: a
refused line prints `% Invalid command at '^' marker.` on stdout, is not taken, and the next line runs
(UNCONFIRMED: whether NX-OS goes on, and the exit status, which is 0 here as for a CLI that printed an
error; fabricctl judges the output).

The transaction fabricctl runs (src/platform/nxos/apply.cpp):
  terminal dont-ask ; checkpoint NAME     the running configuration kept under NAME
  configure terminal ; event manager applet NAME ; event timer countdown time S ; action 1 cli ...
    ... ; end                             the applet's countdown armed when its block is complete: when it
                                          ends, its `rollback running-config checkpoint X` action runs
  configure terminal ; <lines> ; end      the change
  configure terminal ; no event manager applet NAME ; end
                                          the countdown disarmed
  rollback running-config checkpoint NAME running = the checkpoint (an applet made after it goes too)
  no checkpoint NAME / copy running-config startup-config
"""
import copy
import json
import os
import re
import sys
import time

import lab_ports
import nxos_grammar
from nxos_grammar import Invalid, INVALID
from common import UNKNOWN, dispatch, answered, arm_timer, disarm_timer, armed, load, locked, natural, timer_main

DEFAULT_MTU = 1500  # NX-OS's default MTU on an Ethernet port (every `show interface` fixture)
MAX_CHECKPOINTS = 10  # "You can create up to ten checkpoints of your configuration per switch" (Nexus guide)
RELEASE = "10.3(2)"


def save(state, name, data):
    path = os.path.join(state, name)
    with open(path + ".tmp", "w") as f:
        json.dump(data, f, indent=1)
    os.replace(path + ".tmp", path)


def find(blocks, line):
    return next((b for b in blocks if b[0] == line), None)


def port_mtus(config, ports):
    """{port: MTU} of every Ethernet port: its `mtu` line, NX-OS's default without one."""
    out = {name: DEFAULT_MTU for name in ports}
    for line, children in config:
        if line.startswith("interface Ethernet"):
            mtu = next((c[0].split()[1] for c in children if c[0].startswith("mtu ")), None)
            out[line.split()[1]] = int(mtu) if mtu else DEFAULT_MTU
    return out


def make_running(state, config):
    """`config` becomes the running configuration, and its MTUs those of the lab's real netdevs."""
    save(state, "config.json", config)
    lab_ports.set_mtu(state, port_mtus(config, lab_ports.load(state)))


# ---- configure terminal

class Cli:
    """A configure terminal: the configuration being changed and the stack of blocks entered."""

    def __init__(self, config):
        self.config = config
        self.stack = []  # [(mode, block)], innermost last
        self.entered_applets = []

    def mode(self):
        return self.stack[-1][0] if self.stack else "config"

    def children(self):
        return self.stack[-1][1][1] if self.stack else self.config

    def line(self, line):
        """One line typed in configure terminal; Invalid when NX-OS refuses it."""
        if line == "exit":
            if self.stack:
                self.stack.pop()
            return
        if line.startswith("no "):
            return self.remove(line[3:])
        what, m = nxos_grammar.parse(self.mode(), line)
        if what == "ignore":
            return
        here = self.children()
        if what.startswith("enter "):
            block = find(here, line)
            if block is None:
                block = [line, []]
                # NX-OS keeps a policy's class-default last, whatever was entered after it (NDFC capture).
                default = find(here, "class class-default")
                here.insert(here.index(default) if default is not None and line != default[0] else len(here), block)
            self.stack.append((what.split()[1], block))
            if self.mode() == "applet":
                self.entered_applets.append(line.split()[-1])
            return
        if what.startswith("set"):
            k = nxos_grammar.key(line)
            here[:] = [b for b in here if nxos_grammar.key(b[0]) != k or b[1]]
            if self.mode() == "if" and line == "mtu %d" % DEFAULT_MTU:
                return  # the default: NX-OS does not print it (the real running-configs print no `mtu 1500`)
        elif find(here, line) is not None:
            return
        here.append([line, []])

    def remove(self, line):
        """`no LINE`: the line (or block) goes from where it is. NX-OS's answer to a `no` of a line that
        is not there is UNCONFIRMED: taken, nothing changes."""
        here = self.children()
        if line.startswith(("class-map ", "policy-map ", "event manager applet ")) and self.stack:
            raise Invalid("no " + line)
        before = len(here)
        here[:] = [b for b in here if b[0] != line]
        if before != len(here) and line.startswith("event manager applet "):
            self.entered_applets.append(line.split()[-1])


def countdown(config, name):
    """The applet NAME's countdown in seconds and the checkpoint its rollback action names, or None."""
    block = find(config, "event manager applet " + name)
    if block is None:
        return None
    seconds = next((int(c[0].split()[-1]) for c in block[1] if c[0].startswith("event timer countdown time ")), None)
    target = next((m[1] for c in block[1] for m in [re.search(r"cli rollback running-config checkpoint (\S+)$", c[0])]
                   if m), None)
    return (seconds, target) if seconds else None


def configure(cli, commands):
    """`configure terminal` then `commands` up to `end`: the lines NX-OS took change running, each refused
    one prints its error. A countdown applet completed here is armed; one removed is disarmed."""
    c = Cli(copy.deepcopy(cli["config"]))
    out = []
    for command in commands:
        if command == "end":
            break
        try:
            c.line(command)
        except Invalid as e:
            out.append(e.message)
    make_running(cli["state"], c.config)
    cli["config"] = c.config
    for name in dict.fromkeys(c.entered_applets):
        timer = countdown(c.config, name)
        if timer is None:
            disarm_timer(cli["state"], name)
        elif armed(cli["state"], name) is None:
            arm_timer(cli["state"], __file__, name, timer[0], {"checkpoint": timer[1]})
    return "".join(line + "\n" for line in out)


def timer_fired(state, name, data):
    """The countdown of EEM applet NAME ended: its action rolls running back to its checkpoint."""
    checkpoints = load(state, "checkpoints.json", {})
    target = (data or {}).get("checkpoint")
    if target in checkpoints:
        make_running(state, copy.deepcopy(checkpoints[target]))


# ---- exec commands

def checkpoint(cli, m):
    checkpoints = load(cli["state"], "checkpoints.json", {})
    if m[1] in checkpoints:  # "Checkpoint names must be unique" (Nexus guide)
        return "ERROR: Checkpoint name is in use\n"
    if len(checkpoints) >= MAX_CHECKPOINTS:
        return "ERROR: Maximum number of checkpoints reached\n"
    checkpoints[m[1]] = cli["config"]
    save(cli["state"], "checkpoints.json", checkpoints)
    return "Done\n"


def drop_checkpoint(cli, m):
    checkpoints = load(cli["state"], "checkpoints.json", {})
    if checkpoints.pop(m[1], None) is None:
        return "ERROR: No such checkpoint\n"
    save(cli["state"], "checkpoints.json", checkpoints)
    return ""


def rollback(cli, m):
    checkpoints = load(cli["state"], "checkpoints.json", {})
    if m[1] not in checkpoints:
        return "Rollback failed.\nERROR: No such checkpoint\n"
    target = copy.deepcopy(checkpoints[m[1]])
    applets = {b[0].split()[-1] for b in cli["config"] if b[0].startswith("event manager applet ")}
    for name in applets:
        if find(target, "event manager applet " + name) is None:
            disarm_timer(cli["state"], name)  # the applet goes with the rollback
    make_running(cli["state"], target)
    cli["config"] = target
    return "Note: Applying config parallelly may fail Rollback verification\nCollecting Running-Config\n" \
           "Generating Rollback Patch\nExecuting Rollback Patch\nGenerating Running-config for verification\n" \
           "Generating Patch for verification\nRollback completed successfully.\n"


def copy_startup(cli, m):
    save(cli["state"], "startup.json", cli["config"])
    return "[########################################] 100%\nCopy complete.\n"


def print_blocks(blocks, depth=0):
    out = []
    for line, children in blocks:
        out.append("  " * depth + line)
        out += print_blocks(children, depth + 1)
    return out


def running_config(state, config, ports, only=None):
    """`show running-config` in NX-OS's layout (tests/fixtures/nxos/show-running-config-ipqos_*.txt): a
    header, `version`, the global blocks, then every Ethernet interface (a bare block where nothing is
    set). `only`: a prefix the top-level lines must have (`show running-config eem`)."""
    out = ["", "!Command: show running-config" + (" eem" if only else ""),
           "!Time: %s" % time.strftime("%a %b %d %H:%M:%S %Y", time.gmtime()), "", "version %s Bios:version 05.47 " % RELEASE]
    if only is None:
        try:
            with open(os.path.join(state, "preamble.txt")) as f:
                out += f.read().splitlines()
        except FileNotFoundError:
            pass
    blocks = [b for b in config if not b[0].startswith("interface ")]
    if only is not None:
        blocks = [b for b in blocks if b[0].startswith(only)]
    out += print_blocks(blocks)
    if only is None:
        interfaces = {b[0].split()[1]: b for b in config if b[0].startswith("interface ")}
        for name in sorted(set(interfaces) | set(ports), key=natural):
            out.append("")
            out += print_blocks([interfaces.get(name, ["interface " + name, []])])
    return "\n".join(out) + "\n"


def short(name):
    return "Eth" + name[len("Ethernet"):]


def show_interface(config, ports, counters):
    """`show interface | json` as a real N9K-C9336C-FX2 prints it (tests/fixtures/nxos/show-interface_
    n9k-c9336c-fx2_harvest.json): every value a string, the speed in Kbit/s; of its counters, CRC errors
    and discards as STATE/counters.json gives them ({"Ethernet1/1": {"eth_crc": 5}}), 0 without."""
    rows = [{"interface": "mgmt0", "state": "up", "admin_state": "up", "eth_hw_desc": "GigabitEthernet",
             "eth_mtu": "1500", "eth_bw": "1000000", "eth_bw_str": "1000000 Kbit", "eth_duplex": "full",
             "eth_speed": "1000 Mb/s"}]
    mtus = port_mtus(config, ports)
    for name in sorted(mtus, key=natural):
        p = ports.get(name, {})
        up = p.get("oper", "down") == "up"
        kbit = int(p.get("speed", 0)) * 1000 if up else 0
        row = {"interface": name, "state": "up" if up else "down", "admin_state": "up", "share_state": "Dedicated",
               "eth_hw_desc": "100000/400000 Ethernet", "eth_mtu": str(mtus[name]), "eth_bw": str(kbit),
               "eth_bw_str": "%d Kbit" % kbit, "eth_mode": "routed", "eth_duplex": "full",
               "eth_speed": "%d Gb/s" % (kbit // 1000000) if up else "auto-speed"}
        for key in ("eth_crc", "eth_stomped_crc", "eth_indiscard", "eth_outdiscard", "eth_inpause", "eth_outpause"):
            row[key] = str(int(counters.get(name, {}).get(key, 0)))
        rows.append(row)
    return {"TABLE_interface": {"ROW_interface": rows}}


def show_lldp(ports):
    """`show lldp neighbors detail | json` as real switches print it (tests/fixtures/nxos/show-lldp-
    neighbors-detail_harvest.json): the local port short (Eth1/1), one row as an object, not a list."""
    rows = [{"chassis_type": "Mac Address", "chassis_id": "5254.0000.%04x" % i, "port_type": "Interface Name",
             "port_id": p["lldp"][1], "l_port_id": short(n), "port_desc": "null", "sys_name": p["lldp"][0],
             "sys_desc": "Linux", "ttl": "120", "system_capability": "B, R", "enabled_capability": "R",
             "mgmt_addr_type": "Address not advertised", "mgmt_addr": "not advertised", "vlan_id": "not advertised"}
            for i, (n, p) in enumerate(sorted(ports.items(), key=lambda i: natural(i[0]))) if p.get("lldp")]
    if not rows:
        return {"neigh_count": "0"}
    return {"neigh_hdr": "neigh_hdr", "TABLE_nbor_detail": {"ROW_nbor_detail": rows[0] if len(rows) == 1 else rows},
            "neigh_count": str(len(rows))}


def no_drop_cos(blocks):
    """The CoS values a `pause pfc-cos N` line of the configuration makes no-drop."""
    out = set()
    for line, children in blocks:
        m = re.fullmatch(r"pause pfc-cos ([0-7])", line)
        if m:
            out.add(int(m[1]))
        out |= no_drop_cos(children)
    return out


def show_queuing(config, ports, counters):
    """`show queuing interface | json`. No JSON capture of it exists (docs/reference-nxos.md D), so its shape
    is UNCONFIRMED (item 2 of the acceptance checklist) and put together from what there is: the keys of
    Cisco's show-command schema (9.3(x): TABLE_queuing_interface `dir` `if_name_str`,
    TABLE_qosgrp_egress_stats `eq-qosgrp`, TABLE_qosgrp_egress_stats_entry `eq-stat-type` `eq-stat-units`
    `eq-uc-stat-value` `eq-mc-stat-value`, `tx-ppp` `rx-ppp`, TABLE_pfc_stats `cos` `pfc-qosgrp`
    `tx-pause-state` `tx-pause-count` `rx-pause-state` `rx-pause-count`); the nesting under
    TABLE_module.ROW_module, an Egress row per port and groups "0".."7" then `CONTROL QOS GROUP` and `SPAN
    QOS GROUP`, of two clients run on real switches; the entries and columns of a real 9.3 switch's text
    form (per group Tx, WRED/AFD & Tail Drop, Q Depth and WD & Tail Drop, unicast and multicast; PFC after
    the Ingress section: TxPPP, RxPPP, then per CoS its QoS group, pause states and counts). No ECN entry:
    that capture has none. All 0 unless STATE/counters.json says otherwise:
    {"Ethernet1/1": {"queues": {"3": {"tx": 10, "drops": 1}}, "pfc": {"3": {"tx": 5, "rx": 0}}}}."""
    lossless = no_drop_cos(config)

    def entry(kind, units, value):
        return {"eq-stat-type": kind, "eq-stat-units": units, "eq-uc-stat-value": str(value), "eq-mc-stat-value": "0"}

    rows = []
    for name in sorted(port_mtus(config, ports), key=natural):
        c = counters.get(name, {})
        groups = []
        for group in [str(q) for q in range(8)] + ["CONTROL QOS GROUP", "SPAN QOS GROUP"]:
            q = c.get("queues", {}).get(group, {})
            tx, drops = int(q.get("tx", 0)), int(q.get("drops", 0))
            groups.append({"eq-qosgrp": group, "TABLE_qosgrp_egress_stats_entry": {"ROW_qosgrp_egress_stats_entry": [
                entry("Tx", "Pkts", tx), entry("Tx", "Byts", tx * 1024), entry("WRED/AFD & Tail Drop", "Pkts", drops),
                entry("WRED/AFD & Tail Drop", "Byts", drops * 1024), entry("Q Depth", "Byts", 0),
                entry("WD & Tail Drop", "Pkts", c.get("watchdog", {}).get(group, {}).get("drops", 0))]}})
        pfc = [{"cos": str(cos), "pfc-qosgrp": str(cos if cos in lossless else 0),
                "tx-pause-state": "Inactive", "tx-pause-count": str(int(c.get("pfc", {}).get(str(cos), {}).get("tx", 0))),
                "rx-pause-state": "Inactive", "rx-pause-count": str(int(c.get("pfc", {}).get(str(cos), {}).get("rx", 0)))}
               for cos in range(8)]
        rows.append({"dir": "Egress", "if_name_str": name,
                     "TABLE_qosgrp_egress_stats": {"ROW_qosgrp_egress_stats": groups}})
        rows.append({"dir": "Ingress", "if_name_str": name,
                     "tx-ppp": str(sum(int(r["tx-pause-count"]) for r in pfc)),
                     "rx-ppp": str(sum(int(r["rx-pause-count"]) for r in pfc)),
                     "TABLE_pfc_stats": {"ROW_pfc_stats": pfc}})
    return {"TABLE_module": {"ROW_module": {"TABLE_queuing_interface": {"ROW_queuing_interface": rows}}}}


def show_pfc_queue(config, ports, counters):
    """`show queuing pfc-queue detail | json`. No JSON capture of it exists (docs/reference-nxos.md D): its keys
    are Cisco's show-command schema's (9.3(x): the global `glb-*` state, then TABLE_queuing_interface
    `if_name_str` `wd-status`, TABLE_qosgrp_stats `eq-qosgrp` `eq-qosgrp-state` `pfc-configured` `pfc-cos`,
    TABLE_qosgrp_stats_entry `q-stat-type` with one of `q-shutdown` `q-restored` `q-pkt-drained`
    `q-pkt-dropped` ...), its layout that a Cisco engineer's client reads from real 10.4 and 10.5 switches
    (paregupt/nexus_traffic_monitor `parse_pfcqueuedetail`: under TABLE_module.ROW_module, the port as the
    first word of `if_name_str`, a list of groups whose `eq-qosgrp` holds the group's digit before a space,
    one statistic an entry row). UNCONFIRMED, and made up here for want of any capture: the text after the
    port in `if_name_str` and after the digit in `eq-qosgrp`, the `q-stat-type` labels, and the values of
    the `glb-*` keys (the watchdog's state and interval as the configuration's global lines set them). A
    group for each no-drop CoS of the configuration (its qos-group is its CoS in every configuration
    fabricctl renders). All 0 unless STATE/counters.json says otherwise: {"Ethernet1/1": {"watchdog":
    {"3": {"storms": 2, "restored": 1, "drops": 400, "ingress_drops": 0}}}}."""
    lossless = sorted(no_drop_cos(config))
    rows = []
    for name in sorted(port_mtus(config, ports), key=natural):
        wd = counters.get(name, {}).get("watchdog", {})
        groups = []
        for q in lossless:
            c = wd.get(str(q), {})
            stats = [("Shutdown", "q-shutdown", c.get("storms", 0)), ("Restored", "q-restored", c.get("restored", 0)),
                     ("Total pkts drained", "q-pkt-drained", 0), ("Total pkts dropped", "q-pkt-dropped", c.get("drops", 0)),
                     ("Total pkts drained + dropped", "q-pkt-drained-n-dropped", c.get("drops", 0)),
                     ("Aggregate pkts dropped", "q-aggr-pkt-dropped", c.get("drops", 0)),
                     ("Total Ingress pkts dropped", "q-ing-pkt-dropped", c.get("ingress_drops", 0)),
                     ("Aggregate Ingress pkts dropped", "q-ing-aggr-pkt-dropped", 0)]
            groups.append({"eq-qosgrp": "%d " % q, "eq-qosgrp-state": "Active", "pfc-configured": "YES",
                           "pfc-cos": str(q), "TABLE_qosgrp_stats_entry": {"ROW_qosgrp_stats_entry": [
                               {"q-stat-type": label, key: str(int(value))} for label, key, value in stats]}})
        row = {"if_name_str": name + " Interface PFC watchdog", "wd-status": "Enabled" if groups else "Disabled"}
        if groups:
            row["TABLE_qosgrp_stats"] = {"ROW_qosgrp_stats": groups}
        rows.append(row)
    lines = [line for line, children in config]
    interval = next((l.split()[-1] for l in lines if l.startswith("priority-flow-control watch-dog interval ")), "100")
    return {"glb-wd-status": "Disabled" if "priority-flow-control watch-dog-interval off" in lines else "Enabled",
            "glb-wd-force-status": "Disabled", "glb-wd-timer": interval, "glb-wd-timer-thresh": "1",
            "glb-auto-restore": "10", "glb-fixed-restore": "0", "glb-int-intf-multi": "0",
            "TABLE_module": {"ROW_module": {"TABLE_queuing_interface": {"ROW_queuing_interface": rows}}}}


def text(f):
    return lambda cli, m: f(cli)


EXEC = [
    (r"terminal dont-ask", text(lambda c: "")),
    (r"checkpoint (" + nxos_grammar.NAME + ")", checkpoint),
    (r"no checkpoint (" + nxos_grammar.NAME + ")", drop_checkpoint),
    (r"rollback running-config checkpoint (" + nxos_grammar.NAME + ")", rollback),
    (r"copy running-config startup-config", copy_startup),
    (r"show running-config", text(lambda c: running_config(c["state"], c["config"], c["ports"]))),
    (r"show running-config eem", text(lambda c: running_config(c["state"], c["config"], c["ports"],
                                                               only="event manager"))),
    (r"show interface \| json", text(lambda c: json.dumps(show_interface(
        c["config"], c["ports"], load(c["state"], "counters.json", {})), indent=2) + "\n")),
    (r"show queuing pfc-queue detail \| json", text(lambda c: json.dumps(show_pfc_queue(
        c["config"], c["ports"], load(c["state"], "counters.json", {})), indent=2) + "\n")),
    (r"show queuing interface \| json", text(lambda c: json.dumps(show_queuing(
        c["config"], c["ports"], load(c["state"], "counters.json", {})), indent=2) + "\n")),
    (r"show lldp neighbors detail \| json", text(lambda c: json.dumps(show_lldp(c["ports"]), indent=2) + "\n")),
]


def run(cli, raw):
    """One SSH exec: commands separated by ` ; `, run in order as lines typed at the CLI."""
    commands = [" ".join(c.split()) for c in raw.split(";")]
    out = []
    i = 0
    while i < len(commands):
        command = commands[i]
        if command == "configure terminal":
            end = next((j for j in range(i + 1, len(commands)) if commands[j] == "end"), len(commands))
            out.append(configure(cli, commands[i + 1:end]))
            i = end + 1
            continue
        result = dispatch(EXEC, command, cli)
        out.append(INVALID + "\n" if result is UNKNOWN else result)
        i += 1
    return "".join(out), "", 0


def factory(state):
    config = [["interface " + name, []] for name in sorted(lab_ports.load(state), key=natural)]
    make_running(state, config)
    save(state, "startup.json", config)
    save(state, "checkpoints.json", {})


def main():
    state = sys.argv[1]
    status = timer_main(state, timer_fired)
    if status is not None:
        return status
    if len(sys.argv) == 3 and sys.argv[2] == "--factory":
        factory(state)
        return 0
    if len(sys.argv) == 4 and sys.argv[2] == "--load":
        with open(sys.argv[3]) as f:
            lines = f.read().splitlines()
        c = Cli(load(state, "config.json", []))
        for raw in lines:
            line = " ".join(raw.split())
            if not line or line.startswith("!"):
                continue
            depth = (len(raw) - len(raw.lstrip(" "))) // 2
            while len(c.stack) > depth:
                c.stack.pop()  # a paste leaves a block by its indentation, as NX-OS's parser does
            try:
                c.line(line)
            except Invalid as e:
                sys.stderr.write("%s\n%s\n" % (raw, e.message))
                return 1
        make_running(state, c.config)
        save(state, "startup.json", c.config)
        save(state, "checkpoints.json", load(state, "checkpoints.json", {}))
        return 0
    raw = os.environ.get("SSH_ORIGINAL_COMMAND", "")
    status = answered(state, " ".join(raw.split()))
    if status is not None:
        return status
    cli = {"state": state, "lock": locked(state)}
    cli.update(config=load(state, "config.json", []), ports=lab_ports.load(state))
    out, err, status = run(cli, raw)
    sys.stdout.write(out)
    sys.stderr.write(err)
    return status


if __name__ == "__main__":
    sys.exit(main())

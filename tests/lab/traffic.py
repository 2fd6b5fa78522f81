#!/usr/bin/python3
"""The lab's traffic: counters that move the way a working RoCE fabric's do, and faults that make them move
the way a sick one's do, written where each device's reader finds them (docs/lab.md, "Traffic and faults").

  traffic.py STATE init                 every counter at its start, no fault (lab.py up runs it)
  traffic.py STATE tick                 every counter risen by its rate x the seconds since the last tick
  traffic.py STATE fault KIND DEV:PORT  a fault from the last tick on (KIND below); flap happens now, for real
  traffic.py STATE clear                no fault since the last tick

The lab has no RoCE traffic of its own, so its counters are a model: per direction of every cable, pauses at
a low rate on the lossless priority (a working lossless link pauses a little), ECN marks that its receiving
NIC answers with as many CNPs, and nothing else. The model's time moves only at a tick: a reading of the
lab (collect, health) sees the counters as the last tick left them, so a test ticks before each reading,
and a fault or a clear takes effect at the last tick, so that the window between two readings is all
under the fault, or all without it. The faults:

  slow-receiver HOST:PORT  the NIC drains slower than it receives: it pauses its link 20,000 times a second
                           and keeps it paused 40% of the time
  storm HOST:PORT          the NIC cannot drain at all: it pauses without end, and the switch's PFC watchdog
                           on the far end detects a storm every 0.4 s and drops the queue's traffic (the far
                           end must count watchdog storms: SONiC, NVUE, NX-OS)
  cnp-broken HOST:PORT     ECN-marked packets arrive and the NIC sends no CNP (its notification point off)
  rp-off HOST:PORT         CNPs arrive and the NIC ignores them, 100 a second (its reaction point off)
  lossless-drops DEV:PORT  the NIC, or a SONiC switch's ingress PG, drops received lossless traffic for lack
                           of buffer, 50 packets a second
  crc DEV:PORT             frames arrive damaged on DEV:PORT, 5 a second (a host, SONiC, EOS or NVUE: what
                           counts receive errors)
  retransmit HOST:PORT     RoCE on the NIC retransmits 50 packets a second
  flap HOST:PORT           the cable (a real veth pair) loses its carrier and gets it back now, as when it is
                           pulled and put back: the host's kernel counts it
  slow-pcie HOST:PORT      the NIC's PCIe link trained narrow: no counter moves, and the hosts' ib_write_bw
                           (perftest.py) runs at 60% of the line rate on it

Where the counters go, in each reader's native names (docs/counters-reference.md): a host's stand-in mlx5 NIC,
its `ethtool -S` answer (ROOT/dcb/<netdev>.ethtool beside the saved DCB reply) and its RDMA port's hw_counters
under the fixture tree; SONiC's COUNTERS_DB (STATE/<dev>/state/counters.json, which the emulator's `show pfc
counters`, `show pfcwd stats`, `portstat`, `show priority-group drop counters` and the queue counters
print); EOS's interfaceCounters (its counters.json) and its PFC frames and
ECN marks (qos-counters.json); NVUE's link stats and per-port QoS counters (its counters.json: frames
received in error, drops, PFC frames, ECN marks); NX-OS's `show interface`, `show queuing interface`
and `show queuing pfc-queue detail` counters and Junos's `show interfaces extensive` ones (each its
counters.json: CRC or framing errors, drops, PFC frames per priority; NX-OS's watchdog storms). The
link-down count is left out of the hosts' ethtool answer: a flap in the lab is the veth's own, counted by
the kernel (rtnetlink's carrier changes)."""
import json
import os
import subprocess
import sys
import time

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dataplane import netdev  # noqa: E402  a port's netdev in the lab (EOS's Ethernet1/1 has no '/')

PRIORITY = 3  # the lab profiles' lossless priority (profiles/roce-lossless.yaml), and the RoCE one

# Per second, on each direction of every cable: what a working fabric shows.
BACKGROUND = {"tx_pause": 20, "tx_pause_us": 10_000, "ecn_marked": 100, "cnp_sent": 100}

# Per second, on the end the fault names (and, "peer_*", on the far end of its cable).
FAULTS = {
    "slow-receiver": {"tx_pause": 20_000, "tx_pause_us": 400_000},
    # The watchdog detects after its detection time and restores after its restoration time (the lab
    # profile: 200 ms each), and detects again: a storm every 0.4 s while the NIC stays stuck.
    "storm": {"tx_pause": 50_000, "tx_pause_us": 1_000_000, "pause_storm_warnings": 1,
              "peer_storms": 1 / 0.4, "peer_wd_drops": 1_000},
    "cnp-broken": {"cnp_sent": 0},
    "rp-off": {"cnp_handled": 0, "cnp_ignored": 100},
    "lossless-drops": {"rx_discards": 50},
    "crc": {"fcs": 5},
    "retransmit": {"seq_err": 50},
    "flap": {},
    # A NIC whose PCIe link trained narrow: no counter of its own moves, its bandwidth tests run slow (the
    # hosts' ib_write_bw double, perftest.py, reads this fault).
    "slow-pcie": {},
}
HOST_ONLY = {"slow-receiver", "storm", "cnp-broken", "rp-off", "retransmit", "flap", "slow-pcie"}
# The faults a switch's port can have too, on the platforms whose counters of them fabricctl reads.
COUNTED_ON = {"lossless-drops": ("sonic",), "crc": ("eos", "junos", "nvue", "nxos", "sonic")}


def load_json(path, default):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return default


def save_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(value, f, indent=1, sort_keys=True)
    os.replace(path + ".tmp", path)


def topology(state):
    """{device: {"role", "platform"}} and the cables [(dev, port, dev, port)] of the lab's inventory."""
    devices, cables = {}, []
    inv = os.path.join(state, "inventory")
    for name in sorted(os.listdir(inv)):
        if not name.endswith((".yaml", ".yml")):
            continue
        with open(os.path.join(inv, name)) as f:
            doc = yaml.safe_load(f) or {}
        for dev, spec in (doc.get("devices") or {}).items():
            devices[dev] = {"role": spec["role"], "platform": spec.get("platform", "linux")}
        for link in doc.get("links") or []:
            (da, pa), (db, pb) = link["a"].split(":", 1), link["b"].split(":", 1)
            cables.append((da, pa, db, pb))
    return devices, cables


def peers(cables):
    out = {}
    for da, pa, db, pb in cables:
        out[(da, pa)] = (db, pb)
        out[(db, pb)] = (da, pa)
    return out


def rates(devices, cables, faults):
    """{(dev, port): {quantity: per second}} for every cable end, the faults applied."""
    ends = peers(cables)
    out = {end: {} for end in ends}
    for end, peer in ends.items():
        r = out[end]
        r["tx_pause"] = BACKGROUND["tx_pause"]
        r["tx_pause_us"] = BACKGROUND["tx_pause_us"]
        if devices[end[0]]["role"] == "host":
            r["ecn_marked"] = BACKGROUND["ecn_marked"]
            r["cnp_sent"] = BACKGROUND["cnp_sent"]
            r["cnp_handled"] = BACKGROUND["cnp_sent"]  # the CNPs its peers' NICs send it, handled
    for kind, where in faults:
        dev, port = where.split(":", 1)
        for q, per_s in FAULTS[kind].items():
            if q.startswith("peer_"):
                out[ends[(dev, port)]][q[len("peer_"):]] = per_s
            else:
                out[(dev, port)][q] = per_s
    for end, peer in ends.items():  # what one end sends, the other receives
        out[end]["rx_pause"] = out[peer]["tx_pause"]
        out[end]["rx_pause_us"] = out[peer]["tx_pause_us"]
    return out


def host_ports(state, host):
    """{port: (netdev, rdma device, rdma port)} of a host, from the NIC state it was rendered with."""
    with open(os.path.join(state, "render", host, "nic-state.json")) as f:
        nic = json.load(f)
    return {p["netdev"]: (p["netdev"], (p.get("rdma") or {}).get("device"), (p.get("rdma") or {}).get("port"))
            for p in nic["ports"]}


def write_host(state, host, counters):
    """mlx5's names (drivers/net/ethernet/mellanox/mlx5/core/en_stats.c, drivers/infiniband/hw/mlx5/counters.c)."""
    root = os.path.join(state, host, "root")
    for port, (netdev, rdma, n) in host_ports(state, host).items():
        c = {k: int(v) for k, v in counters.get(port, {}).items()}
        p = PRIORITY
        stats = [("rx_prio%d_pause" % p, c.get("rx_pause", 0)), ("tx_prio%d_pause" % p, c.get("tx_pause", 0)),
                 ("rx_prio%d_pause_duration" % p, c.get("rx_pause_us", 0)),
                 ("tx_prio%d_pause_duration" % p, c.get("tx_pause_us", 0)),
                 ("rx_prio%d_discards" % p, c.get("rx_discards", 0)),
                 ("tx_pause_storm_warning_events", c.get("pause_storm_warnings", 0)),
                 ("tx_pause_storm_error_events", 0), ("rx_discards_phy", c.get("rx_discards", 0)),
                 ("rx_crc_errors_phy", c.get("fcs", 0)), ("rx_symbol_err_phy", 0)]
        text = "NIC statistics:\n" + "".join("     %s: %d\n" % s for s in stats)
        path = os.path.join(root, "dcb", netdev + ".ethtool")
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
        if not rdma:
            continue
        hw = os.path.join(root, "sys/class/infiniband", rdma, "ports", str(n), "hw_counters")
        os.makedirs(hw, exist_ok=True)
        for name, value in (("np_ecn_marked_roce_packets", c.get("ecn_marked", 0)), ("np_cnp_sent", c.get("cnp_sent", 0)),
                            ("rp_cnp_handled", c.get("cnp_handled", 0)), ("rp_cnp_ignored", c.get("cnp_ignored", 0)),
                            ("out_of_sequence", 0), ("packet_seq_err", c.get("seq_err", 0)),
                            ("implied_nak_seq_err", 0), ("local_ack_timeout_err", 0), ("out_of_buffer", 0)):
            with open(os.path.join(hw, name), "w") as f:
                f.write("%d\n" % value)


def write_sonic(state, dev, counters, stormed, marks):
    """COUNTERS_DB: the port's SAI PFC and error statistics, its RoCE queue's PFC watchdog statistics and
    ECN marks (toward the NIC behind the port: `marks`, port -> the peer's count), and the drops of the
    lossless priority's ingress PG (sonic-swss orchagent/pfcwdorch.cpp, port_rates; the keys pfcstat,
    portstat, queuestat, wredstat and pg-drop read)."""
    db = {"PG": {}}
    for port, c in counters.items():
        c = {k: int(v) for k, v in c.items()}
        db[port] = {"SAI_PORT_STAT_PFC_%d_RX_PKTS" % PRIORITY: str(c.get("rx_pause", 0)),
                    "SAI_PORT_STAT_PFC_%d_TX_PKTS" % PRIORITY: str(c.get("tx_pause", 0)),
                    "SAI_PORT_STAT_IF_IN_ERRORS": str(c.get("fcs", 0)),
                    "SAI_PORT_STAT_IF_IN_DISCARDS": str(c.get("rx_discards", 0))}
        db["%s:%d" % (port, PRIORITY)] = {
            "PFC_WD_STATUS": "stormed" if port in stormed else "operational",
            "PFC_WD_QUEUE_STATS_DEADLOCK_DETECTED": str(c.get("storms", 0)),
            "PFC_WD_QUEUE_STATS_DEADLOCK_RESTORED": str(max(0, c.get("storms", 0) - (port in stormed))),
            "PFC_WD_QUEUE_STATS_TX_DROPPED_PACKETS": str(c.get("wd_drops", 0)),
            "SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS": str(int(marks.get(port, 0)))}
        db["PG"]["%s:%d" % (port, PRIORITY)] = {"SAI_INGRESS_PRIORITY_GROUP_STAT_DROPPED_PACKETS":
                                                str(c.get("rx_discards", 0))}
    save_json(os.path.join(state, dev, "state", "counters.json"), db)


def write_eos(state, dev, counters, marks):
    """interfaceCounters of `show interfaces | json` (what the EOS emulator merges over its defaults), and
    the PFC frames and ECN marks of its QoS counter commands: a port marks, on the RoCE class's egress
    queue, what the NIC behind it counts as marked (`marks`: port -> the peer's count)."""
    out, qos = {}, {}
    for port, c in counters.items():
        c = {k: int(v) for k, v in c.items()}
        out[port] = {"inDiscards": c.get("rx_discards", 0),
                     "inputErrorsDetail": {"fcsErrors": c.get("fcs", 0), "symbolErrors": 0}}
        qos[port] = {"pfc": {"rxFrames": c.get("rx_pause", 0), "txFrames": c.get("tx_pause", 0)},
                     "ecn": {str(PRIORITY): int(marks.get(port, 0))}}
    save_json(os.path.join(state, dev, "state", "counters.json"), out)
    save_json(os.path.join(state, dev, "state", "qos-counters.json"), qos)


def write_nvue(state, dev, counters, marks):
    """link.stats of `nv show interface -o json` (what the NVUE emulator merges over its defaults): the
    kernel's counts of the port, frames received in error and dropped; and the port's `counters qos`: PFC
    frames on the lossless priority both ways, and the ECN marks toward the NIC behind it; and its
    watchdog's storms on the lossless priority's class."""
    out = {port: {"in-errors": int(c.get("fcs", 0)), "in-drops": int(c.get("rx_discards", 0)),
                  "qos": {"pfc": {str(PRIORITY): {"rx-pause-frames": int(c.get("rx_pause", 0)),
                                                  "tx-pause-frames": int(c.get("tx_pause", 0))}},
                          "ecn-marked-packets": int(marks.get(port, 0)),
                          "watchdog": {str(PRIORITY): int(c.get("storms", 0))}}}
           for port, c in counters.items()}
    save_json(os.path.join(state, dev, "state", "counters.json"), out)


def write_nxos(state, dev, counters, stormed):
    """`show interface`'s CRC errors and input discards, `show queuing interface`'s PFC frames on the lossless
    CoS both ways, and the storms, restores and drops of its PFC watchdog (`show queuing pfc-queue detail`;
    a port still `stormed` has one restore fewer): what the NX-OS emulator prints from its counters.json."""
    def watchdog(port, c):
        storms = int(c.get("storms", 0))
        return {"storms": storms, "restored": max(0, storms - (port in stormed)), "drops": int(c.get("wd_drops", 0))}

    out = {port: {"eth_crc": int(c.get("fcs", 0)), "eth_indiscard": int(c.get("rx_discards", 0)),
                  "pfc": {str(PRIORITY): {"rx": int(c.get("rx_pause", 0)), "tx": int(c.get("tx_pause", 0))}},
                  "watchdog": {str(PRIORITY): watchdog(port, c)}}
           for port, c in counters.items()}
    save_json(os.path.join(state, dev, "state", "counters.json"), out)


def write_junos(state, dev, counters):
    """`show interfaces extensive`'s framing errors and input drops, and its MAC's PFC frames on the lossless
    priority both ways (what the Junos emulator prints from its counters.json)."""
    out = {port: {"framing-errors": int(c.get("fcs", 0)), "input-drops": int(c.get("rx_discards", 0)),
                  "pfc": {str(PRIORITY): {"input": int(c.get("rx_pause", 0)), "output": int(c.get("tx_pause", 0))}}}
           for port, c in counters.items()}
    save_json(os.path.join(state, dev, "state", "counters.json"), out)


def write(state, model, devices, cables):
    """Every device's counters as `model` holds them, in its reader's native names."""
    by_device = {}
    for key, value in model["counters"].items():
        dev, port = key.split(":", 1)
        by_device.setdefault(dev, {})[port] = value
    ends = peers(cables)
    stormed = {w for kind, w in model["faults"] if kind == "storm"}
    stormed_ports = {"%s:%s" % ends[tuple(w.split(":", 1))] for w in stormed}
    for dev, spec in devices.items():
        counters = by_device.get(dev, {})
        if spec["role"] == "host":
            write_host(state, dev, counters)
            continue
        marks = {port: model["counters"].get("%s:%s" % ends[(dev, port)], {}).get("ecn_marked", 0)
                 for port in counters}
        if spec["platform"] == "sonic":
            write_sonic(state, dev, counters, {p for p in counters if "%s:%s" % (dev, p) in stormed_ports}, marks)
        elif spec["platform"] == "eos":
            write_eos(state, dev, counters, marks)
        elif spec["platform"] == "nvue":
            write_nvue(state, dev, counters, marks)
        elif spec["platform"] == "nxos":
            write_nxos(state, dev, counters, {p for p in counters if "%s:%s" % (dev, p) in stormed_ports})
        elif spec["platform"] == "junos":
            write_junos(state, dev, counters)


def model_path(state):
    return os.path.join(state, "traffic.json")


def init(state):
    devices, cables = topology(state)
    model = {"at": time.time(), "faults": [],
             "counters": {"%s:%s" % end: {} for end in peers(cables)}}
    save_json(model_path(state), model)
    write(state, model, devices, cables)


def tick(state):
    model = load_json(model_path(state), None)
    if model is None:
        sys.exit("traffic.py: %s has no traffic model: run init first" % state)
    devices, cables = topology(state)
    now = time.time()
    seconds = max(0.0, now - model["at"])
    for (dev, port), r in rates(devices, cables, model["faults"]).items():
        c = model["counters"].setdefault("%s:%s" % (dev, port), {})
        for q, per_s in r.items():
            c[q] = c.get(q, 0.0) + per_s * seconds
    model["at"] = now
    save_json(model_path(state), model)
    write(state, model, devices, cables)


def fault(state, kind, where):
    devices, cables = topology(state)
    if kind not in FAULTS:
        sys.exit("traffic.py: no fault %r: %s" % (kind, ", ".join(sorted(FAULTS))))
    dev, _, port = where.partition(":")
    ends = peers(cables)
    if (dev, port) not in ends:
        sys.exit("traffic.py: %r is not a cabled port of the lab" % where)
    counts = COUNTED_ON.get(kind)
    if devices[dev]["role"] != "host" and (kind in HOST_ONLY or (counts and devices[dev]["platform"] not in counts)):
        sys.exit("traffic.py: %s needs an end whose counters of it fabricctl reads (a host%s), not %s"
                 % (kind, "".join(", " + p for p in counts or ()), devices[dev]["platform"]))
    far = devices[ends[(dev, port)][0]]
    if kind == "storm" and far["platform"] not in ("sonic", "nvue", "nxos"):
        sys.exit("traffic.py: storm needs a far end whose watchdog storms fabricctl reads (SONiC, NVUE, NX-OS), not %s"
                 % far["platform"])
    if kind == "flap":
        # The switch's end goes down and up: the host's end loses its carrier and gets it back, as when a
        # cable is pulled, and keeps its addresses and routes (an administrative down would remove them).
        far_dev, far_port = ends[(dev, port)]
        for updown in ("down", "up"):
            subprocess.run([os.path.join(state, "ns"), far_dev, "ip", "link", "set", "dev", netdev(far_port), updown],
                           check=True)
        return
    model = load_json(model_path(state), None)
    model["faults"].append([kind, where])
    save_json(model_path(state), model)


def clear(state):
    """The faults end at the last tick: a test reads the lab right after a tick, then clears, so that the
    next reading's window holds none of them."""
    model = load_json(model_path(state), None)
    model["faults"] = []
    save_json(model_path(state), model)


def main(argv):
    if len(argv) == 3 and argv[2] in ("init", "tick", "clear"):
        {"init": init, "tick": tick, "clear": clear}[argv[2]](argv[1])
        return 0
    if len(argv) == 5 and argv[2] == "fault":
        fault(argv[1], argv[3], argv[4])
        return 0
    sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

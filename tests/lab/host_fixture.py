#!/usr/bin/python3
"""A lab host's NIC state as the files a ConnectX host shows (sysfs, configfs, /etc), built from the host's
rendered nic-state.json: what `fabricctl host collect --root DIR` reads where the lab has no RDMA NIC
(docs/lab.md). The layout is the one src/platform/linux/host_sysfs.h documents:

  sys/class/net/IF/speed, ecn/roce_{rp,np}/...           MLNX_OFED mlx5 sysfs
  sys/class/infiniband/DEV/ports/N/{state,active_mtu,gids,gid_attrs}, tc/N/traffic_class
  sys/kernel/config/rdma_cm/DEV/ports/N/default_roce_{mode,tos}   the configfs group, once made
  fixture-kernel/rdma_cm/DEV/ports/N/default_roce_{mode,tos}    the cma device's own values
  etc/nccl.conf

Files show what the kernel shows; what it accepts is modelled where fabricctl writes, by
tests/unit/fixture_kernel.h (the lab's host agent, tests/lab/fixture_host_main.cpp, runs behind it). rdma_cm keeps
its values in the kernel's cma device, not in the configfs group (drivers/infiniband/core/cma_configfs.c): the
model keeps them under fixture-kernel/, and making the group shows them.

  host_fixture.py NIC_STATE_JSON ROOT [--factory]

--factory: the same ports at the NIC's defaults instead of the rendered state (what `fabricctl host apply`
starts from in the lab): no PFC, no DSCP app entries (trust PCP), every priority in TC 0, DCQCN off with the
firmware's CNP marking (shared/reference/host-nic.md: CNP_DSCP 48, CNP_802P_PRIO 6, MIN_TIME_BETWEEN_CNPS 0),
rdma_cm's default ToS 0 with no configfs group made yet, no traffic_class override, no nccl.conf. The lab sets the netdev MTU (1500) itself.
"""
import json
import os
import struct
import sys


def put(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text + "\n")


def ib_mtu(mtu):
    # RoCE active MTU: the netdev MTU less the RoCE headers (96 bytes), down to an IB MTU.
    for m in (4096, 2048, 1024, 512, 256):
        if mtu - 96 >= m:
            return m
    return 256


def attr(kind, payload):
    """A netlink attribute: length, type, payload, padded to 4 bytes."""
    raw = struct.pack("<HH", 4 + len(payload), kind) + payload
    return raw + b"\0" * (-len(raw) % 4)


def dcb_reply(port):
    """The kernel's DCB_CMD_IEEE_GET reply for the port in its rendered state (linux/dcbnl.h layouts; the
    byte groups are those tests/fixtures/dcbnl/ieee_get_reply.hex comments): ETS, PFC, the DSCP app table."""
    tcs = {t["tc"]: t for t in port["ets"]["tc"]}
    tsa = bytes(2 if tcs[t]["tsa"] == "ets" else 0 for t in range(8))
    bw = bytes(tcs[t]["bw"] for t in range(8))
    ets = struct.pack("<BBB", 0, 8, 0) + bw + bytes(8) + tsa + bytes(port["ets"]["prio_tc"]) + bytes(24)
    pfc_en = sum(1 << p for p in port["pfc"]["enabled_priorities"])
    delay = port["pfc"]["cable_length_m"]
    pfc = struct.pack("<BBBxH2x", 8, pfc_en, 0, delay) + bytes(128)
    apps = b"".join(attr(1, struct.pack("<BBH", 5, prio, dscp)) for dscp, prio in port["app_dscp_prio"])
    ieee = attr(1, ets) + attr(2, pfc) + attr(3, apps)
    name = port["netdev"].encode() + b"\0"
    body = struct.pack("<BBH", 0, 21, 0) + attr(1, name) + attr(13, ieee) + attr(14, b"\x09")
    msg = struct.pack("<IHHII", 16 + len(body), 78, 0, 0, 0) + body
    lines = ["# DCB_CMD_IEEE_GET reply of %s (tests/lab/host_fixture.py)" % port["netdev"]]
    lines += [" ".join("%02x" % b for b in msg[i:i + 16]) for i in range(0, len(msg), 16)]
    return "\n".join(lines)


# mlx5 firmware defaults of the reaction-point parameters (shared/reference/host-nic.md); the others are left out.
RP_DEFAULTS = {"rpg_time_reset": 300, "rpg_byte_reset": 32767, "rpg_threshold": 1, "rpg_ai_rate": 5,
               "rpg_hai_rate": 50, "rpg_gd": 11, "rpg_min_dec_fac": 50, "rpg_min_rate": 1,
               "rate_to_set_on_first_cnp": 0, "dce_tcp_g": 1019, "dce_tcp_rtt": 1,
               "rate_reduce_monitor_period": 4, "initial_alpha_value": 1023}


def factory(state):
    """The document with every port at the NIC's defaults (a stand-in mlx5 reports a standard ETS here; a
    real one shows its vendor TSA, which fabricctl refuses to read as a neutral schedule)."""
    for port in state["ports"]:
        port["app_dscp_prio"] = []
        port["pfc"] = {"enabled_priorities": [], "cable_length_m": 0}
        port["ets"] = {"prio_tc": [0] * 8,
                       "tc": [{"tc": t, "tsa": "ets" if t == 0 else "strict", "bw": 100 if t == 0 else 0}
                              for t in range(8)]}
        dc = port["dcqcn"]
        dc.update(rp_enabled_priorities=[], np_enabled_priorities=[], cnp_dscp=48, cnp_802p_prio=6,
                  min_time_between_cnps=0)
        dc["rp"] = {k: RP_DEFAULTS.get(k) for k in dc["rp"]}
        if port.get("rdma"):
            port["rdma"].update(roce_tos=0, traffic_class=None)
    state["nccl"] = None
    return state


def main():
    state_file, root = sys.argv[1], sys.argv[2]
    with open(state_file) as f:
        state = json.load(f)
    factory_state = sys.argv[3:] == ["--factory"]
    if factory_state:
        state = factory(state)
    elif sys.argv[3:]:
        sys.stderr.write("usage: host_fixture.py NIC_STATE_JSON ROOT [--factory]\n")
        return 2
    # configfs is mounted and rdma_cm loaded: its groups are made under this directory.
    os.makedirs(os.path.join(root, "sys/kernel/config/rdma_cm"), exist_ok=True)
    for port in state["ports"]:
        net = os.path.join(root, "sys/class/net", port["netdev"])
        put(os.path.join(net, "speed"), str(port.get("speed_mbps") or -1))
        dc = port["dcqcn"]
        for p in range(8):
            put(os.path.join(net, "ecn/roce_rp/enable", str(p)), "1" if p in dc["rp_enabled_priorities"] else "0")
            put(os.path.join(net, "ecn/roce_np/enable", str(p)), "1" if p in dc["np_enabled_priorities"] else "0")
        put(os.path.join(net, "ecn/roce_np/cnp_dscp"), str(dc["cnp_dscp"]))
        put(os.path.join(net, "ecn/roce_np/cnp_802p_prio"), str(dc["cnp_802p_prio"]))
        # What the profile leaves to the firmware (null) reads as the firmware's default, as on a NIC.
        put(os.path.join(net, "ecn/roce_np/min_time_between_cnps"), str(dc["min_time_between_cnps"] or 0))
        for name, value in dc["rp"].items():
            if value is not None:
                put(os.path.join(net, "ecn/roce_rp", name), str(value))
        put(os.path.join(root, "dcb", port["netdev"] + ".dcbnl"), dcb_reply(port))
        rdma = port.get("rdma")
        if not rdma:
            continue
        dev, n = rdma["device"], str(rdma["port"])
        os.makedirs(os.path.join(net, "device/infiniband", dev), exist_ok=True)
        ib = os.path.join(root, "sys/class/infiniband", dev)
        put(os.path.join(ib, "ports", n, "state"), "4: ACTIVE")
        put(os.path.join(ib, "ports", n, "active_mtu"), "%d (%d)" % (min(rdma["mtu"], ib_mtu(port["mtu"])), 5))
        # A ConnectX netdev with a link-local and one IPv4 address: RoCE v1 and v2 GIDs of each.
        gids = ["fe80:0000:0000:0000:0000:0000:0000:0001"] * 2 + ["0000:0000:0000:0000:0000:ffff:0a00:0001"] * 2
        for i, gid in enumerate(gids):
            put(os.path.join(ib, "ports", n, "gids", str(i)), gid)
            put(os.path.join(ib, "ports", n, "gid_attrs/types", str(i)), "IB/RoCE v1" if i % 2 == 0 else "RoCE v2")
            put(os.path.join(ib, "ports", n, "gid_attrs/ndevs", str(i)), port["netdev"])
        tclass = rdma["traffic_class"]
        put(os.path.join(ib, "tc", n, "traffic_class"), "" if tclass is None else "Global tclass=%d" % tclass)
        memory = os.path.join(root, "fixture-kernel/rdma_cm", dev, "ports", n)
        put(os.path.join(memory, "default_roce_mode"), "RoCE v2")
        put(os.path.join(memory, "default_roce_tos"), str(rdma["roce_tos"]))
        if not factory_state:
            group = os.path.join(root, "sys/kernel/config/rdma_cm", dev, "ports", n)
            put(os.path.join(group, "default_roce_mode"), "RoCE v2")
            put(os.path.join(group, "default_roce_tos"), str(rdma["roce_tos"]))
    nccl = state.get("nccl")
    if nccl is None:
        return 0
    lines = ["NCCL_IB_TC=%d" % nccl["ib_tc"]] if "ib_tc" in nccl else []
    if nccl.get("ib_gid_index") is not None:
        lines.append("NCCL_IB_GID_INDEX=%d" % nccl["ib_gid_index"])
    put(os.path.join(root, "etc/nccl.conf"), "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())

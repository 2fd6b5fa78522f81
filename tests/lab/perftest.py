#!/usr/bin/python3
"""The lab hosts' ib_write_bw: perftest's server and client as far as `fabricctl acceptance` runs them. The
out-of-band exchange is real TCP over the lab's management network, as perftest's is; the RDMA test is a
model, since the lab has no RDMA device (the test double for the NIC, as the fixture tree is for sysfs).

    perftest.py HOSTDIR [ib_write_bw's arguments]     (the host's bin/ib_write_bw execs this)

What it takes and refuses, from perftest's own source (linux-rdma/perftest):
  -d DEV -i PORT -F --report_gbits -D S --tclass=N -p TCPPORT [SERVER]   the options acceptance gives
  a device the host does not have     "IB device DEV not found" (perftest_resources.c), exit 1
  a client whose server does not listen  "Couldn't connect to SERVER:PORT" (perftest_communication.c), exit 1
  any other option                     refused, exit 1 (perftest prints its usage)
The report is the client's and the server's in perftest's layout (perftest_parameters.h: RESULT_LINE,
RESULT_FMT_G, REPORT_FMT): 65536-byte messages, the average at 93% of the port's speed (HOSTDIR/../render/
HOST/nic-state.json), or at what the lab's traffic model says of the port (traffic.py `slow-pcie`: 60%). -D's
seconds are not waited: the test's time is not what the lab tests.
"""
import json
import os
import socket
import sys

LINE = "-" * 87
HEADER = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]"
HEALTHY, SLOW = 0.93, 0.60  # shares of the line rate


def fail(message):
    sys.stderr.write(message + "\n")
    sys.exit(1)


def options(argv):
    o = {"server": None, "port": 18515}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-d", "-i", "-D", "-p") and i + 1 < len(argv):
            o[a] = argv[i + 1]
            i += 2
            continue
        if a in ("-F", "--report_gbits") or a.startswith("--tclass="):
            o[a.split("=")[0]] = a.partition("=")[2]
        elif not a.startswith("-") and o["server"] is None:
            o["server"] = a
        else:
            fail("ib_write_bw: unknown option %r" % a)
        i += 1
    if "-p" in o:
        o["port"] = int(o["-p"])
    return o


def port_of(state, host, device):
    """The host's netdev on RDMA device `device`, and its speed in Gb/s, from its rendered NIC state."""
    with open(os.path.join(state, "render", host, "nic-state.json")) as f:
        for p in json.load(f)["ports"]:
            if (p.get("rdma") or {}).get("device") == device:
                return p["netdev"], int(p.get("speed_mbps") or 400000) / 1000
    return None, 0


def share(state, host, netdev):
    try:
        with open(os.path.join(state, "traffic.json")) as f:
            faults = json.load(f)["faults"]
    except FileNotFoundError:
        return HEALTHY
    return SLOW if ["slow-pcie", "%s:%s" % (host, netdev)] in faults else HEALTHY


def report(test, device, gbps):
    rows = [LINE, "                    RDMA_Write BW Test",
            " Dual-port       : OFF\t\tDevice         : %s" % device,
            " Number of qps   : 1\t\tTransport type : IB",
            " Connection type : RC\t\tUsing SRQ      : OFF",
            " Mtu             : 4096[B]", " Link type       : Ethernet", " GID index       : 3",
            " Data ex. method : Ethernet", LINE, HEADER,
            " %-7d    %-10d       %-7.2f            %-7.2f\t\t     %-7.6f" % (65536, 5000, gbps * 1.01, gbps,
                                                                          gbps * 1e9 / 8 / 65536 / 1e6),
            LINE]
    if test == "server":
        rows.insert(0, "\n************************************\n* Waiting for client to connect... *\n"
                       "************************************")
    return "\n".join(rows) + "\n"


def main():
    hostdir = os.path.abspath(sys.argv[1])
    state, host = os.path.dirname(hostdir), os.path.basename(hostdir)
    o = options(sys.argv[2:])
    device = o.get("-d")
    netdev, line_gbps = port_of(state, host, device)
    if netdev is None:
        fail("IB device %s not found" % device)
    if o["server"] is None:
        with socket.create_server(("0.0.0.0", o["port"]), reuse_port=True) as s:
            s.settimeout(60)
            conn, _ = s.accept()
            with conn:
                peer_gbps = float(conn.recv(64).decode() or 0)
                conn.sendall(b"ok")
        sys.stdout.write(report("server", device, peer_gbps))
        return 0
    gbps = line_gbps * share(state, host, netdev)
    try:
        with socket.create_connection((o["server"], o["port"]), timeout=5) as c:
            c.sendall(b"%.2f" % gbps)
            c.recv(2)
    except OSError:
        fail("Couldn't connect to %s:%d" % (o["server"], o["port"]))
    sys.stdout.write(report("client", device, gbps))
    return 0


if __name__ == "__main__":
    sys.exit(main())

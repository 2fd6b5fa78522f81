"""The ports of an emulated switch as its emulator reports them: STATE/ports.json, and in the lab (where
an entry names its "netdev" and ports.json names lldpd's socket) the real netdev's operational state and
the neighbours the real lldpd saw on it.

  ports.json   {"Ethernet0": {"speed": "400G", "oper": "up", "lldp": ["host1", "ens1f0np0"]}}   (tests)
               {"_lldp_socket": "/run/fablab-<run>/<switch>.lldpd.sock",
                "Ethernet0": {"speed": "400G", "netdev": "Ethernet0"}}                        (the lab)
"""
import json

import common


def _load(state):
    return common.load(state, "ports.json", {})


def _lldp(socket):
    """Local netdev -> (system name, port ID), from `lldpcli -f json0 show neighbors`."""
    import subprocess  # only in the lab: imported where it is used, since every command loads this module

    try:
        out = subprocess.run(["lldpcli", "-u", socket, "-f", "json0", "show", "neighbors"], capture_output=True,
                             text=True, timeout=5).stdout
        seen = {}
        for lldp in json.loads(out)["lldp"]:
            for i in lldp.get("interface", []):
                name = i["chassis"][0]["name"][0]["value"]
                port = i["port"][0]["id"][0]["value"]
                seen[i["name"]] = [name, port]
        return seen
    except (OSError, ValueError, KeyError, IndexError, subprocess.TimeoutExpired):
        return {}


def load(state):
    ports = _load(state)
    socket = ports.pop("_lldp_socket", None)
    seen = _lldp(socket) if socket else {}
    for p in ports.values():
        dev = p.get("netdev")
        if not dev:
            continue
        try:
            with open("/sys/class/net/%s/operstate" % dev) as f:
                p["oper"] = "up" if f.read().strip() == "up" else "down"
        except OSError:
            p["oper"] = "down"
        if dev in seen:
            p["lldp"] = seen[dev]
    return ports


def set_mtu(state, mtus):
    """Applies {port: L3 MTU} to the lab's real netdevs (nothing outside the lab: no "netdev", no change)."""
    ports = _load(state)
    for port, mtu in mtus.items():
        dev = (ports.get(port) or {}).get("netdev")
        if dev and mtu:
            import subprocess

            subprocess.run(["ip", "link", "set", "dev", dev, "mtu", str(int(mtu))], check=False,
                           capture_output=True)

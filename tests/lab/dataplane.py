"""The lab's data plane as the NOSes build a leaf-spine fabric (docs/lab.md), computed from the inventory's
devices and links alone (no root, nothing run), so that lab.py only carries it out:

- a leaf (a switch with a host on one of its ports) bridges its host-facing ports into one L2 segment, its
  rail's: "br0", with the segment's gateway address on it (the NOS's VLAN interface);
- every switch-to-switch link is routed: a /31 of point-to-point addresses, the port's MTU the interface's,
  never in a bridge, so there is no L2 path between two uplinks and a leaf-spine mesh has no loop;
- each switch routes each other leaf's segment over every next hop on a shortest path to it (ECMP), as BGP
  over the fabric would install it; the routes are computed here instead of learnt (docs/lab.md says why);
- a host's NIC has an address in the segment of the leaf it is cabled to, and routes via that leaf's
  gateway: to the other segments of its own rail, and (at a higher metric, one per NIC, for `ping -I NIC`)
  to the whole data plane.

Addresses: segment 10.<n>.<rail>.0/24 (n: the leaf's index among its rail's leaves, 0 for a rail of one
leaf, so that a rail of one leaf is 10.0.<rail>.0/24), gateway .254, a host's address .<host number> (its
index among the hosts, from 1); routed link k (in the inventory's order) 10.255.<k // 128>.<2 (k % 128)>/31,
its "a" end the even address.

  dataplane.py INVENTORY_DIR      prints the plan as JSON (what lab.py writes to STATE/dataplane.json)
"""
import collections
import ipaddress
import json
import os
import sys

AGGREGATE = "10.0.0.0/8"
GATEWAY_HOST = 254
HOST_ROUTE_METRIC = 1000  # + the NIC's index: the aggregate's route through each NIC, below the rails'


def netdev(port):
    """A port's netdev in the lab: a switch port's name without what Linux does not allow ('/'), at most
    15 bytes. The emulators map it back (ports.json)."""
    return port.replace("/", "_")[:15]


def _ends(link):
    (da, pa), (db, pb) = link["a"].split(":", 1), link["b"].split(":", 1)
    return (da, pa), (db, pb)


def plan(devices, links):
    """{"switches": {name: {"bridged": [netdev], "gateway": "a.b.c.d/24" | None, "segment": "a.b.c.0/24" |
    None, "routed": {netdev: {"address": "a.b.c.d/31", "peer": [device, netdev], "peer_address": "a.b.c.e"}},
    "routes": [[prefix, [[via, netdev], ...]], ...]}}, "hosts": {name: {"number": n, "ports": {netdev:
    {"address", "gateway", "leaf", "rail"}}, "routes": [[prefix, via, netdev, metric | None], ...]}}}.
    Raises ValueError on what the lab cannot address (more than 253 hosts, 255 leaves of one rail)."""
    role = {name: d["role"] for name, d in devices.items()}
    hosts = sorted(n for n, r in role.items() if r == "host")
    if len(hosts) >= GATEWAY_HOST:
        raise ValueError("the lab addresses at most %d hosts, the inventory has %d" % (GATEWAY_HOST - 1, len(hosts)))
    number = {h: i + 1 for i, h in enumerate(hosts)}
    switches = {n: {"bridged": [], "gateway": None, "segment": None, "routed": {}, "routes": []}
                for n, r in sorted(role.items()) if r == "switch"}
    host_out = {h: {"number": number[h], "ports": {}, "routes": []} for h in hosts}

    # Cables: host-facing ports go into their leaf's bridge; switch-to-switch links are routed.
    host_ports = collections.defaultdict(list)  # leaf -> [(host, host port)]
    adjacency = collections.defaultdict(list)  # switch -> [(neighbour, local netdev, neighbour's address)]
    k = 0
    for link in links:
        (da, pa), (db, pb) = _ends(link)
        if role.get(da) == "switch" and role.get(db) == "switch":
            net = ipaddress.ip_network("10.255.%d.%d/31" % (k // 128, 2 * (k % 128)))
            k += 1
            if k > 128 * 255:
                raise ValueError("the lab addresses at most %d switch-to-switch links" % (128 * 255))
            lo, hi = str(net[0]), str(net[1])
            switches[da]["routed"][netdev(pa)] = {"address": lo + "/31", "peer": [db, netdev(pb)], "peer_address": hi}
            switches[db]["routed"][netdev(pb)] = {"address": hi + "/31", "peer": [da, netdev(pa)], "peer_address": lo}
            adjacency[da].append((db, netdev(pa), hi))
            adjacency[db].append((da, netdev(pb), lo))
            continue
        for (s, sp), (h, hp) in (((da, pa), (db, pb)), ((db, pb), (da, pa))):
            if role.get(s) == "switch" and role.get(h) == "host":
                switches[s]["bridged"].append(netdev(sp))
                host_ports[s].append((h, hp))

    # Segments: one per leaf, in its rail (the leaf's own, else its hosts' ports').
    port_rail = {}
    for h in hosts:
        for p, spec in (devices[h].get("ports") or {}).items():
            port_rail[(h, p)] = (spec or {}).get("rail")
    by_rail = collections.defaultdict(list)
    for leaf in sorted(host_ports):
        rail = devices[leaf].get("rail")
        if rail is None:
            rail = next((port_rail.get(hp) for hp in host_ports[leaf] if port_rail.get(hp) is not None), None)
        if rail is not None:
            by_rail[int(rail)].append(leaf)
    segment = {}  # leaf -> (network, gateway address, rail)
    for rail, leaves in by_rail.items():
        if len(leaves) > 255:
            raise ValueError("the lab addresses at most 255 leaves per rail, rail %d has %d" % (rail, len(leaves)))
        for n, leaf in enumerate(leaves):
            net = ipaddress.ip_network("10.%d.%d.0/24" % (n, rail))
            segment[leaf] = (net, net[GATEWAY_HOST], rail)
            switches[leaf]["segment"] = str(net)
            switches[leaf]["gateway"] = "%s/24" % net[GATEWAY_HOST]

    # Each switch's routes to the other leaves' segments: every next hop on a shortest path (ECMP).
    for leaf, (net, _, _) in sorted(segment.items()):
        dist = {leaf: 0}
        queue = collections.deque([leaf])
        while queue:
            s = queue.popleft()
            for nb, _, _ in adjacency[s]:
                if nb not in dist:
                    dist[nb] = dist[s] + 1
                    queue.append(nb)
        for s in sorted(dist):
            if s == leaf:
                continue
            hops = sorted({(via, dev) for nb, dev, via in adjacency[s] if dist.get(nb) == dist[s] - 1})
            switches[s]["routes"].append([str(net), [list(h) for h in hops]])

    # Hosts: an address in their leaf's segment, routes through its gateway.
    for leaf, pairs in sorted(host_ports.items()):
        if leaf not in segment:
            continue
        net, gateway, rail = segment[leaf]
        for h, hp in pairs:
            host_out[h]["ports"][netdev(hp)] = {"address": "%s/24" % net[number[h]], "gateway": str(gateway),
                                                "leaf": leaf, "rail": rail}
    for h in hosts:
        for i, (p, spec) in enumerate(sorted(host_out[h]["ports"].items())):
            for leaf, (net, _, rail) in sorted(segment.items()):
                if rail == spec["rail"] and leaf != spec["leaf"]:
                    host_out[h]["routes"].append([str(net), spec["gateway"], p, None])
            host_out[h]["routes"].append([AGGREGATE, spec["gateway"], p, HOST_ROUTE_METRIC + i])
    return {"switches": switches, "hosts": host_out}


def load(inv_dir):
    import yaml

    devices, links = {}, []
    for name in sorted(os.listdir(inv_dir)):
        if name.endswith((".yaml", ".yml")):
            with open(os.path.join(inv_dir, name)) as f:
                doc = yaml.safe_load(f) or {}
            devices.update(doc.get("devices") or {})
            links += doc.get("links") or []
    return devices, links


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    json.dump(plan(*load(sys.argv[1])), sys.stdout, indent=1)
    sys.stdout.write("\n")

"""What a SONiC switch holds before fabricctl touches it, and what its buffer manager adds: the factory
CONFIG_DB of the emulated SKU for the ports of ports.json, as load_minigraph / `config qos reload`
render it with the image's templates (sonic-buildimage 202305 files/build_templates/qos_config.j2 and
buffers_config.j2, the SKU's buffers_defaults_t1.j2), and buffermgrd's writes (buffermgrd()).

The SKU is DellEMC-Z9332f-O32 (Broadcom Tomahawk 3, 32 x 400G; device/dell/x86_64-dellemc_z9332f_d1508-r0
on 202305): a 400G Broadcom HWSKU that GCU's field validators do not list, so PFC_WD changes through
`config apply-patch` are refused on it (sonic_gcu.py). Its pools, profiles and pg_profile_lookup.ini
are below as the SKU's files have them.

Active ports (the templates' PORT_ACTIVE, minigraph's DEVICE_NEIGHBOR keys) are those ports.json gives
a neighbour ("lldp", in tests) or a cable ("netdev", in the lab): only those get PORT_QOS_MAP, QUEUE
and buffer entries; the pools, profiles, maps, schedulers and WRED profile are there on every switch.

Not modelled: the lanes of the SKU's port_config.ini (a port here has the 8 lanes after its number:
unique, which is what YANG and GCU's validate_lanes check); the dynamic buffer model's tables
(DEFAULT_LOSSLESS_BUFFER_PARAMETER, buffermgrdyn); PORT_QOS_MAP|global and QUEUE|7 of the tunnel-QoS
remap and the backend (ComputeAI, storage) variants of the templates."""
import re

HWSKU = "DellEMC-Z9332f-O32"
DEFAULT_MTU = "9100"  # PORT mtu of SONiC's t1 preset and of default_config_db.cpp

# buffers_defaults_t1.j2 of the SKU: generate_buffer_pool_and_profiles().
BUFFER_POOL = {
    "ingress_lossless_pool": {"size": "66394076", "type": "ingress", "mode": "dynamic", "xoff": "27200352"},
    "egress_lossless_pool": {"size": "38462204", "type": "egress", "mode": "static"},
}
BUFFER_PROFILE = {
    "ingress_lossy_profile": {"pool": "ingress_lossless_pool", "size": "0", "static_th": "66394076"},
    "egress_lossless_profile": {"pool": "egress_lossless_pool", "size": "0", "static_th": "67117468"},
    "egress_lossy_profile": {"pool": "egress_lossless_pool", "size": "1778", "dynamic_th": "1"},
}
DEFAULT_CABLE = "300m"  # buffers_defaults_t1.j2 default_cable, for every port (no neighbour roles here)
# pg_profile_lookup.ini: (speed Mb/s, cable) -> size, xon, xoff, threshold, xon_offset (bytes; threshold
# is the pool mode's *_th).
PG_PROFILE_LOOKUP = {
    (speed, cable): dict(zip(("size", "xon", "xoff", "threshold", "xon_offset"), values))
    for speed, cable, *values in [
        ("100000", "5m", "2540", "2540", "68580", "-2", "2540"),
        ("100000", "40m", "2540", "2540", "74422", "-2", "2540"),
        ("100000", "300m", "2540", "2540", "117348", "-2", "2540"),
        ("100000", "1000m", "2540", "2540", "233172", "-2", "2540"),
        ("100000", "2000m", "2540", "2540", "398526", "-2", "2540"),
        ("400000", "5m", "2540", "2540", "178562", "-2", "2540"),
        ("400000", "40m", "2540", "2540", "201930", "-2", "2540"),
        ("400000", "300m", "2540", "2540", "373888", "-2", "2540"),
        ("400000", "1000m", "2540", "2540", "836676", "-2", "2540"),
        ("400000", "2000m", "2540", "2540", "1498092", "-2", "2540"),
    ]
}

# qos_config.j2, the default (non-remap, non-backend) branches.
DSCP_TO_TC = {str(d): "1" for d in range(64)}
DSCP_TO_TC.update({"3": "3", "4": "4", "5": "2", "8": "0", "46": "5", "48": "6"})
IDENTITY = {str(i): str(i) for i in range(8)}
QOS_TABLES = {
    "TC_TO_PRIORITY_GROUP_MAP": {"AZURE": {"0": "0", "1": "0", "2": "0", "3": "3", "4": "4", "5": "0", "6": "0",
                                           "7": "7"}},
    "MAP_PFC_PRIORITY_TO_QUEUE": {"AZURE": IDENTITY},
    "TC_TO_QUEUE_MAP": {"AZURE": IDENTITY},
    "DSCP_TO_TC_MAP": {"AZURE": DSCP_TO_TC},
    "SCHEDULER": {"scheduler.0": {"type": "DWRR", "weight": "14"}, "scheduler.1": {"type": "DWRR", "weight": "15"}},
    "WRED_PROFILE": {"AZURE_LOSSLESS": {
        "wred_green_enable": "true", "wred_yellow_enable": "true", "wred_red_enable": "true", "ecn": "ecn_all",
        "green_max_threshold": "2097152", "green_min_threshold": "1048576", "yellow_max_threshold": "2097152",
        "yellow_min_threshold": "1048576", "red_max_threshold": "2097152", "red_min_threshold": "1048576",
        "green_drop_probability": "5", "yellow_drop_probability": "5", "red_drop_probability": "5"}},
}


def number(port):
    return int(port[len("Ethernet"):])


def factory_db(ports):
    """The CONFIG_DB of a switch of this SKU after load_minigraph, for ports.json's ports."""
    names = sorted((n for n in ports if re.fullmatch(r"Ethernet[0-9]{1,4}", n)), key=number)
    active = [n for n in names if ports[n].get("lldp") or ports[n].get("netdev")]
    db = {"DEVICE_METADATA": {"localhost": {"hostname": "sonic", "hwsku": HWSKU, "platform":
                                            "x86_64-dellemc_z9332f_d1508-r0", "type": "LeafRouter",
                                            "buffer_model": "traditional", "default_pfcwd_status": "disable"}},
          "PORT": {}, "CABLE_LENGTH": {"AZURE": {}}}
    for n in names:
        m = re.fullmatch(r"([0-9]+)G", str(ports[n].get("speed", "")))
        db["PORT"][n] = {"admin_status": "up", "alias": "etp%d" % (number(n) // 8 + 1), "mtu": DEFAULT_MTU,
                         "lanes": ",".join(str(number(n) + k) for k in range(1, 9)),
                         "speed": str(int(m.group(1)) * 1000) if m else "400000"}
        db["CABLE_LENGTH"]["AZURE"][n] = DEFAULT_CABLE
    neighbours = {n: {"name": ports[n]["lldp"][0], "port": ports[n]["lldp"][1]} for n in active if ports[n].get("lldp")}
    if neighbours:
        db["DEVICE_NEIGHBOR"] = neighbours
    # Pools, profiles, maps, schedulers and WRED are rendered whatever the neighbours; the rest per
    # active port (an empty table is not kept: CONFIG_DB holds no empty hash).
    db.update({t: {k: dict(v) for k, v in entries.items()} for t, entries in QOS_TABLES.items()})
    db["BUFFER_POOL"] = {k: dict(v) for k, v in BUFFER_POOL.items()}
    db["BUFFER_PROFILE"] = {k: dict(v) for k, v in BUFFER_PROFILE.items()}
    db["PORT_QOS_MAP"] = {"global": {"dscp_to_tc_map": "AZURE"}}
    if not active:
        return db
    db["QUEUE"], db["BUFFER_PG"], db["BUFFER_QUEUE"] = {}, {}, {}
    for n in active:
        db["PORT_QOS_MAP"][n] = {"dscp_to_tc_map": "AZURE", "tc_to_queue_map": "AZURE", "tc_to_pg_map": "AZURE",
                                 "pfc_to_queue_map": "AZURE", "pfc_enable": "3,4", "pfcwd_sw_enable": "3,4"}
        for q in "34":
            db["QUEUE"]["%s|%s" % (n, q)] = {"scheduler": "scheduler.1", "wred_profile": "AZURE_LOSSLESS"}
        for q in "01256":
            db["QUEUE"]["%s|%s" % (n, q)] = {"scheduler": "scheduler.0"}
        db["BUFFER_PG"][n + "|0"] = {"profile": "ingress_lossy_profile"}
        db["BUFFER_QUEUE"].update({n + "|3-4": {"profile": "egress_lossless_profile"},
                                   n + "|0-2": {"profile": "egress_lossy_profile"},
                                   n + "|5-6": {"profile": "egress_lossy_profile"}})
    buffermgrd(db)
    return db


def lossless_runs(pfc_enable):
    """buffermgr.cpp: pfc_enable's PGs as a bitmap (words that are not a number ignored), then each
    run of consecutive PGs as "3" or "3-4" (generateIdListFromMap)."""
    pgs = sorted({int(p) for p in pfc_enable.split(",") if p.isdigit() and int(p) < 32})
    runs, i = [], 0
    while i < len(pgs):
        j = i
        while j + 1 < len(pgs) and pgs[j + 1] == pgs[j] + 1:
            j += 1
        runs.append(str(pgs[i]) if i == j else "%d-%d" % (pgs[i], pgs[j]))
        i = j + 1
    return runs


def buffermgrd(db):
    """What the traditional buffer model's buffermgrd writes back into CONFIG_DB when PORT_QOS_MAP's
    pfc_enable, a port's speed or its CABLE_LENGTH changes (sonic-swss 202305 cfgmgr/buffermgr.cpp
    doSpeedUpdateTask), for a port with pfc_enable and a cable length other than "0m":
    - BUFFER_PROFILE "pg_lossless_<speed>_<cable>_profile" from the SKU's pg_profile_lookup.ini, unless
      it exists: pool ingress_lossless_pool, xon, xon_offset, xoff, size and <pool mode>_th. A speed and
      cable the lookup lacks: nothing is written for that port (the daemon logs "No PG profile
      configured" and gives up on it).
    - BUFFER_PG "<port>|<run>" for each run of lossless PGs with that profile, unless the entry already
      has it. It never deletes a PG entry (its one `del` is of an admin-down port on mellanox/barefoot,
      not modelled), so an old run stays beside the new one.
    The dynamic model (DEVICE_METADATA buffer_model "dynamic") is buffermgrdyn, which does not write
    BUFFER_PG. Not modelled: that the real daemon writes moments after the change, not with it."""
    if db.get("DEVICE_METADATA", {}).get("localhost", {}).get("buffer_model") == "dynamic":
        return
    lengths = db.get("CABLE_LENGTH", {}).get("AZURE", {})
    mode = db.get("BUFFER_POOL", {}).get("ingress_lossless_pool", {}).get("mode")
    for port, entry in db.get("PORT_QOS_MAP", {}).items():
        cable, speed = lengths.get(port), db.get("PORT", {}).get(port, {}).get("speed")
        lookup = PG_PROFILE_LOOKUP.get((speed, cable))
        if "pfc_enable" not in entry or not cable or cable == "0m" or not lookup or not mode:
            continue
        profile = "pg_lossless_%s_%s_profile" % (speed, cable)
        profiles = db.setdefault("BUFFER_PROFILE", {})
        if profile not in profiles:
            profiles[profile] = {"pool": "ingress_lossless_pool", "xon": lookup["xon"],
                                 "xon_offset": lookup["xon_offset"], "xoff": lookup["xoff"], "size": lookup["size"],
                                 mode + "_th": lookup["threshold"]}
        for run in lossless_runs(entry["pfc_enable"]):
            pgs = db.setdefault("BUFFER_PG", {})
            if pgs.get(port + "|" + run, {}).get("profile") != profile:
                pgs[port + "|" + run] = {"profile": profile}

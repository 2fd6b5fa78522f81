"""What SONiC's generic config updater (GCU) refuses before it writes anything, for the emulated SONiC
switch (sonic.py): the field operation validators that `config apply-patch`, `config replace` and
`config rollback` run (all three go through PatchApplier.apply), per release branch.

Source: sonic-net/sonic-utilities, generic_config_updater/gu_common.py (ConfigWrapper.
validate_field_operation), field_operation_validators.py and gcu_field_operation_validators.conf.json,
read on the release branches 202205 to 202605 and master (docs/sonic-gcu.md has the details):
- The validators judge a fresh diff between the running CONFIG_DB and the patched one
  (jsonpatch.JsonPatch.from_diff), not the patch as sent: a table the switch lacks is one `add` of the
  whole table, a new entry one `add` of the whole entry, a changed field a `replace`.
- Three removals are illegal on every branch (202211 has nothing else): /PFC_WD/GLOBAL,
  /PFC_WD/GLOBAL/POLL_INTERVAL, /LOOPBACK_INTERFACE/Loopback0.
- PFC_WD (202205, 202305 and later) and WRED_PROFILE (202205, 202305 to 202505) have
  rdma_config_update_validator: the switch's ASIC, from sonic_version.yml's asic_type and the HWSKU
  of DEVICE_METADATA|localhost, must be one the conf.json lists (an unlisted HWSKU is refused), each
  field of the change one of the scenario's fields, the operation one of its operations, and the
  image's build date (the last 8-digit piece of build_version; community builds have none and skip
  this) not before the ASIC's threshold. Path elements with a digit are dropped (Ethernet0), the rest
  lower-cased; a dict value's keys are the fields (not lower-cased).
- WRED_PROFILE: until 202411 only `replace` of azure_lossless/green_min_threshold, green_max_threshold
  and green_drop_probability; 202505 the same fields in any profile (wred_profile_config_update_validator,
  sonic-utilities #3910/#3934); gone in 202511 (#4219, cherry-picked as #4226).
Not modelled: BUFFER_POOL and BUFFER_PROFILE (fabricctl writes neither), PORT's fec/speed validator,
HWSKUs the lists gained after 202205 (refused here where a later real switch may accept them: the
emulator errs on the side of refusing), `move` operations jsonpatch may emit.
"""
import re

VALIDATORS = "generic_config_updater.field_operation_validators."
ILLEGAL_REMOVALS = ("/PFC_WD/GLOBAL/POLL_INTERVAL", "/PFC_WD/GLOBAL", "/LOOPBACK_INTERFACE/Loopback0")

# helper_data.rdma_config_update_validator as on 202205 (every later branch keeps these).
MELLANOX_ASICS = {
    "spc1": ["ACS-MSN2700", "ACS-MSN2740", "ACS-MSN2100", "ACS-MSN2410", "ACS-MSN2010", "Mellanox-SN2700",
             "Mellanox-SN2700-D48C8"],
    "spc2": ["ACS-MSN3800", "Mellanox-SN3800-D112C8"],
    "spc3": ["ACS-MSN4700", "ACS-MSN4600", "ACS-MSN4600C", "ACS-MSN4410", "Mellanox-SN4600C-D112C8",
             "Mellanox-SN4600C-C64", "Mellanox-SN4700-O8C48"],
    "spc4": ["ACS-SN5600"],
}
BROADCOM_ASICS = {  # matched in this order, by substring
    "th": ["Force10-S6100", "Arista-7060CX-32S-C32", "Arista-7060CX-32S-C32-T1", "Arista-7060CX-32S-D48C8",
           "Celestica-DX010-C32", "Seastone-DX010"],
    "th2": ["Arista-7260CX3-D108C8", "Arista-7260CX3-C64", "Arista-7260CX3-Q64"],
    "td2": ["Force10-S6000", "Force10-S6000-Q24S32", "Arista-7050-QX32", "Arista-7050-QX-32S", "Nexus-3164",
            "Arista-7050QX32S-Q32"],
    "td3": ["Arista-7050CX3-32S-C32", "Arista-7050CX3-32S-D48C8"],
}
# "platforms" thresholds (YYYYMMDD) of the PFC_WD and WRED_PROFILE scenarios: the same for both.
THRESHOLDS = {"spc1": "20181100", "spc2": "20191100", "spc3": "20220500", "spc4": "20221100", "td2": "20181100",
              "th": "20181100", "th2": "20181100", "td3": "20201200", "cisco-8000": "20201200"}
PFC_WD_FIELDS = ["restoration_time", "detection_time", "action", "global/poll_interval", ""]
GREEN = ["green_min_threshold", "green_max_threshold", "green_drop_probability"]
BRANCHES = (202205, 202211, 202305, 202311, 202405, 202411, 202505, 202511, 202605)


def branch(build_version):
    """The release branch of an image's build_version: "202305.12-abc" (a community build),
    "20230531.22" (dated), "master.5-abc"; None when it names none."""
    first = build_version.split(".")[0]
    if first == "master":
        return 999999
    if re.fullmatch(r"[0-9]{6}([0-9]{2})?", first):
        known = [b for b in BRANCHES if b <= int(first[:6])]
        return known[-1] if known else None
    return None


def build_date(build_version):
    """The last 8-digit piece of build_version, which the validators compare with the thresholds."""
    dates = [s for s in build_version.split(".") if re.fullmatch(r"[0-9]{8}", s)]
    return dates[-1] if dates else None


def asic(version, hwsku):
    asic_type = version.get("asic_type", "")
    if asic_type == "cisco-8000":
        return asic_type
    if asic_type in ("mellanox", "vs"):
        for name, skus in MELLANOX_ASICS.items():
            if any(s.lower() == hwsku.lower() for s in skus):
                return name
    if asic_type in ("broadcom", "vs"):
        for name, skus in BROADCOM_ASICS.items():
            if any(s.lower() in hwsku.lower() for s in skus):
                return name
    return "unknown"


def diff(old, new, path=""):
    """jsonpatch.JsonPatch.from_diff without `move`: what the validators see."""
    ops = []
    for key in old:
        if key not in new:
            ops.append({"op": "remove", "path": path + "/" + key})
    for key, value in new.items():
        if key not in old:
            ops.append({"op": "add", "path": path + "/" + key, "value": value})
        elif isinstance(value, dict) and isinstance(old[key], dict):
            ops.extend(diff(old[key], value, path + "/" + key))
        elif value != old[key]:
            ops.append({"op": "replace", "path": path + "/" + key, "value": value})
    return ops


def fields_of(op, remove_port):
    parts = op["path"].split("/")[2:]
    if remove_port:
        parts = [p for p in parts if not re.search(r"[0-9]", p)]
    cleaned = "/".join(parts).lower()
    value = op.get("value")
    if isinstance(value, dict):
        return [cleaned + "/" + k if cleaned else k for k in value]
    return [cleaned]


def rdma_validator(op, version, hwsku, fields, operations, endswith):
    """rdma_config_update_validator_common: the ASIC listed, every field a scenario's, the operation
    one of its operations, the build date not before the ASIC's threshold."""
    name = asic(version, hwsku)
    if name == "unknown" or not THRESHOLDS.get(name) or op["op"] not in operations:
        return False
    for field in fields_of(op, remove_port=not endswith):
        last = field.split("/")[-1]
        if not (field in fields or (endswith and last in fields)):
            return False
    date = build_date(version.get("build_version", ""))
    return date is None or date >= THRESHOLDS[name]


def refusal(version, hwsku, old, new):
    """GCU's message for the first change from `old` to `new` its validators refuse, or None."""
    b = branch(version.get("build_version", ""))
    for op in diff(old, new):
        if op["op"] == "remove" and op["path"] in ILLEGAL_REMOVALS:
            return "Given patch operation is invalid. Operation: remove is illegal on field: " + op["path"]
        if b is None or b == 202211:
            continue
        table = op["path"].split("/")[1]
        if table == "PFC_WD":
            fn, ok = "rdma_config_update_validator", rdma_validator(
                op, version, hwsku, PFC_WD_FIELDS, ("remove", "add", "replace"), False)
        elif table == "WRED_PROFILE" and b <= 202411:
            fn, ok = "rdma_config_update_validator", rdma_validator(
                op, version, hwsku, ["azure_lossless/" + f for f in GREEN], ("replace",), False)
        elif table == "WRED_PROFILE" and b == 202505:
            fn, ok = "wred_profile_config_update_validator", rdma_validator(
                op, version, hwsku, GREEN, ("replace",), True)
        else:
            continue
        if not ok:
            return "Modification of %s table is illegal- validating function %s%s returned False" % (
                table, VALIDATORS, fn)
    return None

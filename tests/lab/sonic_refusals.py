#!/usr/bin/python3
"""The emulated SONiC switch refuses what SONiC refuses, as SONiC says it: each row of REFUSALS (and of
ACCEPTED, what the same checks let through) is run through the emulator's own CLI entry
(SSH_ORIGINAL_COMMAND, as sshd runs it) on a switch of the row's image and HWSKU; a refusal must print the
row's words, exit 2 and leave running CONFIG_DB as it was. Each row names its source. Prints one line per
case; exit 1 on the first that does not hold."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EMULATOR = os.path.join(HERE, "emulators", "sonic.py")

GCU = "sonic-utilities generic_config_updater/field_operation_validators.py + gcu_field_operation_validators.conf.json"
# The factory already has WRED_PROFILE (AZURE_LOSSLESS): the new profile is added beside it.
WRED_ADD = [{"op": "add", "path": "/WRED_PROFILE/ROCE_LOSSLESS", "value": {
    "ecn": "ecn_all", "green_min_threshold": "1048576", "green_max_threshold": "2097152",
    "green_drop_probability": "5", "wred_green_enable": "true"}}]
PFC_WD_ADD = [{"op": "add", "path": "/PFC_WD", "value": {
    "GLOBAL": {"POLL_INTERVAL": "100"},
    "Ethernet0": {"action": "drop", "detection_time": "200", "restoration_time": "200"}}}]
WATCHDOG = {"PFC_WD": {"GLOBAL": {"POLL_INTERVAL": "100"},
                       "Ethernet0": {"action": "drop", "detection_time": "200", "restoration_time": "200"}}}

# (what, build_version, asic, hwsku, extra CONFIG_DB, command, stdin, words of the refusal, source)
REFUSALS = [
    ("a new WRED profile on 202305", "20230531.22", "broadcom", "Force10-S6000", {},
     "config apply-patch /dev/stdin", WRED_ADD,
     "Modification of WRED_PROFILE table is illegal- validating function "
     "generic_config_updater.field_operation_validators.rdma_config_update_validator returned False",
     GCU + " @202305: WRED_PROFILE allows only replace of green_* thresholds"),
    ("a new WRED profile on 202505 (its own validator)", "202505.2-9c0d1e2f", "broadcom", "Force10-S6000", {},
     "config apply-patch /dev/stdin", WRED_ADD,
     "- localhost: Modification of WRED_PROFILE table is illegal- validating function "
     "generic_config_updater.field_operation_validators.wred_profile_config_update_validator returned False",
     GCU + " @202505: wred_profile_config_update_validator (#3910, #3934); error per scope from 202405"),
    ("PFC_WD on a HWSKU the lists do not name", "20230531.22", "broadcom", "Accton-AS9726-32D", {},
     "config apply-patch /dev/stdin", PFC_WD_ADD, "Modification of PFC_WD table is illegal",
     GCU + " @202305: rdma_config_update_validator, helper_data broadcom_asics"),
    ("PFC_WD on an image older than the ASIC's threshold", "20220531.10", "mellanox", "ACS-SN5600", WATCHDOG,
     "config apply-patch /dev/stdin", [{"op": "replace", "path": "/PFC_WD/Ethernet0/action", "value": "alert"}],
     "Modification of PFC_WD table is illegal",
     GCU + " @202205: spc4 (ACS-SN5600) threshold 20221100, the image's date 20220531"),
    ("removing PFC_WD|GLOBAL on 202211", "202211.9-0a1b2c3d", "broadcom", "Force10-S6000", WATCHDOG,
     "config apply-patch /dev/stdin", [{"op": "remove", "path": "/PFC_WD/GLOBAL"}],
     "Operation: remove is illegal on field: /PFC_WD/GLOBAL",
     GCU + " @202211: the illegal removals (no other validator)"),
    ("a QoS map through apply-patch", "202511.1-aaaaaaaa", "broadcom", "Force10-S6000", {},
     "config apply-patch /dev/stdin",
     [{"op": "add", "path": "/DSCP_TO_TC_MAP", "value": {"ROCE": {"26": "3"}}}],
     "Modification of DSCP_TO_TC_MAP table is illegal",
     "sonic-utilities PR #4219: the maps blocked on some platforms (the emulator refuses them everywhere)"),
    ("a PORT MTU above 9216", "20230531.22", "broadcom", "Force10-S6000", {},
     "config apply-patch /dev/stdin", [{"op": "replace", "path": "/PORT/Ethernet0/mtu", "value": "9217"}],
     "does not satisfy the constraint \"68..9216\"", "sonic-yang-models sonic-port.yang: mtu uint16 range 68..9216"),
    ("a patch that leaves a table empty", "202511.1-aaaaaaaa", "broadcom", "Force10-S6000",
     {"SCHEDULER": {"ROCE_TC3": {"type": "DWRR", "weight": "50"}}},
     "config apply-patch /dev/stdin", [{"op": "remove", "path": "/SCHEDULER/ROCE_TC3"}],
     "empty tables which is not allowed in ConfigDb",
     "sonic-utilities generic_config_updater/generic_updater.py PatchApplier.apply: get_empty_tables"),
    ("removing the watchdog's poll interval", "20230531.22", "broadcom", "Force10-S6000", WATCHDOG,
     "config apply-patch /dev/stdin", [{"op": "remove", "path": "/PFC_WD/GLOBAL/POLL_INTERVAL"}],
     "Operation: remove is illegal on field: /PFC_WD/GLOBAL/POLL_INTERVAL", GCU + ": the illegal removals"),
    ("the same refusal in a dry run, nothing written", "20230531.22", "broadcom", "Force10-S6000", {},
     "config apply-patch -d /dev/stdin", WRED_ADD, "Modification of WRED_PROFILE table is illegal",
     "sonic-utilities config/main.py apply_patch -d/--dry-run: DryRunConfigWrapper, the same checks"),
    ("a rollback that would delete a WRED profile on 202305", "20230531.22", "broadcom", "Force10-S6000",
     {"WRED_PROFILE": {"ROCE_LOSSLESS": {"green_min_threshold": "1"}}},
     "config rollback before-wred", None, "Modification of WRED_PROFILE table is illegal",
     "generic_updater.py ConfigRollbacker -> ConfigReplacer -> PatchApplier.apply: the same validators"),
    ("an unknown config command", "20230531.22", "broadcom", "Force10-S6000", {},
     "config frobnicate", None, 'Error: No such command "frobnicate".', "click: the usage and `Error:` line, exit 2"),
]

# What SONiC's YANG models refuse in the whole CONFIG_DB a patch would leave (GCU's patch sorter:
# ConfigWrapper.validate_config_db_config), on the factory tables of a switch with a neighbour on
# Ethernet0; on 202511, whose field validators let these through. Run with SONiC's models only
# (emulators/sonic_yang.py: shared/tools/sonic-yang-check), skipped without them.
YANG = "sonic-utilities generic_config_updater/patch_sorter.py StrictPatchSorter.sort @202511 + sonic-yang-models "
YANG_INVALID = "Given patch will produce invalid config. Error: "
YANG_REFUSALS = [
    ("a queue naming a WRED profile the switch does not have", "202511.1-aaaaaaaa", "broadcom", "Force10-S6000", {},
     "config apply-patch /dev/stdin",
     [{"op": "replace", "path": "/QUEUE/Ethernet0|3/wred_profile", "value": "ROCE_LOSSLESS"}],
     YANG_INVALID + 'QUEUE|Ethernet0|3 field "wred_profile" = "ROCE_LOSSLESS": Invalid leafref value',
     YANG + "sonic-queue.yang: wred_profile is a leafref to WRED_PROFILE"),
    ("removing a scheduler the factory queues name", "202511.1-aaaaaaaa", "broadcom", "Force10-S6000", {},
     "config apply-patch /dev/stdin", [{"op": "remove", "path": "/SCHEDULER/scheduler.1"}],
     '"scheduler" = "scheduler.1": Invalid leafref value', YANG + "sonic-queue.yang: scheduler is a leafref"),
    ("a watchdog on a port the switch does not have", "202511.1-aaaaaaaa", "broadcom", "Force10-S6000", WATCHDOG,
     "config apply-patch /dev/stdin", [{"op": "add", "path": "/PFC_WD/Ethernet4", "value": {
         "action": "drop", "detection_time": "200", "restoration_time": "200"}}],
     YANG_INVALID + "PFC_WD|Ethernet4", YANG + "sonic-pfcwd.yang: the key ifname is a leafref to PORT"),
    ("a lossless priority above 7", "202511.1-aaaaaaaa", "broadcom", "Force10-S6000", {},
     "config apply-patch /dev/stdin", [{"op": "replace", "path": "/PORT_QOS_MAP/Ethernet0/pfc_enable", "value": "3,8"}],
     YANG_INVALID + 'PORT_QOS_MAP|Ethernet0 field "pfc_enable" = "3,8"',
     YANG + "sonic-port-qos-map.yang: pfc_enable's pattern of priorities 0-7"),
    ("a rollback to a checkpoint whose ports name a deleted map", "202511.1-aaaaaaaa", "broadcom", "Force10-S6000",
     {}, "config rollback dangling", None, YANG_INVALID + 'PORT_QOS_MAP|Ethernet0 field "tc_to_pg_map"',
     "generic_updater.py ConfigRollbacker -> ConfigReplacer -> PatchApplier.apply: the same YANG validation"),
]

# What the same checks let through: the emulator must not refuse more than SONiC does.
ACCEPTED = [
    ("a new WRED profile on 202511", "202511.1-aaaaaaaa", "broadcom", "Force10-S6000", {},
     "config apply-patch /dev/stdin", WRED_ADD, GCU + " @202511: the WRED_PROFILE validator removed (#4226)"),
    ("PFC_WD on a listed HWSKU, image after the threshold", "20230531.22", "broadcom", "Force10-S6000", WATCHDOG,
     "config apply-patch /dev/stdin",
     [{"op": "replace", "path": "/PFC_WD/Ethernet0/detection_time", "value": "400"}],
     GCU + " @202305: td2 (Force10-S6000), 20230531 >= 20181100, field detection_time, op replace"),
    ("PFC_WD on a community build (no date)", "202311.4-1a2b3c4d", "broadcom", "Force10-S6000", WATCHDOG,
     "config apply-patch /dev/stdin",
     [{"op": "replace", "path": "/PFC_WD/Ethernet0/action", "value": "alert"}],
     GCU + " @202311: the date gate skips a build_version without an 8-digit date"),
    ("a queue bound to a WRED profile the same patch adds (YANG)", "202511.1-aaaaaaaa", "broadcom", "Force10-S6000",
     {}, "config apply-patch /dev/stdin",
     WRED_ADD + [{"op": "replace", "path": "/QUEUE/Ethernet0|3/wred_profile", "value": "ROCE_LOSSLESS"}],
     YANG + "sonic-queue.yang: the leafref's target exists in the result"),
    ("a WRED green threshold replace on 202305", "20230531.22", "broadcom", "Force10-S6000",
     {"WRED_PROFILE": {"AZURE_LOSSLESS": {"green_min_threshold": "1048576"}}},
     "config apply-patch /dev/stdin",
     [{"op": "replace", "path": "/WRED_PROFILE/AZURE_LOSSLESS/green_min_threshold", "value": "2097152"}],
     GCU + " @202305: replace of azure_lossless/green_min_threshold"),
]


def switch(build, asic, hwsku, extra):
    state = os.path.join(tempfile.mkdtemp(), "sw1", "state")
    os.makedirs(state)
    with open(os.path.join(state, "ports.json"), "w") as f:
        json.dump({"Ethernet0": {"speed": "400G", "oper": "up", "lldp": ["host1", "ens1f0np0"]}}, f)
    subprocess.run([sys.executable, EMULATOR, state, "--factory"], check=True)
    with open(os.path.join(state, "version.json"), "w") as f:
        json.dump({"build_version": build, "asic_type": asic}, f)
    with open(os.path.join(state, "config_db.json")) as f:
        db = json.load(f)
    db["DEVICE_METADATA"]["localhost"]["hwsku"] = hwsku
    db.update(extra)
    with open(os.path.join(state, "config_db.json"), "w") as f:
        json.dump(db, f)
    return state


def cli(state, command, stdin):
    env = dict(os.environ, SSH_ORIGINAL_COMMAND="sudo " + command)
    p = subprocess.run([sys.executable, EMULATOR, state], env=env, capture_output=True, text=True,
                       input=json.dumps(stdin) if stdin is not None else "")
    return p.returncode, p.stdout, p.stderr


def running(state):
    with open(os.path.join(state, "config_db.json")) as f:
        return f.read()


def checkpoint(state, name):
    """A checkpoint the rollback row needs: without the WRED profiles the switch now holds (the
    rollback would delete them), or with the ports still naming a map it no longer has."""
    with open(os.path.join(state, "config_db.json")) as f:
        cp = json.load(f)
    if name == "dangling":
        cp["TC_TO_PRIORITY_GROUP_MAP"]["ROCE"] = {"3": "3"}
        cp["PORT_QOS_MAP"]["Ethernet0"]["tc_to_pg_map"] = "ROCE"
        del cp["TC_TO_PRIORITY_GROUP_MAP"]["ROCE"]
    else:
        cp.pop("WRED_PROFILE")
    os.makedirs(os.path.join(state, "checkpoints"))
    with open(os.path.join(state, "checkpoints", name + ".cp.json"), "w") as f:
        json.dump(cp, f)


def main():
    sys.path.insert(0, os.path.join(HERE, "emulators"))
    import sonic_yang

    refusals = REFUSALS
    if sonic_yang.checker():
        refusals = REFUSALS + YANG_REFUSALS
    else:
        print("skip: %d YANG refusals: no SONiC YANG checker (emulators/sonic_yang.py)" % len(YANG_REFUSALS))
    for what, build, asic, hwsku, extra, command, stdin, words, source in refusals:
        state = switch(build, asic, hwsku, extra)
        if command.startswith("config rollback"):
            checkpoint(state, command.split()[-1])
        before = running(state)
        status, out, err = cli(state, command, stdin)
        if status != 2 or words not in out + err:
            print("FAIL: %s (%s): exit %d, %r" % (what, source, status, (out + err)[-400:]))
            return 1
        if running(state) != before:
            print("FAIL: %s: running CONFIG_DB changed although refused" % what)
            return 1
        print("ok: refused: %s -- %s" % (what, source))
    for what, build, asic, hwsku, extra, command, stdin, source in ACCEPTED:
        if "(YANG)" in what and not sonic_yang.checker():
            continue
        state = switch(build, asic, hwsku, extra)
        status, out, err = cli(state, command, stdin)
        if status != 0 or "Patch applied successfully." not in out:
            print("FAIL: %s (%s) was refused: %r" % (what, source, (out + err)[-400:]))
            return 1
        print("ok: accepted: %s -- %s" % (what, source))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""GCU's whole-config YANG validation of the CONFIG_DB a patch or rollback would produce (sonic-utilities
generic_config_updater: PatchSorter.sort -> ConfigWrapper.validate_config_db_config, sonic_yang's
loadData + validate_data_tree on every table that has a model; tables without one are cropped).

The models and the validator are SONiC's own, through shared/tools/sonic-yang-check (yanglint with the
sonic-yang-models beside it): found at ../shared beside the repository, or at $SONIC_YANG_CHECK ("off"
turns the validation off). Without it the emulator checks only the YANG ranges sonic.py knows itself
(PORT mtu), and the tests that need the whole-config check skip or, with CI set, fail.

UNCONFIRMED: the text after "Error: " on a real switch is sonic_yang's exception (libyang's message
with the schema path); here it is the checker's, which names the same table, key, field and libyang
message. GCU's supplemental validators (lanes unique per port, BGP peer groups) and its refusal of
patches to tables without a model are not modelled: the models in shared/ are a subset, so a table
missing there may still have a model on the switch.

A check costs a third of a second of CPU (Python, then yanglint loading every model), and a test run
asks for the same verdicts again and again (the same rendered configuration on every emulated switch,
in every run). With $SONIC_YANG_MEMO naming a directory (`make test` gives it one in the build tree),
verdicts are kept there by a digest of the document and of everything the verdict depends on: the
checker, every file of its models, yanglint. A change to any of them is a new key."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# Read when the emulator is loaded: its server (zygote.py) gives each command the SSH session's
# environment, which does not have it.
MEMO = os.environ.get("SONIC_YANG_MEMO")
BESIDE = os.path.normpath(os.path.join(HERE, "..", "..", "..", "..", "shared", "tools", "sonic-yang-check"))


def checker():
    path = os.environ.get("SONIC_YANG_CHECK") or BESIDE
    return None if path == "off" or not os.access(path, os.X_OK) else path


def identity(path):
    """What a verdict of the checker at `path` depends on besides the document: the checker's own
    bytes, each model file's name, size and modification time (its models are beside it, at
    ../reference/sonic-yang/models, or at $SONIC_YANG_MODELS), and the yanglint it runs."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    models = os.environ.get("SONIC_YANG_MODELS") or os.path.join(
        os.path.dirname(os.path.realpath(path)), "..", "reference", "sonic-yang", "models")
    yanglint = shutil.which(os.environ.get("YANGLINT") or "yanglint")
    files = [(e.name, e.stat()) for e in os.scandir(models)] + ([(yanglint, os.stat(yanglint))] if yanglint else [])
    for name, st in sorted(files, key=lambda f: f[0]):
        h.update(("%s %d %d\n" % (name, st.st_size, st.st_mtime_ns)).encode())
    return h.hexdigest()


def invalid(db):
    """Why SONiC's YANG models refuse CONFIG_DB `db` (the checker's ERROR lines), or None: valid, or
    no checker here. A checker that cannot run at all is an error of the lab, raised as such."""
    path = checker()
    if path is None:
        return None
    if not MEMO:
        return check(path, db)
    key = hashlib.sha256((identity(path) + json.dumps(db, sort_keys=True)).encode()).hexdigest()
    kept = os.path.join(MEMO, key + ".json")
    try:
        with open(kept) as f:
            return json.load(f)["refused"]
    except (OSError, ValueError, KeyError):
        pass
    why = check(path, db)
    os.makedirs(MEMO, exist_ok=True)
    # Written beside, then renamed: two tests asking for one verdict at once never read half of it.
    with tempfile.NamedTemporaryFile("w", dir=MEMO, suffix=".tmp", delete=False) as f:
        json.dump({"refused": why}, f)
    os.replace(f.name, kept)
    return why


def check(path, db):
    """The checker's verdict on `db`, from a run of it."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(db, f)
    try:
        # With this interpreter, not the checker's `env python3`: on a machine with a Python version
        # manager a shim found on PATH costs more than the check itself (0.9 s of CPU against 0.34 s).
        p = subprocess.run([sys.executable, path, f.name], capture_output=True, text=True, timeout=60)
    finally:
        os.remove(f.name)
    if p.returncode == 0:
        return None
    errors = [line[len("ERROR "):] for line in p.stdout.splitlines() if line.startswith("ERROR ")]
    if p.returncode != 1 or not errors:
        raise RuntimeError("sonic-yang-check exit %d: %s" % (p.returncode, (p.stderr or p.stdout)[-500:]))
    return "; ".join(errors)

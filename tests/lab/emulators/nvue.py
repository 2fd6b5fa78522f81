#!/usr/bin/python3
"""An NVIDIA Cumulus Linux switch's NVUE CLI, as much of it as fabricctl uses, behind a real sshd
(ForceCommand): each SSH command runs this once with the command in SSH_ORIGINAL_COMMAND (split into
words as the switch's login shell, bash, would: quotes removed), answers in the shapes NVUE prints
(shared/reference/outputs/nvue; src/platform/nvue/config_reader.h says which parts of the shapes are
documented and which assumed), and exits. Errors are "Error: ..." lines on stderr with exit status 1,
NVUE's documented shape; their wording is this emulator's.

The switch's state is a directory (argument 1); every command holds STATE/lock (fcntl.flock) while it
runs, and so does the revert timer when it fires:
  config.json    the applied configuration, the tree `nv config show` prints (paths are `nv set` words)
  pending.json   the pending revision: `nv set` / `nv unset` lines not yet applied
  detached-N.json  pending revisions set aside by `nv config detach`
  startup.json   /etc/nvue.d/startup.yaml: written by `nv config save`, by a plain `nv config apply`
                 (auto-save, Cumulus Linux 5.9+) and by `--confirm-yes`; not by a trial apply, so a
                 reboot inside the confirm window would not keep the trial (UNCONFIRMED for NVUE itself)
  confirm.json   a trial apply awaiting confirmation: {"token", "previous", "message", "revision"}
  revisions.json the applied revisions, in order: [{"state", "message"}] (`nv config revision -o json`)
  timers/TOKEN.json  its revert timer, with its deadline (common.py: the one timer of every emulator)
  ports.json     what the configuration does not hold (lab_ports.py)
  version.json   the release: {"release": "5.15.0"}; absent, 5.14.0. Cumulus Linux 5.15 renamed
                 `qos roce enable on|off` to `qos roce state enabled|disabled` (the older form is
                 refused there, and the newer one before it), keeps range keys ("swp1-2") in the
                 configuration as they were set and prints them so unless `nv config show --expand`,
                 an option 5.15 added (refused before it)
  answers.json   for tests, answers that replace the emulator's own (common.py)
  counters.json  a port's link stats as `nv show interface -o json` reports them, over the defaults
                 (interfaces()): {"swp1": {"in-errors": 5, "carrier-transitions": 3}} (the lab's traffic),
                 and its QoS counters under "qos" (show_counters_qos())

What it refuses, and why, is tests/lab/emulators/nvue_refusals.py: each refusal with its source.

  nvue.py STATE              answer $SSH_ORIGINAL_COMMAND: nv config show [--expand] -o json, nv show interface
                             -o json, nv show interface --view=lldp, nv show interface IF counters qos,
                             nv show interface IF qos pfc-watchdog, nv set ..., nv unset ...,
                             nv config detach, nv config save, nv config revision -o json,
                             nv config apply [--assume-yes|-y]
                             [--confirm TIME] [-m MSG], nv config apply --confirm-yes|--confirm-no|
                             --confirm-status; and lists, COMMAND && COMMAND ... and COMMAND ; COMMAND
                             ..., with bash's echo, as bash runs them (common.py shell_list)
  nvue.py STATE --load FILE  apply the nv set/unset lines of FILE (a rendered commands.nvue) and save
  nvue.py STATE --factory    Cumulus Linux's factory configuration (no QoS, every port at the default
                             MTU 9216) for the ports of STATE/ports.json
  nvue.py STATE --timer TOKEN    the revert timer's process (started by a trial apply; common.py)
  nvue.py STATE --fire-timers    the fire hook: a pending trial reverts now, as its deadline would
"""
import json
import os
import re
import sys
import time

import lab_ports
import nvue_refusals
from common import UNKNOWN, dispatch, answered, arm_timer, armed, command_words, disarm_timer, is_list, load, locked, natural, shell_list, timer_main
from nvue_refusals import NvError, expand_word, merged_interfaces

DEFAULT_MTU = 9216  # `nv set interface swp1 link mtu ?`: default 9216, integer 552 - 9216 (NVUE-CLI.md)

# Paths whose last word is a key set without a value (a PFC switch priority, a port's watchdog, RoCE).
PRESENCE = re.compile(r"qos pfc \S+ switch-priority \d|interface \S+ qos pfc-watchdog|qos roce")
DEFAULT_RELEASE = "5.14.0"


def release(state):
    """The release this switch runs (version.json), as (major, minor)."""
    text = load(state, "version.json", {}).get("release", DEFAULT_RELEASE)
    m = re.fullmatch(r"([0-9]+)\.([0-9]+)(?:\.[0-9]+)?", text)
    if not m:
        raise SystemExit("version.json: not a release: %r" % text)
    return int(m.group(1)), int(m.group(2))


def save(state, name, value):
    tmp = os.path.join(state, name + ".tmp")
    with open(tmp, "w") as f:
        json.dump(value, f, indent=2)
    os.replace(tmp, os.path.join(state, name))


def expanded(words, keep_interface_ranges):
    """Each comma list or range of the words stands for each of its members. From 5.15 an interface
    name word is kept as it was given ("swp1-2"), the key `nv config show` prints unexpanded."""
    paths = [[]]
    for i, w in enumerate(words):
        keep = keep_interface_ranges and i == 1 and words[0] == "interface"
        paths = [p + [m] for p in paths for m in ([w] if keep else expand_word(w))]
    return paths


def parse_line(words, rel):
    """The paths of `nv set|unset PATH` on release `rel`, each checked for every member it names;
    NvError when it is not one NVUE accepts."""
    if len(words) < 3 or words[0] != "nv" or words[1] not in ("set", "unset"):
        raise NvError("Invalid command: " + " ".join(words))
    for p in expanded(words[2:], False):
        (nvue_refusals.check_set if words[1] == "set" else nvue_refusals.check_unset)(p, rel)
    return words[1], expanded(words[2:], rel >= (5, 15))


def apply_line(tree, words, rel):
    verb, paths = parse_line(words, rel)
    for path in paths:
        if verb == "set":
            value = {}
            if not PRESENCE.fullmatch(" ".join(path)):
                leaf = path.pop()
                value = int(leaf) if leaf.isdigit() else leaf
            node = tree
            for w in path[:-1]:
                if not isinstance(node.get(w), dict):
                    node[w] = {}
                node = node[w]
            if not (value == {} and isinstance(node.get(path[-1]), dict)):
                node[path[-1]] = value
            if path[0] == "interface" and len(path) > 2:
                tree["interface"][path[1]]["type"] = "swp"
        else:
            node = tree
            for w in path[:-1]:
                node = node.get(w) if isinstance(node, dict) else None
                if node is None:
                    break
            if isinstance(node, dict):
                node.pop(path[-1], None)


def lldp_view(ports):
    """`nv show interface lldp` as NVIDIA's reference prints it: left-aligned, padded columns."""
    header = ["Interface", "Speed", "Type", "Remote Host", "Remote Port"]
    rows = [[n, p.get("speed", ""), "swp", p["lldp"][0], p["lldp"][1]] for n, p in sorted(ports.items(), key=lambda i: natural(i[0]))
            if p.get("lldp")]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
    line = lambda cells: "  ".join(c.ljust(widths[i]) for i, c in enumerate(cells))
    return "\n".join([line(header), "  ".join("-" * w for w in widths)] + [line(r) for r in rows]) + "\n"


def expanded_config(config):
    """The configuration with its range keys expanded, as `nv config show --expand` prints it."""
    out = dict(config)
    if isinstance(config.get("interface"), dict):
        out["interface"] = merged_interfaces(config["interface"])
    return out


STATS = ("carrier-transitions", "in-bytes", "in-drops", "in-errors", "in-pkts", "out-bytes", "out-drops",
         "out-errors", "out-pkts")


def link_stats(up, counters):
    """link.stats in the shape of NVIDIA's REST example (shared/reference/outputs/nvue/nvue-api_get-interface-
    swp1-link-stats.json): every count 0 and one carrier transition for a port that came up, unless the
    state's counters.json says otherwise. UNCONFIRMED: that the bulk `nv show interface -o json` of the CLI
    carries link.stats (the REST collection does)."""
    stats = {k: 0 for k in STATS}
    stats["carrier-transitions"] = 1 if up else 0
    stats.update({k: int(v) for k, v in counters.items() if k in STATS})
    return stats


def interfaces(config, ports, counters):
    out = {"eth0": {"type": "eth", "link": {"admin-status": "up", "oper-status": "up", "speed": "1G", "mtu": 1500,
                                            "stats": link_stats(True, {})}}}
    config = expanded_config(config)
    names = set(ports) | {n for n, v in config.get("interface", {}).items() if isinstance(v, dict) and v.get("type") == "swp"}
    for name in sorted(names, key=natural):
        p = ports.get(name, {})
        mtu = config.get("interface", {}).get(name, {}).get("link", {}).get("mtu", DEFAULT_MTU)
        link = {"admin-status": "up", "oper-status": p.get("oper", "down"), "mtu": mtu}
        if "speed" in p:
            link["speed"] = p["speed"]
        link["stats"] = link_stats(p.get("oper") == "up", counters.get(name, {}))
        out[name] = {"type": "swp", "link": link}
    return out


def show_watchdog(cli, m):
    """`nv show interface <if> qos pfc-watchdog` in the layout of NVIDIA's example (QOS, PFC watchdog;
    shared/reference/outputs/nvue): the port's state, operational and applied, then each traffic class's
    status (OK: no storm lasts here) and the storms counters.json's "qos" of the port counts, {"watchdog":
    {"3": 2}}, 0 for the rest. A watchdog off is printed "disabled" (UNCONFIRMED: NVIDIA shows only
    an enabled one)."""
    name = m.group(1)
    config = expanded_config(cli["config"])
    if name not in set(lab_ports.load(cli["state"])) | set(config.get("interface", {})):
        raise NvError("Interface %s does not exist" % name)
    wd = config.get("interface", {}).get(name, {}).get("qos", {}).get("pfc-watchdog")
    on = isinstance(wd, dict) and wd.get("state", "enable") == "enable"
    state = "enabled" if on else "disabled"
    lines = ["                 operational  applied ", "---------------  -----------  ------- ",
             "state            %-11s  %s " % (state, state), "", "PFC WD Status ", "=========================== ",
             "    traffic-class  status    deadlock-count ", "    -------------  --------  -------------- ", ""]
    storms = load(cli["state"], "counters.json", {}).get(name, {}).get("qos", {}).get("watchdog", {})
    lines += ["    %-13d  %-8s  %d " % (tc, "OK", int(storms.get(str(tc), 0))) for tc in range(8)]
    sys.stdout.write("\n".join(lines) + "\n")


def section(title, header, rows):
    """One section of `nv show interface <if> counters qos` as NVIDIA's example prints it (shared/reference/
    outputs/nvue/nv-show-interface-swp1-counters-qos.txt): the title, '=' three longer than it, then a
    table indented 4, each cell left-aligned and padded to its column's dashes (trailing spaces kept)."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
    line = lambda cells: "    " + "  ".join(c.ljust(widths[i]) for i, c in enumerate(cells))
    return "\n".join([title, "=" * (len(title) + 3), line(header), line(["-" * w for w in widths])]
                     + [line(r) for r in rows]) + "\n"


def show_counters_qos(cli, m):
    """`nv show interface <if> counters qos` (Cumulus Linux 5.5 and later; NVIDIA's example above): per
    priority group its ingress buffer statistics, per traffic class its egress queue's, per switch
    priority its PFC frames and durations, and the port's ECN marks and pause frames. The counts come from
    counters.json's "qos" of the port: {"pfc": {"3": {"rx-pause-frames": 5, "tx-pause-frames": 7}},
    "egress": {"3": {"tx-frames": 9, "wred-discards": 1}}, "ecn-marked-packets": 11} (and the watchdog's
    storms, show_watchdog()), 0 for the rest. Byte
    counts print as NVUE scales them ("0 Bytes": the emulator keeps them at 0). A port the switch does not
    have is refused with NVUE's error shape (its wording UNCONFIRMED)."""
    name = m.group(1)
    if name not in set(lab_ports.load(cli["state"])) | set(expanded_config(cli["config"]).get("interface", {})):
        raise NvError("Interface %s does not exist" % name)
    qos = load(cli["state"], "counters.json", {}).get(name, {}).get("qos", {})
    pfc = lambda p, k: str(int(qos.get("pfc", {}).get(str(p), {}).get(k, 0)))
    egress = lambda tc, k: str(int(qos.get("egress", {}).get(str(tc), {}).get(k, 0)))
    out = [section("Ingress Buffer Statistics",
                   ["priority-group", "rx-frames", "rx-buffer-discards", "rx-shared-buffer-discards"],
                   [[str(pg), "0", "0 Bytes", "0 Bytes"] for pg in range(8)]),
           section("Egress Queue Statistics",
                   ["traffic-class", "tx-frames", "tx-bytes", "tx-uc-buffer-discards", "wred-discards"],
                   [[str(tc), egress(tc, "tx-frames"), "0 Bytes", "0 Bytes", egress(tc, "wred-discards")]
                    for tc in range(8)]),
           section("PFC Statistics",
                   ["switch-priority", "rx-pause-frames", "rx-pause-duration", "tx-pause-frames", "tx-pause-duration"],
                   [[str(p), pfc(p, "rx-pause-frames"), "0", pfc(p, "tx-pause-frames"), "0"] for p in range(8)]),
           section("Qos Port Statistics", ["Counter", "Receive", "Transmit"],
                   [["ecn-marked-packets", "n/a", str(int(qos.get("ecn-marked-packets", 0)))],
                    ["mc-buffer-discards", "n/a", "0"],
                    ["pause-frames", str(sum(int(v.get("rx-pause-frames", 0)) for v in qos.get("pfc", {}).values())),
                     str(sum(int(v.get("tx-pause-frames", 0)) for v in qos.get("pfc", {}).values()))]])]
    sys.stdout.write("\n".join(out))


def apply_mtu(state, config):
    """The applied link MTUs on the lab's real netdevs: every port, NVUE's default where none is set."""
    ports = [p for p in load(state, "ports.json", {}) if not p.startswith("_")]
    ifs = expanded_config(config).get("interface", {})
    names = set(ports) | set(ifs)
    lab_ports.set_mtu(state, {n: (ifs.get(n) or {}).get("link", {}).get("mtu", DEFAULT_MTU) for n in names})


def seconds(text):
    """A confirm time in the forms NVIDIA documents: minutes, "60m" (CLI) or a bare "60" (NVUE command
    reference: one hour). Other units (an "s" or "h" suffix, seen only in third-party guides) are
    refused here, so that fabricctl cannot come to rely on them (UNCONFIRMED whether NVUE takes them)."""
    m = re.fullmatch(r"([0-9]{1,6})(m?)", text)
    if not m or int(m.group(1)) == 0:
        raise NvError("Invalid value '%s' for --confirm: minutes, such as 10m or 10" % text)
    return int(m.group(1)) * 60


def stop_timer(state, confirm):
    """Ends the revert timer of the trial `confirm` and forgets the trial."""
    disarm_timer(state, confirm["token"])
    try:
        os.remove(os.path.join(state, "confirm.json"))
    except FileNotFoundError:
        pass


def revert(state, confirm):
    save(state, "config.json", confirm["previous"])
    apply_mtu(state, confirm["previous"])


def add_revision(state, rev_state, message):
    """A revision applied, in revisions.json; its id (1, 2, ...)."""
    revisions = load(state, "revisions.json", [])
    revisions.append({"state": rev_state, "message": message})
    save(state, "revisions.json", revisions)
    return len(revisions)


def end_trial(state, confirm, rev_state):
    revisions = load(state, "revisions.json", [])
    if 0 < confirm.get("revision", 0) <= len(revisions):
        revisions[confirm["revision"] - 1]["state"] = rev_state
        save(state, "revisions.json", revisions)


def show_revisions(cli, _m):
    """`nv config revision -o json`: revision id -> {"state", "message"}, as napalm-cumulus reads it; a
    trial awaiting confirmation in state "confirm" (napalm-cumulus, gpncfg NT_CONFIRM), the pending
    revision in state "pending" (NVUE-API.md). UNCONFIRMED: the rest of NVUE's fields (not printed here);
    "confirm_fail" for a trial rolled back (gpncfg PATCHes it to cancel one)."""
    out = {}
    for n, r in enumerate(load(cli["state"], "revisions.json", []), 1):
        out[str(n)] = {"state": r["state"], "message": r["message"]}
    if load(cli["state"], "pending.json", []):
        out[str(len(out) + 1)] = {"state": "pending", "message": ""}
    sys.stdout.write(json.dumps(out, indent=2) + "\n")


def config_apply(state, config, args):
    """`nv config apply` and its confirm options."""
    confirm = load(state, "confirm.json", None)
    flags = {"-y", "--y", "--assume-yes", "--confirm-yes", "--confirm-no", "--confirm-status"}
    given, rest = {}, list(args)
    while rest:
        a = rest.pop(0)
        if a in flags:
            given[a] = True
        elif a in ("--confirm", "-m") and rest:
            given[a] = rest.pop(0)
        else:
            raise NvError("Invalid option: " + a)
    if "--confirm-status" in given:
        timer = armed(state, confirm["token"]) if confirm else None
        print("%d seconds left before rollback" % max(0, timer["deadline"] - time.time()) if timer
              else "No configuration apply awaits confirmation")
        return
    if "--confirm-yes" in given:
        if not confirm:
            raise NvError("No configuration apply awaits confirmation")
        stop_timer(state, confirm)
        end_trial(state, confirm, "applied_and_saved")
        save(state, "startup.json", config)  # auto-save
        print("applied and confirmed")
        return
    if "--confirm-no" in given:
        if confirm:
            stop_timer(state, confirm)
            end_trial(state, confirm, "confirm_fail")
            revert(state, confirm)
            print("rolled back")
        else:
            print("No configuration apply awaits confirmation; nothing to roll back")
        return
    if confirm:
        raise NvError("A configuration apply awaits confirmation: confirm it or roll it back first")
    previous = json.loads(json.dumps(config))
    for line in load(state, "pending.json", []):
        apply_line(config, line.split(), release(state))
    nvue_refusals.check_apply(expanded_config(config))  # what NVUE validates of the whole revision
    save(state, "config.json", config)
    save(state, "pending.json", [])
    apply_mtu(state, config)
    if "--confirm" in given:
        token = "rev-%d-%d" % (os.getpid(), int(time.time() * 1000))
        revision = add_revision(state, "confirm", given.get("-m", ""))
        save(state, "confirm.json",
             {"token": token, "previous": previous, "message": given.get("-m", ""), "revision": revision})
        arm_timer(state, __file__, token, seconds(given["--confirm"]))
        print("applied; confirm within %s or it rolls back" % given["--confirm"])
    else:
        save(state, "startup.json", config)  # auto-save
        add_revision(state, "applied_and_saved", given.get("-m", ""))
        print("applied")


def detach(state):
    pending = load(state, "pending.json", [])
    if pending:
        n = 1
        while os.path.exists(os.path.join(state, "detached-%d.json" % n)):
            n += 1
        save(state, "detached-%d.json" % n, pending)
    save(state, "pending.json", [])


def show_config(cli, m):
    rel = release(cli["state"])
    if m.group(1) and rel < (5, 15):
        raise NvError("Invalid option: --expand")  # an option of 5.15 (What's New); wording UNCONFIRMED
    version = load(cli["state"], "version.json", {}).get("release", DEFAULT_RELEASE)
    header = {"model": "SN5600", "nvue-api-version": "nvue_v1", "rev-id": 1.0, "version": "Cumulus Linux " + version}
    tree = expanded_config(cli["config"]) if m.group(1) else cli["config"]
    sys.stdout.write(json.dumps([{"header": header}, {"set": tree}], indent=2) + "\n")


def stage_line(cli, _m):
    parse_line(cli["words"], release(cli["state"]))  # NVUE checks a value when it is set
    save(cli["state"], "pending.json", load(cli["state"], "pending.json", []) + [" ".join(cli["words"])])


# The commands of a transaction and of collect (NVUE-CLI.md), matched on the command line as bash splits it.
COMMANDS = [
    (r"nv config show( --expand)? -o json", show_config),
    (r"nv show interface -o json",
     lambda cli, _m: sys.stdout.write(json.dumps(interfaces(cli["config"], lab_ports.load(cli["state"]),
                                                            load(cli["state"], "counters.json", {})), indent=2) + "\n")),
    (r"nv show interface --view=lldp", lambda cli, _m: sys.stdout.write(lldp_view(lab_ports.load(cli["state"])))),
    (r"nv show interface (swp[0-9]+(?:s[0-9]+)?) qos pfc-watchdog", show_watchdog),
    (r"nv show interface (swp[0-9]+(?:s[0-9]+)?) counters qos", show_counters_qos),
    (r"nv (?:un)?set(?: .*)?", stage_line),
    (r"nv config detach", lambda cli, _m: detach(cli["state"])),
    (r"nv config revision -o json", show_revisions),
    (r"nv config save", lambda cli, _m: save(cli["state"], "startup.json", cli["config"])),
    (r"nv config apply(?: .*)?", lambda cli, _m: config_apply(cli["state"], cli["config"], cli["words"][3:])),
]


def answer(state, words):
    command = " ".join(words)
    cli = {"state": state, "config": load(state, "config.json", {}), "words": words}
    if dispatch(COMMANDS, command, cli) is UNKNOWN:
        raise NvError("Invalid command: " + command)


def timer_fired(state, token, _data):
    """The trial's deadline came unconfirmed: running goes back to what it was before the trial."""
    confirm = load(state, "confirm.json", None)
    if confirm and confirm["token"] == token:
        end_trial(state, confirm, "confirm_fail")
        revert(state, confirm)
        os.remove(os.path.join(state, "confirm.json"))


def factory(state):
    """Cumulus Linux's factory configuration: the default startup.yaml's system settings, no QoS and no
    interface settings, so every port of ports.json runs NVUE's defaults (MTU 9216)."""
    config = {"system": {"hostname": "cumulus"}}
    save(state, "config.json", config)
    save(state, "startup.json", config)
    save(state, "pending.json", [])
    apply_mtu(state, config)


def one_command(state, command):
    """One command of a list, answered as if it came alone."""
    status = answered(state, " ".join(command))
    if status is not None:
        return status
    with locked(state):
        try:
            answer(state, command)
            return 0
        except NvError as e:
            sys.stderr.write("Error: %s\n" % e)
            return 1


def main():
    state = sys.argv[1]
    status = timer_main(state, timer_fired)
    if status is not None:
        return status
    words = command_words()
    if len(sys.argv) == 2 and is_list(words):
        return shell_list(words, lambda command: one_command(state, command))
    if len(sys.argv) == 2:
        status = answered(state, " ".join(words))  # outside the lock: an answer may hang
        if status is not None:
            return status
    with locked(state):
        if len(sys.argv) == 3 and sys.argv[2] == "--factory":
            factory(state)
            return 0
        if len(sys.argv) == 4 and sys.argv[2] == "--load":
            config = load(state, "config.json", {})
            with open(sys.argv[3]) as f:
                for line in f:
                    if line.strip() and not line.startswith("#"):
                        try:
                            apply_line(config, line.split(), release(state))
                        except NvError as e:
                            sys.exit("%s: %s" % (line.strip(), e))
            save(state, "config.json", config)
            save(state, "startup.json", config)
            apply_mtu(state, config)
            return 0
        try:
            answer(state, words)
        except NvError as e:
            sys.stderr.write("Error: %s\n" % e)
            return 1
        return 0


if __name__ == "__main__":
    sys.exit(main())

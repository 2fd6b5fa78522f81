"""What the emulated NVUE (nvue.py) accepts and refuses, with the source of each rule: what `nv set`
takes (paths, keys, values, per release), how `nv set` words name several objects (comma lists and
ranges), and what `nv config apply` validates of the whole revision. Anything `nv set` is not listed
here for is refused ("Invalid command"), so the emulator errs on the side of refusing. The wording of
every error is this emulator's: NVIDIA documents the "Error: ..." shape (NVUE-CLI.md), not the texts.

Sources (CumulusNetworks/docs; published at https://docs.nvidia.com/networking-ethernet-software/):
  CLI       cumulus-linux-515/System-Configuration/NVIDIA-User-Experience-NVUE/NVUE-CLI.md
  QOS       cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md (PFC, ECN, watchdog)
  ROCE      cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md
  CHANGED   cumulus-linux-515/Whats-New/New-and-Changed-NVUE-Commands.md ("CL5.14.0 and Earlier |
            CL5.15 and Later": `nv set qos roce enable on|off` -> `nv set qos roce state enabled|disabled`)
  REF-QOS   nvue-reference/Set-and-Unset-Commands/QoS.md (`nv set interface <id> qos pfc-watchdog
            state`: enable|disable, default disable, introduced in 5.6.0; "You can only configure PFC
            watchdog on a port with PFC (or link pause) configuration"; "only ... on a physical
            interface (swp)")
"""
import re


class NvError(Exception):
    pass


def integer(lo, hi):
    return lambda v: v.isdigit() and lo <= int(v) <= hi, "integer %d - %d" % (lo, hi)


def enum(*names):
    return lambda v: v in names, "enum " + ", ".join(names)


SP = integer(0, 7)
ANY = (0, 0)
R515 = (5, 15)
# (path pattern, checks of its groups, releases (first, last) it exists in, source).
SETTABLE = [
    (r"interface ([A-Za-z0-9/._:-]+) link mtu (\S+)", [None, integer(552, 9216)], (ANY, None),
     "CLI: `nv set interface swp1 link mtu ?` default 9216, integer 552 - 9216"),
    (r"interface (swp[0-9]+(?:s[0-9]+)?) qos pfc-watchdog", [None], (ANY, None),
     "QOS, PFC watchdog: `nv set interface swp1 qos pfc-watchdog`; REF-QOS: physical swp ports only"),
    (r"interface (swp[0-9]+(?:s[0-9]+)?) qos pfc-watchdog state (\S+)", [None, enum("enable", "disable")],
     ((5, 6), None), "REF-QOS: `qos pfc-watchdog state enable|disable`, introduced in 5.6.0"),
    (r"qos roce", [], (ANY, None), "ROCE: `nv set qos roce` is `nv set qos roce mode lossless`"),
    (r"qos roce enable (\S+)", [enum("on", "off")], (ANY, (5, 14)), "CHANGED: `enable on|off` until 5.14"),
    (r"qos roce state (\S+)", [enum("enabled", "disabled")], (R515, None), "CHANGED: `state enabled|disabled` from 5.15"),
    (r"qos roce mode (\S+)", [enum("lossy", "lossless", "lossless-single-ipool", "lossy-multi-tc")], (ANY, None),
     "ROCE: modes lossy, lossless, lossless-single-ipool, lossy-multi-tc"),
    (r"qos roce cable-length (\S+)", [integer(1, 100000)], (ANY, None), "ROCE: `nv show qos roce` cable-length"),
    (r"qos mapping default-global trust (\S+)", [enum("l2", "l3", "both", "port")], (ANY, None), "QOS: trust"),
    (r"qos mapping default-global dscp (\S+) switch-priority (\S+)", [integer(0, 63), SP], (ANY, None), "QOS: DSCP map"),
    (r"qos mapping default-global pcp (\S+) switch-priority (\S+)", [SP, SP], (ANY, None), "QOS: PCP map"),
    (r"qos traffic-pool (default-lossless|default-lossy) memory-percent (\S+)", [None, integer(0, 100)], (ANY, None),
     "QOS: buffer pools"),
    (r"qos pfc default-global switch-priority (\S+)", [SP], (ANY, None), "QOS: PFC"),
    (r"qos pfc default-global (tx|rx) (\S+)", [None, enum("enable", "disable")], (ANY, None), "QOS: PFC tx/rx"),
    (r"qos pfc default-global cable-length (\S+)", [integer(1, 100000)], (ANY, None), "QOS: PFC cable-length"),
    (r"qos egress-queue-mapping default-global switch-priority (\S+) traffic-class (\S+)", [SP, SP], (ANY, None),
     "QOS: egress queue mapping"),
    (r"qos egress-scheduler default-global traffic-class (\S+) mode (\S+)", [SP, enum("dwrr", "strict")], (ANY, None),
     "QOS: egress scheduler"),
    (r"qos egress-scheduler default-global traffic-class (\S+) bw-percent (\S+)", [SP, integer(1, 100)], (ANY, None),
     "QOS: egress scheduler"),
    (r"qos congestion-control default-global traffic-class (\S+) ecn (\S+)", [SP, enum("enable", "disable")],
     (ANY, None), "QOS: ECN"),
    (r"qos congestion-control default-global traffic-class (\S+) (min|max)-threshold (\S+)",
     [SP, None, integer(1, 4294967295)], (ANY, None), "QOS: ECN thresholds, bytes"),
    (r"qos congestion-control default-global traffic-class (\S+) probability (\S+)", [SP, integer(1, 100)],
     (ANY, None), "QOS: ECN probability"),
    (r"qos pfc-watchdog polling-interval (\S+)", [integer(1, 60000)], (ANY, None), "QOS: watchdog polling-interval"),
    (r"qos pfc-watchdog robustness (\S+)", [integer(1, 1000)], (ANY, None), "QOS: watchdog robustness"),
]


def _exists(since_until, rel):
    since, until = since_until
    return since <= rel and (until is None or rel <= until)


def check_set(path, rel):
    """Raises NvError unless `nv set PATH` (one member) is one NVUE of release `rel` accepts."""
    text = " ".join(path)
    for pattern, checks, releases, _source in SETTABLE:
        m = re.fullmatch(pattern, text)
        if m and _exists(releases, rel):
            for value, check in zip(m.groups(), checks):
                if check and not check[0](value):
                    raise NvError("Invalid value '%s': %s" % (value, check[1]))
            return
    raise NvError("Invalid command: nv set " + text)


def check_unset(path, rel):
    """Raises NvError unless PATH is (a prefix of) a path `nv set` accepts on release `rel`. Unsetting a
    path the configuration does not hold is accepted and changes nothing (UNCONFIRMED: NVIDIA's
    documents say nothing of it)."""
    text = " ".join(path)
    for pattern, _checks, releases, _source in SETTABLE:
        if not _exists(releases, rel):
            continue
        # A prefix of the pattern's words: the pattern cut after as many words as PATH has.
        words = pattern.split(" ")
        if len(path) <= len(words) and re.fullmatch(" ".join(words[:len(path)]), text):
            return
    raise NvError("Invalid command: nv unset " + text)


RANGE = re.compile(r"(.*[^0-9])?([0-9]+)-([0-9]+)")
MAX_MEMBERS = 4096  # no switch has more ports; a longer range is a typo


def expand_word(word):
    """The members a word of `nv set` names: a comma list of names and ranges PREFIX<N>-<M> ("swp1-4,swp6",
    "swp1s0-3", "24-31"; CLI: "nv set interface swp1-4,swp6"). A dash that is no such range is part of
    a name ("default-global", "vlan10-v0")."""
    out = []
    for item in word.split(","):
        if not item:
            raise NvError("Invalid value '%s': an empty item in a list" % word)
        m = RANGE.fullmatch(item)
        if not m:
            out.append(item)
            continue
        prefix, lo, hi = m.group(1) or "", m.group(2), m.group(3)
        if (len(lo) > 1 and lo[0] == "0") or (len(hi) > 1 and hi[0] == "0") or int(lo) > int(hi):
            raise NvError("Invalid value '%s': not a range" % item)
        if int(hi) - int(lo) >= MAX_MEMBERS:
            raise NvError("Invalid value '%s': too many members" % item)
        out += ["%s%d" % (prefix, n) for n in range(int(lo), int(hi) + 1)]
    return out


def merge(into, value):
    for k, v in value.items():
        if isinstance(v, dict) and isinstance(into.get(k), dict):
            merge(into[k], v)
        else:
            into[k] = v if not isinstance(v, dict) else merge({}, v)
    return into


def merged_interfaces(ifs):
    """The interface tree with its range keys expanded: each member gets the range key's settings,
    and its own key's on top (UNCONFIRMED: NVIDIA does not say how NVUE merges them)."""
    out = {}
    for ranges in (True, False):
        for key, value in ifs.items():
            if ("," in key or RANGE.fullmatch(key) is not None) != ranges or not isinstance(value, dict):
                continue
            for name in expand_word(key) if ranges else [key]:
                merge(out.setdefault(name, {}), value)
    return out


def _lossless(config):
    """Whether the configuration has PFC on some switch priority: RoCE lossless mode, or the
    default-global PFC profile with priorities (QOS, PFC; ROCE)."""
    qos = config.get("qos", {})
    roce = qos.get("roce")
    if isinstance(roce, dict) and roce.get("enable") != "off" and roce.get("state") != "disabled" \
            and roce.get("mode", "lossless") in ("lossless", "lossless-single-ipool"):
        return True
    pfc = qos.get("pfc", {}).get("default-global", {})
    return bool(pfc.get("switch-priority"))


def check_apply(config):
    """What `nv config apply` refuses of a whole revision (`config` expanded). REF-QOS: "You can only
    configure PFC watchdog on a port with PFC (or link pause) configuration". That NVUE refuses it at
    apply (rather than at `nv set`, or not at all) is UNCONFIRMED; link pause is not modelled."""
    for name, entry in sorted(config.get("interface", {}).items()):
        wd = entry.get("qos", {}).get("pfc-watchdog") if isinstance(entry, dict) else None
        if isinstance(wd, dict) and wd.get("state", "enable") == "enable" and not _lossless(config):
            raise NvError("%s: PFC watchdog can only be configured on a port with PFC" % name)

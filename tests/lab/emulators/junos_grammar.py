"""What a Juniper QFX's Junos takes of the configuration fabricctl loads (`set`/`delete` statements of the
class-of-service and interfaces hierarchies), what it refuses when a statement is loaded, and what `commit
check` refuses, each with its source (docs/reference-junos.md; its YANG files, read at Juniper/yang
@2a696d62):

  QFXC  24.4/24.4R1/native/conf-and-rpcs/junos-qfx/conf-with-extensions/models/
        junos-qfx-conf-class-of-service@2024-01-01.yang          (Junos OS, QFX)
  QFXI  .../junos-qfx/conf-with-extensions/models/junos-qfx-conf-interfaces@2024-01-01.yang
  EVOC  24.4/24.4R1-EVO/native/conf-and-rpcs/conf-with-extensions/models/
        junos-conf-class-of-service@2024-01-01.yang             (Junos OS Evolved; same statements here)
  JVD   Juniper/jvd @005ab344 device configurations (tests/fixtures/junos/config-*.conf)

A row of ROWS is (pattern, kind, source, checks). `pattern` is a regular expression over the statement's
words after `set `/`delete `, single spaces, with the value (of a leaf or a leaf-list) in group `v`:
  leaf    a single value: a second `set` replaces it (the statement's key is the words before `v`)
  list    a leaf-list member (or `[ a b ... ]`, several): a `set` adds the members it does not have
  flag    an empty leaf, a presence container or a bare list entry: the statement itself
  expand  a one-liner of several statements (a forwarding class's `queue-num Q no-loss pfc-priority P`):
          taken as its statements, one by one (atomic())
`checks` are what Junos refuses of a value when the statement is loaded: ("range", group, lo, hi) and
("pattern", group, regex, message). A statement no row takes is refused with `syntax error`, naming the
first word no row can take (bad_element()).

Junos stores what it takes as a tree; the emulator keeps it as its statements, one per leaf and one per
leaf-list member (atomic(), a `show configuration | display set` line each) and prints them grouped by
hierarchy (order()).

must() is `commit check`: the `junos:must` constraints of the YANG that concern these statements, with their
must-messages, and the platform checks (references to what is not defined, the interface MTU range) whose
text no source gives: those are marked UNCONFIRMED.

Error texts (docs/reference-junos.md b): a value beyond a YANG range: `value N is not within range (LO..HI)`
(Juniper's DDL reference, https://www.juniper.net/documentation/en_US/junos-sdk/10.2/DDLRefGuide/
config_ranged.html: the CLI prints "value 1000 is not within range (1..511) at '1000'"; UNCONFIRMED that the
NETCONF error-message is the same text without " at '...'"); a pattern: its YANG pattern-message; anything
else: `syntax error` with the word as <bad-element> (tests/fixtures/junos/rpc-reply-load-configuration-
error.pyez-test.xml; Juniper/py-junos-eznc issue #283). A `delete` of what is not there: warning
`statement not found` (py-junos-eznc issue #624: ConfigLoadError severity warning, message "statement not
found"; Junos goes on)."""
import re

# ---- words

NAME = r"[A-Za-z0-9_][A-Za-z0-9_.:/-]{0,63}"  # YANG `string { length "1 .. 64" }`; the characters UNCONFIRMED
IF = r"(?:et|xe|ge)-\d+/\d+/\d+(?::\d+)?"  # docs/reference-junos.md "Interface names"
# [edit class-of-service interfaces]: a port, a wildcard (JVD leaf1_qfx5240 file:1197 `et-*`) or `all`
# (Juniper/terraform-apstra-examples @28d884d3 ai-cluster-jvd/configlet_dcqcn.tf)
COS_IF = r"(?:" + IF + r"|(?:et|xe|ge)-\*|all)"
UNIT = r"(?:\d+|\*)"  # QFXC:4175-4194: `*` or 0 .. 1073741823
LIST = r"\[ [^\[\]]+ \]|[^\s\[\]]+"  # a leaf-list's value: one member, or several in brackets
LP = r"(?:low|high|medium-low|medium-high)"  # QFXC:92-108 loss-priority enumeration
RATE = r"\d+(?:\.\d+)?[kmg]?"  # a rate in bits per second, `16g` (JVD storage-leaf1: shaping-rate 16g)
QSTR = r'"[^"]*"|[^\s"]+'  # a string: one word, or quoted
SPEEDS = r"(?:auto|auto-10m-100m|10m|100m|1g|2\.5g|5g|10g|25g|40g|50g|100g|200g|400g|800g)"  # QFXI:17056-17106
BITS6 = ("[01]{6}", "Must be of form xxxxxx, where x is 0 or 1")  # QFXC:1940-1945 (CNP input dscp)
BITS3 = ("[01]{3}", "Must be of form xxx, where x is 0 or 1")  # QFXC:1867-1872, 2007-2012 (CNP ieee-802.1)
REWRITE6 = ("[01]{6}|[a-zA-Z].{0,63}", "Not 6-bit pattern or code point alias")  # QFXC:2315-2320
REWRITE3 = ("[01]{3}|[a-zA-Z].{0,63}", "Not 3-bit pattern or code point alias")  # QFXC:2516-2521

COS = "class-of-service "
CL = COS + r"classifiers (dscp|dscp-ipv6|ieee-802\.1) (" + NAME + ")"
RW = COS + r"rewrite-rules (dscp|dscp-ipv6|ieee-802\.1) (" + NAME + ")"
RW6 = COS + r"rewrite-rules (dscp|dscp-ipv6) (" + NAME + ")"
RW3 = COS + r"rewrite-rules (ieee-802\.1) (" + NAME + ")"
FC = COS + r"forwarding-classes class (" + NAME + ")"
CNP = COS + r"congestion-notification-profile (" + NAME + ")"
CIF = COS + r"interfaces (" + COS_IF + ")"
SCH = COS + r"schedulers (" + NAME + ")"
DP = COS + r"drop-profiles (" + NAME + ")"


def rng(lo, hi, group="v"):
    return ("range", group, lo, hi)


def pat(p, group="cp"):
    return ("pattern", group, p[0], p[1])


UINT16, UINT32 = rng(0, 65535), rng(0, 4294967295)

# (pattern, kind, source, checks)
ROWS = [
    # classifiers
    (CL, "flag", "QFXC:49-65, 117-130, 247-260 (list dscp | dscp-ipv6 | ieee-802.1, key name)", ()),
    (CL + r" import (?P<v>default|" + NAME + ")", "leaf", "QFXC:66-76", ()),
    (CL + r" forwarding-class (" + NAME + ")", "flag", "QFXC:77-87 (list forwarding-class)", ()),
    (CL + r" forwarding-class (" + NAME + ") loss-priority (" + LP + ")", "flag", "QFXC:88-108", ()),
    (CL + r" forwarding-class (" + NAME + ") loss-priority (" + LP + r") code-points (?P<v>" + LIST + ")", "list",
     "QFXC:109-113: leaf-list code-points, ordered-by user, type string (aliases or bits; checked at commit)",
     ()),
    # drop profiles
    (DP, "flag", "QFXC:670-681 (list drop-profiles)", ()),
    (DP + r" interpolate fill-level (?P<v>" + LIST + ")", "list", "QFXC:713-724 leaf-list, range 0 .. 100",
     (rng(0, 100),)),
    (DP + r" interpolate drop-probability (?P<v>" + LIST + ")", "list", "QFXC:725-736 leaf-list, range 0 .. 100",
     (rng(0, 100),)),
    # buffers (the JVD devices' blocks)
    (COS + r"shared-buffer percent (?P<v>\d+)", "leaf", "QFXC:746-756, range 5 .. 100", (rng(5, 100),)),
    (COS + r"shared-buffer (ingress|egress) percent (?P<v>\d+)", "leaf", "QFXC:760-770, 810-820, 0 .. 100",
     (rng(0, 100),)),
    (COS + r"shared-buffer (ingress|egress) buffer-partition (" + NAME + r") percent (?P<v>\d+)", "leaf",
     "QFXC:771-793, 821-843: partition name any string (lossless, lossless-headroom, lossy, multicast in "
     "the JVD), percent 0 .. 100", (rng(0, 100),)),
    (COS + r"shared-buffer (ingress|egress) buffer-partition (" + NAME + r") dynamic-threshold (?P<v>\d+)", "leaf",
     "QFXC:794-805, 844-855, range 0 .. 10", (rng(0, 10),)),
    (COS + r"dedicated-buffer (ingress|egress) percent (?P<v>\d+)", "leaf", "QFXC:858-891, range 15 .. 100",
     (rng(15, 100),)),
    (COS + r"dedicated-buffer-profile (" + NAME + r") (ingress|egress)", "flag",
     "QFXC:892-965 (presence containers ingress, egress)", ()),
    (COS + r"dedicated-buffer-profile (" + NAME + r") ingress buffer-size (?P<v>none|cells (?P<n>\d+))", "leaf",
     "QFXC:906-931, cells 20 .. 50000", (rng(20, 50000, "n"),)),
    (COS + r"dedicated-buffer-profile (" + NAME + r") egress buffer-size (?P<v>none|cells (?P<n>\d+))", "leaf",
     "QFXC:937-962, cells 20 .. 100000", (rng(20, 100000, "n"),)),
    # forwarding classes
    (FC, "flag", "QFXC:1021-1035 (list class, oneliner, max-elements 16)", ()),
    (FC + r" queue-num (?P<v>\d+)", "leaf",
     "QFXC:1036-1044 is a bare uint32; unicast classes take queues 0-7, multidestination 8-11 (class statement "
     "page, docs/reference-junos.md a): 0 .. 11 here, refused at load (UNCONFIRMED where and with which text "
     "Junos refuses 12 and above)", (rng(0, 11),)),
    (FC + r" priority (?P<v>low|high)", "leaf", "QFXC:1045-1055 (fabric priority)", ()),
    (FC + r" no-loss", "flag", "QFXC:1056-1059 (empty leaf)", ()),
    (FC + r" pfc-priority (?P<v>\d+)", "leaf", "QFXC:1060-1070, range 0 .. 7", (rng(0, 7),)),
    (FC + r"(?P<v>(?: (?:queue-num \S+|priority \S+|no-loss|pfc-priority \S+)){2,})", "expand",
     "QFXC:1024 junos:cli-feature oneliner: a class's statements on one line, `class NO-LOSS queue-num 4 "
     "no-loss pfc-priority 3` (JVD leaf1_qfx5240 file:1176)", ()),
    (COS + r"forwarding-classes queue (\d+) (?P<v>" + NAME + ")", "leaf",
     "QFXC:1072-1093 (list queue, the older form; class-name nokeyword)", ()),
    (COS + r"forwarding-class-sets (" + NAME + r") class (" + NAME + ")", "flag", "QFXC:1768-1790", ()),
    (COS + r"traffic-control-profiles (" + NAME + r") scheduler-map (?P<v>" + NAME + ")", "leaf",
     "QFXC:1107-1124", ()),
    # congestion notification profiles
    (CNP, "flag", "QFXC:1793-1804 (list congestion-notification-profile)", ()),
    (CNP + r" pfc-watchdog", "flag", "QFXC:1805-1810 (presence container)", ()),
    (CNP + r" pfc-watchdog poll-interval (?P<v>\d+)", "leaf",
     "QFXC:1811-1820 uint16, milliseconds (a narrower platform range is UNCONFIRMED)", (UINT16,)),
    (CNP + r" pfc-watchdog detection (?P<v>\d+)", "leaf", "QFXC:1821-1829 uint32 (platform range UNCONFIRMED)",
     (UINT32,)),
    (CNP + r" pfc-watchdog recovery (?P<v>\d+)", "leaf",
     "QFXC:1830-1839 uint16, milliseconds (platform range UNCONFIRMED)", (UINT16,)),
    (CNP + r" pfc-watchdog watchdog-action (?P<v>drop|forward)", "leaf", "QFXC:1840-1850 (enumeration)", ()),
    (CNP + r" input cable-length (?P<v>\S+)", "leaf", "QFXC:1855-1859 (string, metres)", ()),
    (CNP + r" input ieee-802\.1 code-point (?P<cp>\S+)", "flag", "QFXC:1863-1875, max-elements 8",
     (pat(BITS3),)),
    (CNP + r" input ieee-802\.1 code-point (?P<cp>\S+) pfc", "flag", "QFXC:1876-1879", (pat(BITS3),)),
    (CNP + r" input ieee-802\.1 code-point (?P<cp>\S+) mru (?P<v>\S+)", "leaf", "QFXC:1880-1886", (pat(BITS3),)),
    (CNP + r" input ieee-802\.1 code-point (?P<cp>\S+) xon (?P<v>\d+)", "leaf", "QFXC:1887-1899, 1 .. 100000",
     (pat(BITS3), rng(1, 100000))),
    (CNP + r" input dscp code-point (?P<cp>\S+)", "flag", "QFXC:1933-1948, max-elements 64", (pat(BITS6),)),
    (CNP + r" input dscp code-point (?P<cp>\S+) pfc", "flag", "QFXC:1949-1952", (pat(BITS6),)),
    (CNP + r" input dscp code-point (?P<cp>\S+) mru (?P<v>\S+)", "leaf", "QFXC:1953-1959", (pat(BITS6),)),
    (CNP + r" input dscp code-point (?P<cp>\S+) xon (?P<v>\d+)", "leaf", "QFXC:1960-1972, 1 .. 100000",
     (pat(BITS6), rng(1, 100000))),
    (CNP + r" output ieee-802\.1 code-point (?P<cp>\S+)", "flag", "QFXC:2000-2015, max-elements 8",
     (pat(BITS3),)),
    (CNP + r" output ieee-802\.1 code-point (?P<cp>\S+) flow-control-queue (?P<v>" + LIST + ")", "list",
     "QFXC:2016-2026 leaf-list, range 0 .. 7", (pat(BITS3), rng(0, 7))),
    # [edit class-of-service interfaces IF] (grouping cos_interfaces_type, QFXC:3911-4905)
    (CIF, "flag", "QFXC:2176-2181 (list interface, nokeyword)", ()),
    (CIF + r" forwarding-class-set (" + NAME + ")", "flag", "QFXC:3952-3966 (list, max-elements 4)", ()),
    (CIF + r" forwarding-class-set (" + NAME + r") output-traffic-control-profile (?P<v>" + NAME + ")", "leaf",
     "QFXC:3967-3976", ()),
    (CIF + r" congestion-notification-profile (?P<v>" + NAME + ")", "leaf",
     "QFXC:3979-3984: one leaf, so a second `set` replaces the first", ()),
    (CIF + r" scheduler-map (?P<v>" + NAME + ")", "leaf", "QFXC:4028-4033", ()),
    (CIF + r" unit (" + UNIT + ")", "flag", "QFXC:4175-4194", ()),
    (CIF + r" unit (" + UNIT + r") forwarding-class (?P<v>" + NAME + ")", "leaf", "QFXC:4196-4201", ()),
    (CIF + r" unit (" + UNIT + r") scheduler-map (?P<v>" + NAME + ")", "leaf", "QFXC:4202-4209", ()),
    (CIF + r" unit (" + UNIT + r") classifiers (dscp|dscp-ipv6) (" + NAME + ")", "flag",
     "QFXC:4355-4401: list dscp (key name), so a second classifier is a second entry, not a replacement", ()),
    (CIF + r" unit (" + UNIT + r") classifiers ieee-802\.1 (?P<v>" + NAME + ")", "leaf",
     "QFXC:4418-4432 (container, oneliner, leaf classifier-name)", ()),
    (CIF + r" unit (" + UNIT + r") rewrite-rules (dscp|dscp-ipv6) (" + NAME + ")", "flag",
     "QFXC:4484-4560 (list)", ()),
    (CIF + r" unit (" + UNIT + r") rewrite-rules ieee-802\.1 (?P<v>" + NAME + ")", "leaf", "QFXC:4593-4607", ()),
    (CIF + r" classifiers (dscp|dscp-ipv6) (" + NAME + ")", "flag",
     "QFXC:4690-4726 (on the port: JVD compute-leaf1_qfx5120 `et-0/0/48 { classifiers { dscp ... } }`)", ()),
    (CIF + r" classifiers ieee-802\.1 (?P<v>" + NAME + ")", "leaf", "QFXC:4727-4741", ()),
    (CIF + r" forwarding-class (?P<v>" + NAME + ")", "leaf", "QFXC:4799-4805", ()),
    (CIF + r" rewrite-rules (dscp|dscp-ipv6) (" + NAME + ")", "flag", "QFXC:4806-4846 (list)", ()),
    (CIF + r" rewrite-rules ieee-802\.1 (?P<v>" + NAME + ")", "leaf", "QFXC:4847-4862", ()),
    # rewrite rules
    (RW, "flag", "QFXC:2255-2271, 2459-2470 (list dscp | dscp-ipv6 | ieee-802.1)", ()),
    (RW + r" forwarding-class (" + NAME + ")", "flag", "QFXC:2283-2293", ()),
    (RW6 + r" forwarding-class (" + NAME +
     ") loss-priority (" + LP + r") code-point (?P<v>\S+)", "leaf", "QFXC:2294-2324 (oneliner; 6 bits or an alias)",
     (pat(REWRITE6, "v"),)),
    (RW3 + r" forwarding-class (" + NAME +
     ") loss-priority (" + LP + r") code-point (?P<v>\S+)", "leaf", "QFXC:2495-2521 (oneliner; 3 bits or an alias)",
     (pat(REWRITE3, "v"),)),
    # scheduler maps
    (COS + r"scheduler-maps (" + NAME + ")", "flag", "QFXC:2691-2702 (list scheduler-maps)", ()),
    (COS + r"scheduler-maps (" + NAME + r") forwarding-class (" + NAME + r") scheduler (?P<v>" + NAME + ")", "leaf",
     "QFXC:2703-2720 (list forwarding-class, oneliner, leaf scheduler)", ()),
    # schedulers
    (SCH, "flag", "QFXC:2801-2812 (list schedulers)", ()),
    (SCH + r" transmit-rate (?P<v>percent (?P<pct>\d+)|remainder(?: (?P<rem>\d+))?|" + RATE + ")", "leaf",
     "QFXC:2813-2860: a rate, percent 0 .. 100 or remainder 0 .. 100", (rng(0, 100, "pct"), rng(0, 100, "rem"))),
    (SCH + r" transmit-rate (exact|rate-limit)", "flag", "QFXC:2861-2875", ()),
    (SCH + r" shaping-rate (?P<v>percent (?P<pct>\d+)|" + RATE + ")", "leaf", "QFXC:2910-2942, percent 1 .. 100",
     (rng(1, 100, "pct"),)),
    (SCH + r" buffer-size (?P<v>percent (?P<pct>\d+)|remainder(?: (?P<rem>\d+))?|shared|temporal \d+)", "leaf",
     "QFXC:2943-2993, percent 0 .. 100", (rng(0, 100, "pct"), rng(0, 100, "rem"))),
    (SCH + r" priority (?P<v>low|medium-low|medium-high|high|strict-high)", "leaf",
     "QFXC:3065-3070 type string; the values are the Junos scheduler priorities (`low`, `strict-high` in the "
     "JVD); another word refused here (UNCONFIRMED: where and how Junos refuses it)", ()),
    (SCH + r" drop-profile-map loss-priority (" + LP + r"|any) protocol (tcp|non-tcp|any) drop-profile (?P<v>" + NAME
     + ")", "leaf", "QFXC:3079-3123 (list drop-profile-map, keys loss-priority protocol, oneliner)", ()),
    (SCH + r" explicit-congestion-notification", "flag", "QFXC:3124-3127 (empty leaf)", ()),
    (SCH + r" buffer-dynamic-threshold (?P<v>\d+)", "leaf", "QFXC:3180-3190, range 0 .. 10", (rng(0, 10),)),
    # [edit interfaces] (grouping interfaces_type, QFXI:16667-)
    (r"interfaces (" + IF + ")", "flag", "QFXI:15604-15609 (list interface)", ()),
    (r"interfaces (" + IF + r") description (?P<v>" + QSTR + ")", "leaf", "QFXI:16678-16681", ()),
    (r"interfaces (" + IF + r") number-of-sub-ports (?P<v>\d+)", "leaf", "QFXI:17041-17051, range 1 .. 8",
     (rng(1, 8),)),
    (r"interfaces (" + IF + r") speed (?P<v>" + SPEEDS + ")", "leaf", "QFXI:17056-17106 (enumeration)", ()),
    (r"interfaces (" + IF + r") mtu (?P<v>\d+)", "leaf",
     "QFXI:17107-17116 uint32 (the platform range is a commit check: must())", (UINT32,)),
    (r"interfaces (" + IF + r") unit (\d+)", "flag", "QFXI:27637-27643 (list unit)", ()),
    (r"interfaces (" + IF + r") unit (\d+) description (?P<v>" + QSTR + ")", "leaf", "QFXI list unit", ()),
    (r"interfaces (" + IF + r") unit (\d+) family inet", "flag", "QFXI:29075-29080", ()),
    (r"interfaces (" + IF + r") unit (\d+) family inet mtu (?P<v>\d+)", "leaf", "QFXI:29263-29270 (uint32)",
     (UINT32,)),
    (r"interfaces (" + IF + r") unit (\d+) family inet address (\d+\.\d+\.\d+\.\d+/\d+)", "flag",
     "QFXI:29546-29556 (list address, key ipv4prefix)", ()),
]

COMPILED = [(re.compile(p), kind, source, checks) for p, kind, source, checks in ROWS]
assert all(("v" in r.groupindex) == (kind in ("leaf", "list", "expand")) for r, kind, _, _ in COMPILED)

# Schema order of the children of a few hierarchies (Junos prints a hierarchy's statements in its schema's
# order, docs/reference-junos.md and the JVD configs): (path, [child words in the YANG's order]). Children
# not named here (list entries: classifier, scheduler, interface names...) keep the order they were first
# set in (UNCONFIRMED: Junos sorts some lists, interfaces by name among them).
ORDER = [
    (r"", ["interfaces", "class-of-service"]),  # the JVD files: interfaces long before class-of-service
    (r"class-of-service", ["classifiers", "code-point-aliases", "drop-profiles", "shared-buffer",
                           "dedicated-buffer", "dedicated-buffer-profile", "forwarding-classes",
                           "traffic-control-profiles", "forwarding-class-sets", "congestion-notification-profile",
                           "interfaces", "rewrite-rules", "scheduler-maps", "schedulers"]),  # QFXC:49-2801
    (r"class-of-service forwarding-classes class \S+", ["queue-num", "priority", "no-loss", "pfc-priority"]),
    (r"class-of-service congestion-notification-profile \S+", ["pfc-watchdog", "input", "output"]),
    (r"class-of-service congestion-notification-profile \S+ pfc-watchdog",
     ["poll-interval", "detection", "recovery", "watchdog-action"]),
    (r"class-of-service congestion-notification-profile \S+ input", ["cable-length", "ieee-802.1", "dscp"]),
    (r"class-of-service drop-profiles \S+ interpolate", ["fill-level", "drop-probability"]),
    (r"class-of-service shared-buffer", ["percent", "ingress", "egress"]),
    (r"class-of-service shared-buffer \S+", ["percent", "buffer-partition"]),
    (r"class-of-service dedicated-buffer", ["ingress", "egress"]),
    (r"class-of-service interfaces \S+", ["forwarding-class-set", "congestion-notification-profile",
                                          "scheduler-map", "unit", "classifiers", "forwarding-class",
                                          "rewrite-rules"]),  # QFXC:3952-4806
    (r"class-of-service schedulers \S+", ["transmit-rate", "excess-rate", "shaping-rate", "buffer-size",
                                          "shared-buffer", "priority", "excess-priority", "drop-profile-map",
                                          "explicit-congestion-notification", "buffer-dynamic-threshold"]),
    (r"interfaces \S+", ["description", "number-of-sub-ports", "speed", "mtu", "unit"]),  # QFXI:16678-27637
    (r"interfaces \S+ unit \S+ family inet", ["mtu", "address"]),  # QFXI:29263, 29546
]
ORDER = [(re.compile(p), words) for p, words in ORDER]


class Refused(Exception):
    """A statement Junos refuses when it is loaded: `message` and the `element` it names (<bad-element>)."""

    def __init__(self, message, element):
        super().__init__(message)
        self.message, self.element = message, element


def words(text):
    """A statement's words: quotes kept around a word that needs them (a description with spaces), dropped
    around one that does not, brackets as words of their own. Refused when a quote is not closed."""
    out = []
    for m in re.finditer(r'"([^"]*)"|(\[|\])|([^\s\[\]"]+)|(")', text):
        if m.group(4):
            raise Refused("syntax error", '"')  # UNCONFIRMED: Junos's word for an unclosed quote
        if m.group(1) is not None:
            inner = m.group(1)
            out.append('"%s"' % inner if re.search(r'[\s;{}\[\]]', inner) or not inner else inner)
        else:
            out.append(m.group(2) or m.group(3))
    return out


def _tokens(pattern):
    """The pattern's words: split at its spaces that are outside groups and brackets."""
    out, depth, current = [], 0, ""
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            current += pattern[i:i + 2]
            i += 2
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == " " and depth == 0:
            out.append(current)
            current = ""
        else:
            current += c
        i += 1
    out.append(current)
    return out


PREFIXES = [[re.compile(" ".join(_tokens(p)[:j])) for j in range(1, len(_tokens(p)) + 1)] for p, _, _, _ in ROWS]


def viable(ws):
    """How many of the words `ws` start some statement of the grammar (0 .. len(ws))."""
    for k in range(len(ws), 0, -1):
        text = " ".join(ws[:k])
        if any(p.fullmatch(text) for prefixes in PREFIXES for p in prefixes):
            return k
    return 0


def bad_element(ws):
    """The word Junos names for a statement it cannot parse: the first no statement can continue with, or
    the last word of a statement that stops short (UNCONFIRMED: Junos's word for an incomplete one)."""
    k = viable(ws)
    return ws[k] if k < len(ws) else (ws[-1] if ws else "")


def _members(value):
    return value[2:-2].split() if value.startswith("[ ") else [value]


def check(m, checks):
    for c in checks:
        value = m.group(c[1]) if c[1] in m.re.groupindex else None
        if value is None:
            continue
        for member in _members(value):
            if c[0] == "range":
                if not re.fullmatch(r"\d+", member) or not c[2] <= int(member) <= c[3]:
                    raise Refused("value %s is not within range (%d..%d)" % (member, c[2], c[3]), member)
            elif not re.fullmatch(c[2], member):
                raise Refused(c[3], member)


def parse(text):
    """The row that takes the statement (words after `set `) and its match; Refused when none does or a
    value is refused."""
    for regex, kind, source, checks in COMPILED:
        m = regex.fullmatch(text)
        if m:
            check(m, checks)
            return kind, m
    raise Refused("syntax error", bad_element(text.split(" ")))


def atomic(ws):
    """The statement's atomic statements (one per leaf and per leaf-list member), each as
    (line, kind, key): `key` is what a later statement replaces (leaf: the words before the value) or
    matches (list, flag: the whole line). Refused as Junos refuses the statement at load."""
    text = " ".join(ws)
    kind, m = parse(text)
    if kind == "expand":
        out, rest, head = [], m.group("v").split(), text[:m.start("v")]
        fields = {"queue-num": 1, "priority": 1, "no-loss": 0, "pfc-priority": 1}
        while rest:
            n = fields[rest[0]]
            out += atomic((head + " " + " ".join(rest[:n + 1])).split(" "))
            rest = rest[n + 1:]
        return out
    if kind == "list":
        head = text[:m.start("v")]
        return [(head + member, kind, head + member) for member in _members(m.group("v"))]
    if kind == "leaf":
        return [(text, kind, text[:m.start("v")].rstrip())]
    return [(text, kind, text)]


def key_of(line):
    return atomic(line.split(" "))[0][2]


def order(lines):
    """The lines as `show configuration | display set` prints them: grouped by hierarchy, each hierarchy's
    children in ORDER's schema order where it names them, else in the order they were first set."""
    tree = {}
    for line in lines:
        node = tree
        for w in line.split(" "):
            node = node.setdefault(w, {})
        node[None] = line

    def rank(path, word):
        for regex, names in ORDER:
            if regex.fullmatch(path):
                return names.index(word) if word in names else len(names)
        return 0

    out = []

    def walk(node, path):
        children = [w for w in node if w is not None]
        if None in node and not children:  # a presence statement with children prints as its children
            out.append(node[None])
        children.sort(key=lambda w: rank(path, w))  # stable: first-set order among equals
        for w in children:
            walk(node[w], (path + " " + w).strip())

    walk(tree, "")
    return out


# ---- commit check

# Forwarding classes a QFX has without configuration (docs/reference-junos.md a: best-effort, fcoe,
# no-loss, network-control, mcast; UNCONFIRMED that they stay defined beside explicit classes).
DEFAULT_CLASSES = {"best-effort", "fcoe", "no-loss", "network-control", "mcast"}
# Code point aliases Junos defines (UNCONFIRMED list: Junos's default alias tables, not read here).
DSCP_ALIASES = {"be", "ef", "nc1", "nc2"} | {"af%d%d" % (a, b) for a in range(1, 5) for b in range(1, 4)} | \
    {"cs%d" % i for i in range(8)}
DOT1P_ALIASES = {"be", "be1", "ef", "ef1", "af11", "af12", "nc1", "nc2"}
MTU_RANGE = (256, 9216)  # UNCONFIRMED for QFX: "256 through 9216 (EX Series switch interfaces)", Junos EX guide


def must(lines):
    """`commit check` of a configuration (its atomic lines): [(edit path, statement, message)], empty when
    it passes. junos.py prints each as an <rpc-error>."""
    errors = []

    def error(path, statement, message):
        e = ("[edit %s]" % path, statement, message)
        if e not in errors:
            errors.append(e)

    cnp, classifiers, rewrites, classes, queues, cos_if, sched_maps = {}, {}, {}, {}, set(), {}, {}
    schedulers, drop_profiles, fc_sets, tcps, phys = set(), set(), set(), set(), {}
    refs = []  # (kind, name, table, edit path, statement): references, checked once everything is read
    for line in lines:
        w = line.split(" ")
        if w[0] == "interfaces":
            p = phys.setdefault(w[1], {})
            if len(w) == 4 and w[2] == "mtu":
                p["mtu"] = int(w[3])
            continue
        what = w[1]
        if what == "congestion-notification-profile":
            c = cnp.setdefault(w[2], {"watchdog": False, "output": False, "input": {}, "mru": set(), "xon": set(),
                                      "pfc": set()})
            rest = w[3:]
            if rest[:1] == ["pfc-watchdog"]:
                c["watchdog"] = True
            elif rest[:1] == ["output"]:
                c["output"] = True
            elif rest[:1] == ["input"] and len(rest) >= 4:
                c["input"].setdefault(rest[1], set()).add(rest[3])
                if rest[4:5] in (["pfc"], ["mru"], ["xon"]):
                    c[rest[4]].add((rest[1], rest[3]))
        elif what in ("classifiers", "rewrite-rules"):
            table = classifiers if what == "classifiers" else rewrites
            e = table.setdefault((w[2], w[3]), {"classes": set(), "import": False, "points": []})
            if w[4:5] == ["import"]:
                e["import"] = True
            elif w[4:5] == ["forwarding-class"]:
                e["classes"].add(w[5])
                if w[8:9] == ["code-points"]:
                    e["points"].append((w[5], w[7], w[9]))
        elif what == "forwarding-classes":
            if w[2] == "class":
                classes.setdefault(w[3], {})
            else:
                queues.add(w[3])
        elif what == "interfaces":
            i = cos_if.setdefault(w[2], {"units": {}, "classifiers": set(), "rewrites": set(), "fc-sets": set()})
            rest, target, where = w[3:], i, " ".join(w[:3])
            if rest[:1] == ["unit"]:
                target = i["units"].setdefault(rest[1], {"classifiers": set(), "rewrites": set(), "fc-sets": set()})
                rest, where = rest[2:], " ".join(w[:5])
            if rest[:1] in (["scheduler-map"], ["forwarding-class"], ["congestion-notification-profile"]):
                target[rest[0]] = rest[1]
            elif rest[:1] == ["classifiers"]:
                target["classifiers"].add((rest[1], rest[2]))
            elif rest[:1] == ["rewrite-rules"]:
                target["rewrites"].add((rest[1], rest[2]))
            elif rest[:1] == ["forwarding-class-set"]:
                target["fc-sets"].add(rest[1])
                if rest[2:3] == ["output-traffic-control-profile"]:
                    refs.append(("traffic-control-profile", rest[3], tcps, where + " forwarding-class-set " + rest[1],
                                 "output-traffic-control-profile " + rest[3]))
        elif what == "scheduler-maps":
            m = sched_maps.setdefault(w[2], {})
            if len(w) > 6:
                m[w[4]] = w[6]
        elif what == "schedulers":
            schedulers.add(w[2])
            if w[3:4] == ["drop-profile-map"]:
                refs.append(("drop-profile", w[-1], drop_profiles, "class-of-service schedulers " + w[2],
                             " ".join(w[3:])))
        elif what == "drop-profiles":
            drop_profiles.add(w[2])
        elif what == "forwarding-class-sets":
            fc_sets.add(w[2])
            refs.append(("forwarding-class", w[4], None, "class-of-service forwarding-class-sets " + w[2],
                         "class " + w[4]))
        elif what == "traffic-control-profiles":
            tcps.add(w[2])
            if w[3:4] == ["scheduler-map"]:
                refs.append(("scheduler-map", w[4], sched_maps, "class-of-service traffic-control-profiles " + w[2],
                             "scheduler-map " + w[4]))
    known_classes = set(classes) | DEFAULT_CLASSES

    def defined(kind, name, present, path, statement):
        """UNCONFIRMED text: a reference to what is not defined, in the layout of Junos's `interface-range
        'axp' is not defined` (tests/fixtures/junos/rpc-reply-commit-configuration-error.pyez-test.xml)."""
        if name not in present and name != "default":
            error(path, statement, "%s '%s' is not defined" % (kind, name))

    # congestion notification profiles
    for name, c in cnp.items():
        path = "class-of-service congestion-notification-profile " + name
        if c["watchdog"] and not c["output"]:
            error(path, "pfc-watchdog", "pfc-watchdog configurations mandate output config")  # QFXC:1807-1808
        for kind, cp in sorted(c["mru"] - c["pfc"]):
            # QFXC:1883-1884 (ieee-802.1), 1956-1957 (dscp)
            error("%s input %s code-point %s" % (path, kind, cp), "mru", "MRU not allowed without PFC")
        for kind, cp in sorted(c["xon"] - c["pfc"]):
            # QFXC:1889-1890 (ieee-802.1), 1962-1963 (dscp)
            error("%s input %s code-point %s" % (path, kind, cp), "xon", "XON not allowed without PFC")
        if len(c["input"]) > 1:
            # "DSCP-based PFC and IEEE 802.1p PFC cannot be configured under the same congestion notification
            # profile" (CNP statement page, docs/reference-junos.md a). No YANG constraint: a daemon's check,
            # whose printed text is UNCONFIRMED (the page's sentence here).
            error(path, "input", "DSCP-based PFC and IEEE 802.1p PFC cannot be configured under the same "
                                 "congestion notification profile")
    # classifiers and rewrite rules
    for (kind, name), e in classifiers.items():
        path = "class-of-service classifiers %s %s" % (kind, name)
        if not e["classes"] and not e["import"]:
            # QFXC:59-60 (dscp), 124-125 (dscp-ipv6), 254-255 (ieee-802.1)
            error("class-of-service classifiers", "%s %s" % (kind, name),
                  "'At least one 'forwarding class' or 'import' classifier definition is required for classifier "
                  "configuration")
        for fc in sorted(e["classes"]):
            defined("forwarding-class", fc, known_classes, path, "forwarding-class " + fc)
        for fc, lp, point in e["points"]:
            bits, aliases = (6, DSCP_ALIASES) if kind.startswith("dscp") else (3, DOT1P_ALIASES)
            if not re.fullmatch("[01]{%d}" % bits, point) and point not in aliases:
                # UNCONFIRMED: the YANG takes any string (QFXC:109-113); Junos's check and its text not found
                error("%s forwarding-class %s loss-priority %s" % (path, fc, lp), "code-points " + point,
                      "code point '%s' is neither %d bits nor an alias" % (point, bits))
    for (kind, name), e in rewrites.items():
        if not e["classes"] and not e["import"]:
            # QFXC:2265-2266
            error("class-of-service rewrite-rules", "%s %s" % (kind, name),
                  "'At least one 'forwarding class' or 'import' rewrite definition is required for rewrite "
                  "configuration")
        for fc in sorted(e["classes"]):
            defined("forwarding-class", fc, known_classes, "class-of-service rewrite-rules %s %s" % (kind, name),
                    "forwarding-class " + fc)
    # forwarding classes
    if classes and queues:
        # QFXC:1026-1027
        error("class-of-service forwarding-classes", "class", "'queue' and 'class' cannot coexist")
    if len(classes) > 16:
        # QFXC:1028 max-elements 16; the text UNCONFIRMED
        error("class-of-service forwarding-classes", "class", "number of elements exceeds the limit (16)")
    # scheduler maps and the references read above
    for name, m in sched_maps.items():
        path = "class-of-service scheduler-maps " + name
        for fc, s in m.items():
            defined("forwarding-class", fc, known_classes, path, "forwarding-class " + fc)
            defined("scheduler", s, schedulers, "%s forwarding-class %s" % (path, fc), "scheduler " + s)
    for kind, name, present, path, statement in refs:
        defined(kind, name, known_classes if present is None else present, path, statement)
    # [edit class-of-service interfaces IF]
    for name, i in cos_if.items():
        path = "class-of-service interfaces " + name
        unit_maps = any("scheduler-map" in u for u in i["units"].values())
        if unit_maps and "scheduler-map" in i:
            # QFXC:3926-3927
            error("class-of-service interfaces", name, "Cannot configure scheduler-map or traffic-control-profile "
                  "statement on both physical and logical interface")
        if i["fc-sets"] and "scheduler-map" in i:
            # QFXC:3956-3957 (the trailing space is the YANG's)
            error(path, "forwarding-class-set", "Scheduler-map and forwarding-class-set not allowed on same "
                  "interface together ")
        if i["classifiers"] and "forwarding-class" in i:
            # QFXC:3918-3919
            error("class-of-service interfaces", name, "Forwarding-class and BA Classifiers not allowed on the same "
                  "physical interface together")
        if unit_maps and name in phys:
            # QFXC:3942-3943: a unit's scheduler map needs per-unit-scheduler (or shared- or hierarchical-
            # scheduler) at [edit interfaces IF], which the emulator does not take: refused whenever the port is
            # configured at [edit interfaces]
            error("class-of-service interfaces", name, "'per-unit-scheduler', 'hierarchical-scheduler', or "
                  "'shared-scheduler' for this interface is required for scheduler map on interface unit")
        for target, where in [(i, path)] + [(u, "%s unit %s" % (path, n)) for n, u in i["units"].items()]:
            if "congestion-notification-profile" in target:
                cn = target["congestion-notification-profile"]
                defined("congestion-notification-profile", cn, cnp, where, "congestion-notification-profile " + cn)
            if "scheduler-map" in target:
                defined("scheduler-map", target["scheduler-map"], sched_maps, where,
                        "scheduler-map " + target["scheduler-map"])
            if "forwarding-class" in target:
                defined("forwarding-class", target["forwarding-class"], known_classes, where,
                        "forwarding-class " + target["forwarding-class"])
            for kind, cl in sorted(target["classifiers"]):
                defined("classifier", cl, {n for k, n in classifiers if k == kind}, where + " classifiers",
                        "%s %s" % (kind, cl))
            for kind, rw in sorted(target["rewrites"]):
                defined("rewrite-rule", rw, {n for k, n in rewrites if k == kind}, where + " rewrite-rules",
                        "%s %s" % (kind, rw))
            for s in sorted(target["fc-sets"]):
                defined("forwarding-class-set", s, fc_sets, where, "forwarding-class-set " + s)
    # [edit interfaces IF]
    for name, p in phys.items():
        if "mtu" in p and not MTU_RANGE[0] <= p["mtu"] <= MTU_RANGE[1]:
            # UNCONFIRMED range (MTU_RANGE) and text
            error("interfaces " + name, "mtu %d" % p["mtu"],
                  "mtu value %d is not within range (%d..%d)" % (p["mtu"], MTU_RANGE[0], MTU_RANGE[1]))
    return errors

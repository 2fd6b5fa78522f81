"""What a Cisco Nexus 9000's NX-OS CLI takes of the QoS configuration fabricctl writes, mode by mode, and
what it refuses, each with its source (docs/reference-nxos.md, whose section E is the device acceptance
checklist for what is UNCONFIRMED here).

A row is (mode, pattern, what, source): `what` is what the line does in nxos.py ("set": a value of the
block, replacing the line that sets the same thing; "add": one of a list; "enter MODE": opens a block).
A line no row of its mode takes is refused with NX-OS's generic parser error, `% Invalid command at '^'
marker.` (Ansible cisco.nxos plugins/terminal/nxos.py @154aa540, napalm nxos.py @ee70e634); a number out
of a documented range likewise (Cisco's DME model: CiscoDevNet/terraform-provider-nxos @43d0c254,
gen/definitions/*.yaml)."""
import re

INVALID = "% Invalid command at '^' marker."

NAME = r"[A-Za-z0-9_-]{1,40}"  # a class map's or policy's name: Cisco's examples, limit UNCONFIRMED
PORT = r"Ethernet\d{1,2}/\d{1,3}(?:/\d{1,2})?"
DSCP_LIST = r"\d{1,2}(?:-\d{1,2})?(?:,\d{1,2}(?:-\d{1,2})?)*"
NQ_CLASS = r"c-8q-nq(?:[1-7]|-default)"  # 8-queue system classes: no nq0 (TME script, NDFC capture)
OUT_CLASS = r"c-out-8q-q(?:[1-7]|-default)"
UNIT = r"(?:bytes|kbytes|mbytes)"  # kbytes on every real switch seen; bytes and mbytes UNCONFIRMED

# (mode, pattern, what, source). Ranges are checked by RANGES below.
ROWS = [
    ("config", r"version \S+( Bios:version \S+)?", "ignore", "the first line of every running-config (NDFC capture)"),
    ("config", r"class-map type qos (?:match-any|match-all) (" + NAME + ")", "enter cmap", "TME :103-106; NDFC"),
    ("config", r"policy-map type qos (" + NAME + ")", "enter pmap-qos", "TME :107-113; NDFC"),
    ("config", r"policy-map type network-qos (" + NAME + ")", "enter pmap-nq", "TME :95-101; NDFC"),
    ("config", r"policy-map type queuing (" + NAME + ")", "enter pmap-que", "TME :116-133; NDFC"),
    ("config", r"system qos", "enter sys-qos", "TME :134-136; NDFC"),
    ("config", r"interface (" + PORT + ")", "enter if", "TME :152-154"),
    ("config", r"event manager applet (" + NAME + ")", "enter applet", "UNCONFIRMED: NX-OS EEM"),
    ("config", r"priority-flow-control watch-dog-interval (on|off)", "set", "TME :94; NDFC"),
    ("config", r"priority-flow-control watch-dog interval (\d+)", "set", "UNCONFIRMED form and range"),
    ("config", r"priority-flow-control watch-dog shutdown-multiplier (\d+)", "set", "UNCONFIRMED form and range"),
    ("config", r"priority-flow-control auto-restore multiplier (\d+)", "set", "UNCONFIRMED form and range"),
    ("cmap", r"match dscp (" + DSCP_LIST + ")", "add", "TME :104 (range); comma list UNCONFIRMED"),
    ("cmap", r"match cos ([0-7])", "add", "Azure Local TOR reference (match cos 3)"),
    ("pmap-qos", r"class (" + NAME + ")", "enter pmap-c-qos", "TME :108; NDFC"),
    ("pmap-c-qos", r"set qos-group ([0-7])", "set", "TME :109; NDFC"),
    ("pmap-nq", r"class type network-qos (" + NQ_CLASS + ")", "enter pmap-c-nq", "TME :96; NDFC"),
    ("pmap-c-nq", r"mtu (\d+)", "set", "TME :97; DME network_qos.yaml:111-124 (576-9216)"),
    ("pmap-c-nq", r"pause pfc-cos ([0-7])", "set", "TME :98; NDFC"),
    ("pmap-que", r"class type queuing (" + OUT_CLASS + ")", "enter pmap-c-que", "TME :117; NDFC"),
    ("pmap-c-que", r"priority level ([1-8])", "set", "TME :132; DME queuing_qos.yaml:66-78 (1-8)"),
    ("pmap-c-que", r"bandwidth remaining percent (\d+)", "set", "TME :118; DME queuing_qos.yaml:80-92"),
    ("pmap-c-que", r"random-detect minimum-threshold (\d+) " + UNIT + r" maximum-threshold (\d+) " + UNIT +
     r" drop-probability (\d+) weight (\d+) ecn", "set", "TME :122; NDFC"),
    ("sys-qos", r"service-policy type network-qos (" + NAME + ")", "set", "TME :135; NDFC"),
    ("sys-qos", r"service-policy type queuing output (" + NAME + ")", "set", "TME :134; NDFC"),
    ("if", r"mtu (\d+)", "set", "TME :153; DME physical_interface.yaml:142-148 (576-9216)"),
    ("if", r"priority-flow-control mode (on|off|auto)", "set", "QoS guide 7.x p.172; REST SDK 9.3"),
    ("if", r"priority-flow-control watch-dog-interval (on|off)", "set", "TME :152; NDFC"),
    ("if", r"service-policy type qos input (" + NAME + ")", "set", "TME :154; NDFC"),
    ("if", r"(no )?shutdown", "set", "NX-OS interface command"),
    ("applet", r"event timer countdown time (\d+)", "set", "UNCONFIRMED: NX-OS EEM countdown timer"),
    ("applet", r"action (\d+) cli (.+)", "add", "UNCONFIRMED: NX-OS EEM cli action"),
]

# Ranges of the numbers the rows above take: (mode, first words) -> (group, lo, hi, source).
RANGES = {
    ("pmap-c-nq", "mtu"): [(1, 576, 9216, "DME network_qos.yaml:111-124")],
    ("if", "mtu"): [(1, 576, 9216, "DME physical_interface.yaml:142-148")],
    ("pmap-c-que", "bandwidth"): [(1, 0, 100, "DME queuing_qos.yaml:80-92")],
    ("pmap-c-que", "random-detect"): [(3, 0, 100, "drop-probability: a percent, UNCONFIRMED range"),
                                      (4, 0, 15, "weight: UNCONFIRMED range")],
    ("config", "priority-flow-control watch-dog interval"): [(1, 100, 1000, "UNCONFIRMED: commonly quoted")],
    ("config", "priority-flow-control watch-dog shutdown-multiplier"): [(1, 1, 10, "UNCONFIRMED")],
    ("config", "priority-flow-control auto-restore multiplier"): [(1, 0, 100, "UNCONFIRMED")],
    ("applet", "event"): [(1, 1, 4294967295, "UNCONFIRMED")],
}


class Invalid(Exception):
    def __init__(self, line, why=INVALID):
        super().__init__(why)
        self.line, self.message = line, why


def in_range(mode, line, m):
    for key, checks in RANGES.items():
        if key[0] == mode and line.startswith(key[1]):
            for group, lo, hi, _source in checks:
                if not lo <= int(m.group(group)) <= hi:
                    raise Invalid(line)


def dscp_values(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        lo, hi = int(a), int(b or a)
        if not 0 <= lo <= hi <= 63:
            raise Invalid("match dscp " + text)
        out += range(lo, hi + 1)
    return out


def parse(mode, line):
    """The row of `mode` that takes `line` (single spaces), and its match; Invalid when none does."""
    for row_mode, pattern, what, _source in ROWS:
        if row_mode != mode:
            continue
        m = re.fullmatch(pattern, line)
        if m:
            in_range(mode, line, m)
            if line.startswith("match dscp "):
                dscp_values(m.group(1))
            return what, m
    raise Invalid(line)


def key(line):
    """What a line sets, so that a new value replaces the old line: its words up to its value. A queuing
    class's `priority level` and `bandwidth remaining percent` are two settings; what NX-OS does with both
    in one class is UNCONFIRMED (docs/reference-nxos.md B), so the emulator keeps both and reads a class
    with `priority level` as strict."""
    if line.startswith("random-detect"):
        return "random-detect"
    if line in ("shutdown", "no shutdown"):
        return "shutdown"
    if line.startswith("pause pfc-cos"):
        return "pause"
    return line.rsplit(" ", 1)[0]

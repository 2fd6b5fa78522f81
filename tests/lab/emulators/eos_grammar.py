"""What Arista EOS's CLI refuses of the lines a configure session of fabricctl's holds, and how it says so,
for the emulated EOS switch (eos.py). Each command is a row of words; a line is taken when one row of its
mode takes every word, else refused with EOS's `% Invalid input (at token N: 'W')`, N the 0-based index of
the first word no row could take (the furthest any row got), W that word.

Sources (read, not copied; docs/transactions-eos.md "The emulator's grammar"):
- EOS's error text and its 0-based token: aristanetworks/ansible-cvp unit test data of CVP config
  validation (`ruter bgp 1111` -> "% Invalid input (at token 0: 'ruter')"), pyeapi's eAPI error fixtures
  (`show bogus` -> "% Invalid input (at token 1: 'bogus')"), AVD's cv client tests (`spanning-tree mode
  spine1` -> "(at token 2: 'spine1')"). EOS goes on with the next line: the session keeps the others.
- Words, ranges and units: aristanetworks/avd @3cac535c eos_cli_config_gen schema fragments and templates
  (qos.schema.yml, qos_profiles.schema.yml: ECN units segments|bytes|kbytes|mbytes|milliseconds, thresholds
  >= 1, max-mark-probability 1-100, weight 0-15, `priority strict` | `no priority`;
  priority_flow_control.schema.yml: watchdog action drop|no-drop, timeout and recovery-time with at most 2
  decimals, polling-interval with at most 3; ethernet_interfaces.schema.yml: PFC priority 0-7, no-drop).
- L3 MTU 68-9214 on EOS (shared/reference/switch-nos.md: Arista's 9214 vs 9216 elsewhere; AVD's default
  p2p MTU 9214; AVD's schema itself allows 65535, which covers L2 MTU too).
- The queue words per chip (shared/reference/switch-nos.md, fidelity review 2026-11-30): Trident and
  Tomahawk take `uc-tx-queue` (and `mc-tx-queue`), Jericho (VOQ) takes `tx-queue`.
UNCONFIRMED (a device acceptance check each, docs/transactions-eos.md): the token EOS names for a number out
of range (here: the number), and for a queue word the chip lacks (here: that word); DSCP 0-63 and
traffic-class / queue 0-7 as EOS's limits on every chip; `random-detect ecn` with different units for the
two thresholds or a minimum above the maximum (refused here: the emulator errs on the side of refusing);
no upper bound of the thresholds is modelled (it is the chip's buffer); watchdog values have no range here
beyond their decimals; `bandwidth percent` 1-100.
"""
import re

CHIPS = {"trident": "uc-tx-queue", "tomahawk": "uc-tx-queue", "jericho": "tx-queue"}  # chip -> queue word
DEFAULT_CHIP = "tomahawk"


class Invalid(Exception):
    """A line EOS refuses; `message` as EOS prints it."""

    def __init__(self, line, token=0, word=None):
        super().__init__(line)
        words = line.split()
        if word is None:
            word = words[token] if token < len(words) else (words[-1] if words else "")
        self.token = token
        self.message = "%% Invalid input (at token %d: '%s')" % (token, word)


# Argument words. Each takes words[i:] and returns how many it took (0: none fits).
def integer(lo, hi):
    def take(words, i, _chip):
        return 1 if i < len(words) and re.fullmatch(r"\d+", words[i]) and lo <= int(words[i]) <= hi else 0
    return take


def integers(lo, hi):
    """A list of numbers separated by spaces (`qos map dscp 24 26 to ...`): as many as there are."""
    one = integer(lo, hi)

    def take(words, i, chip):
        n = 0
        while one(words, i + n, chip):
            n += 1
        return n
    return take


def seconds(decimals):
    def take(words, i, _chip):
        return 1 if i < len(words) and re.fullmatch(r"\d+(\.\d{1,%d})?" % decimals, words[i]) else 0
    return take


def one_of(*choices):
    def take(words, i, _chip):
        return 1 if i < len(words) and words[i] in choices else 0
    return take


def queue_word(words, i, chip):
    """The chip's queue word: `uc-tx-queue` on Trident and Tomahawk, `tx-queue` on Jericho."""
    return 1 if i < len(words) and words[i] == CHIPS[chip] else 0


class optional:
    """The words of `row` or none of them (a row's optional tail, in its order)."""

    def __init__(self, *row):
        self.row = row


def match(row, words, i, chip):
    """(where `row` got to in `words` from i, whether it took all of its words there, and the furthest word
    any part of it reached, for the error's token)."""
    n = furthest = i
    for w in row:
        if isinstance(w, optional):
            got, done, reach = match(w.row, words, n, chip)
            if done:
                n = got
            furthest = max(furthest, reach)
            continue
        took = w(words, n, chip) if callable(w) else (1 if n < len(words) and words[n] == w else 0)
        if not took:
            return n, False, max(furthest, n)
        n += took
    return n, True, max(furthest, n)


UNITS = one_of("segments", "bytes", "kbytes", "mbytes", "milliseconds")
WATCHDOG = [("default", "timeout", seconds(2)), ("default", "recovery-time", seconds(2)),
            ("default", "polling-interval", seconds(3)), ("action", one_of("drop", "no-drop"))]

# name -> (mode, words). Modes: top (global), interface (in `interface X`), queue (in its queue block).
COMMANDS = {
    "dscp map": ("top", ("qos", "map", "dscp", integers(0, 63), "to", "traffic-class", integer(0, 7),
                         optional("drop-precedence", integer(0, 2)))),
    "cos map": ("top", ("qos", "map", "cos", integers(0, 7), "to", "traffic-class", integer(0, 7))),
    "queue map": ("top", ("qos", "map", "traffic-class", integers(0, 7), "to", queue_word, integer(0, 7))),
    "mtu": ("interface", ("mtu", integer(68, 9214))),
    "trust": ("interface", ("qos", "trust", one_of("dscp", "cos"))),
    "no trust": ("interface", ("no", "qos", "trust")),
    "pfc on": ("interface", ("priority-flow-control", "on")),
    "no pfc": ("interface", ("no", "priority-flow-control")),
    "pfc priority": ("interface", ("priority-flow-control", "priority", integer(0, 7), one_of("no-drop", "drop"))),
    "no pfc priority": ("interface", ("no", "priority-flow-control", "priority", integer(0, 7),
                                      optional(one_of("no-drop", "drop")))),
    "watchdog on": ("interface", ("priority-flow-control", "pause", "watchdog")),
    "watchdog off": ("interface", ("no", "priority-flow-control", "pause", "watchdog")),
    "queue": ("interface", (queue_word, integer(0, 7))),
    "strict": ("queue", ("priority", "strict")),
    "no strict": ("queue", ("no", "priority")),
    "bandwidth": ("queue", ("bandwidth", "percent", integer(1, 100))),
    "no bandwidth": ("queue", ("no", "bandwidth", "percent")),
    "ecn": ("queue", ("random-detect", "ecn", "minimum-threshold", integer(1, 2 ** 32), UNITS, "maximum-threshold",
                      integer(1, 2 ** 32), UNITS, optional("max-mark-probability", integer(1, 100)),
                      optional("weight", integer(0, 15)))),
    "no ecn": ("queue", ("no", "random-detect", "ecn", "minimum-threshold")),
}
for _row in WATCHDOG:
    COMMANDS["watchdog " + " ".join(w for w in _row if isinstance(w, str))] = (
        "top", ("priority-flow-control", "pause", "watchdog") + _row)
    COMMANDS["no watchdog " + " ".join(w for w in _row if isinstance(w, str))] = (
        "top", ("no", "priority-flow-control", "pause", "watchdog") + tuple(w for w in _row if isinstance(w, str)))


def parse(mode, line, chip=DEFAULT_CHIP):
    """(command name, words) of a line EOS takes in `mode`; raises Invalid as EOS refuses it."""
    words = line.split()
    furthest = 0
    for name, (m, row) in COMMANDS.items():
        if m != mode:
            continue
        got, done, reach = match(row, words, 0, chip)
        if done and got == len(words):
            check(name, words, line)
            return name, words
        furthest = max(furthest, reach)
    raise Invalid(line, min(furthest, max(len(words) - 1, 0)))


def check(name, words, line):
    """What the words alone do not say. UNCONFIRMED (EOS's text unknown): ECN thresholds in two units, or
    a minimum above the maximum, refused at the maximum's number."""
    if name == "ecn":
        if words[4] != words[7] or int(words[3]) > int(words[6]):
            raise Invalid(line, 6)


# "Refused as EOS refuses": (mode, line, chip, EOS's message, source). tests/cli/eos_refusals.sh sends each
# through the emulator's CLI and checks the message and that the session did not take the line.
AVD = "aristanetworks/avd @3cac535c eos_cli_config_gen schema"
REFUSALS = [
    ("top", "ruter bgp 1111", DEFAULT_CHIP, "% Invalid input (at token 0: 'ruter')",
     "ansible-cvp CVP validation test data (a word EOS has no command for)"),
    ("interface", "mtu 9216", DEFAULT_CHIP, "% Invalid input (at token 1: '9216')",
     "switch-nos.md: EOS's L3 MTU maximum is 9214 (token UNCONFIRMED)"),
    ("interface", "mtu 67", DEFAULT_CHIP, "% Invalid input (at token 1: '67')", AVD + " ethernet_interfaces: mtu min 68"),
    ("top", "qos map dscp 26 64 to traffic-class 3", DEFAULT_CHIP, "% Invalid input (at token 4: '64')",
     "DSCP is 6 bits (RFC 2474); UNCONFIRMED token"),
    ("top", "qos map dscp 26 to traffic-class 8", DEFAULT_CHIP, "% Invalid input (at token 6: '8')",
     "8 traffic classes (UNCONFIRMED per chip)"),
    ("top", "qos map traffic-class 3 to tx-queue 3", "tomahawk", "% Invalid input (at token 5: 'tx-queue')",
     "switch-nos.md fidelity review: Tomahawk/Trident queues are uc-tx-queue (UNCONFIRMED text)"),
    ("interface", "uc-tx-queue 3", "jericho", "% Invalid input (at token 0: 'uc-tx-queue')",
     "switch-nos.md fidelity review: Jericho (VOQ) queues are tx-queue (UNCONFIRMED text)"),
    ("interface", "priority-flow-control priority 8 no-drop", DEFAULT_CHIP, "% Invalid input (at token 2: '8')",
     AVD + " ethernet_interfaces: PFC priority 0-7"),
    ("top", "priority-flow-control pause watchdog default timeout 0.005", DEFAULT_CHIP,
     "% Invalid input (at token 5: '0.005')", AVD + " priority_flow_control: timeout with at most 2 decimals"),
    ("top", "priority-flow-control pause watchdog default polling-interval 0.0005", DEFAULT_CHIP,
     "% Invalid input (at token 5: '0.0005')", AVD + " priority_flow_control: polling-interval, 3 decimals"),
    ("top", "priority-flow-control pause watchdog action errdisable", DEFAULT_CHIP,
     "% Invalid input (at token 4: 'errdisable')", AVD + " priority_flow_control: action drop | no-drop"),
    ("queue", "random-detect ecn minimum-threshold 150 kbyte maximum-threshold 1500 kbytes", DEFAULT_CHIP,
     "% Invalid input (at token 4: 'kbyte')", AVD + " qos_profiles: units segments|bytes|kbytes|mbytes|milliseconds"),
    ("queue", "random-detect ecn minimum-threshold 0 bytes maximum-threshold 1500 bytes", DEFAULT_CHIP,
     "% Invalid input (at token 3: '0')", AVD + " qos_profiles: ECN thresholds min 1"),
    ("queue", "random-detect ecn minimum-threshold 150 bytes maximum-threshold 1500 bytes max-mark-probability 0",
     DEFAULT_CHIP, "% Invalid input (at token 9: '0')", AVD + " qos_profiles: max-mark-probability 1-100"),
    ("queue", "random-detect ecn minimum-threshold 150 bytes maximum-threshold 1500 bytes weight 16", DEFAULT_CHIP,
     "% Invalid input (at token 9: '16')", AVD + " qos_profiles: weight 0-15"),
    ("queue", "random-detect ecn minimum-threshold 1500 bytes maximum-threshold 150 bytes", DEFAULT_CHIP,
     "% Invalid input (at token 6: '150')", "UNCONFIRMED: a minimum above the maximum"),
    ("queue", "bandwidth percent 101", DEFAULT_CHIP, "% Invalid input (at token 2: '101')",
     "a share of the port (UNCONFIRMED range 1-100)"),
    ("queue", "priority low", DEFAULT_CHIP, "% Invalid input (at token 1: 'low')",
     AVD + " qos_profiles: `priority strict` | `no priority`"),
]

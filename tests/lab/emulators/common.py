"""What every NOS emulator here does the same way: its state files, port order, and the answers a test
puts in place of the emulator's own (STATE/answers.json: {"<command>": {"stdout": "...", "stderr": "...",
"exit": 1}}). A key that ends in "*" answers every command it is a prefix of; "sleep": seconds makes
the answer wait first (a device that hangs); an answer of only "sleep" is the emulator's own, late.
And the one lock and the one revert timer every emulator uses (below)."""
import fcntl
import json
import os
import re
import shlex
import signal
import sys
import time


def load(state, name, default):
    """STATE/NAME as JSON, or `default` when the file is not there."""
    try:
        with open(os.path.join(state, name)) as f:
            return json.load(f)
    except FileNotFoundError:
        return default


def natural(name):
    """Sort key: Ethernet2 before Ethernet10, swp1s2 before swp10."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def answered(state, command):
    """Writes a test's answer for `command` and returns its exit status; None when there is none."""
    answers = load(state, "answers.json", {})
    answer = answers.get(command)
    if answer is None:
        answer = next((a for k, a in answers.items() if k.endswith("*") and command.startswith(k[:-1])), None)
    if answer is None:
        return None
    time.sleep(answer.get("sleep", 0))
    if set(answer) == {"sleep"}:
        return None  # only slow: the emulator answers as usual
    sys.stdout.write(answer.get("stdout", ""))
    sys.stderr.write(answer.get("stderr", ""))
    return answer.get("exit", 0)


UNKNOWN = object()


def dispatch(table, command, cli):
    """The emulators' one dispatch style: `table` is the NOS's command list, rows of (regular expression,
    handler); the first whose expression matches the whole command line runs as handler(cli, match),
    and its result is returned. UNKNOWN when no row matches: the caller refuses the command the way
    its NOS does."""
    for pattern, handler in table:
        m = re.fullmatch(pattern, command)
        if m:
            return handler(cli, m)
    return UNKNOWN


def locked(state):
    """The switch's lock (STATE/lock), held until the returned file is closed: one command at a time
    changes the state, as the NOS's own configuration daemon serialises its clients."""
    f = open(os.path.join(state, "lock"), "a")
    fcntl.flock(f, fcntl.LOCK_EX)
    return f


def command_words():
    """The SSH command (SSH_ORIGINAL_COMMAND), split into words as the switch's login shell would: quotes
    removed; unbalanced quotes split on spaces, for the NOS to refuse."""
    raw = os.environ.get("SSH_ORIGINAL_COMMAND", "")
    try:
        return shlex.split(raw)
    except ValueError:
        return raw.split()


LIST_OPERATORS = (";", "&&")


def is_list(words):
    """Whether the command is a list of commands, as the switch's login shell (bash) would run it."""
    return any(w in LIST_OPERATORS for w in words)


def shell_list(words, run_one):
    """A list as bash runs it: commands separated by ';' (the next runs whatever the last exited with) or
    '&&' (the next runs only if the last exited 0); the list's status is the last command's. `echo
    WORD...` is bash's builtin, "$?" the last status. run_one(words) answers one command as if it came
    alone and returns its status. Only operators that stand as words of their own are read (fabricctl
    sends them so; bash would also take `a;b`)."""
    status, current, skip = 0, [], False
    for w in words + [";"]:
        if w not in LIST_OPERATORS:
            current.append(w)
            continue
        if not current:
            sys.stderr.write("bash: syntax error near unexpected token `%s'\n" % w)
            return 2
        if not skip:
            if current[0] == "echo":
                sys.stdout.write(" ".join(str(status) if a == "$?" else a for a in current[1:]) + "\n")
                status = 0
            else:
                sys.stdout.flush()
                status = run_one(current)
                sys.stdout.flush()
        skip = w == "&&" and status != 0
        current = []
    return status


# The revert timer every emulated NOS has (SONiC's transient systemd timer, EOS's session commit timer,
# NVUE's confirm window), one implementation: STATE/timers/NAME.json {"deadline", "pid", "data"} and a
# detached process (its own session, so that it outlives the SSH command and the connection) that sleeps
# until the deadline, then runs the emulator's action under the lock unless the timer was disarmed first.
# The fire hook, `EMULATOR STATE --fire-timers`, runs every armed timer's action now: a test whose
# subject is not the timer does not wait for it (the lab's SIGKILL tests wait for the real one).
TIMER_ARG = "--timer"  # EMULATOR STATE --timer NAME: the timer's own process
FIRE_ARG = "--fire-timers"


def timer_file(state, name):
    return os.path.join(state, "timers", name + ".json")


def save_timer(state, name, timer):
    path = timer_file(state, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(timer, f)
    os.replace(path + ".tmp", path)


def armed(state, name):
    """The armed timer NAME ({"deadline", "pid", "data"}), or None."""
    return load(state, os.path.join("timers", name + ".json"), None)


def arm_timer(state, emulator, name, seconds, data=None):
    """Arms timer NAME: `seconds` from now, `emulator`'s action runs with `data`. The caller holds the
    lock, so the timer's process reads its file only once it is complete. Returns the deadline."""
    import subprocess  # here, not at the top: a command that arms no timer should not pay its import

    deadline = time.time() + seconds
    p = subprocess.Popen([sys.executable, os.path.abspath(emulator), state, TIMER_ARG, name],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True, close_fds=True)
    save_timer(state, name, {"deadline": deadline, "pid": p.pid, "data": data})
    return deadline


def disarm_timer(state, name):
    """Ends timer NAME before its deadline (its process, if it is still that one); False when none is armed."""
    timer = armed(state, name)
    if timer is None:
        return False
    try:
        with open("/proc/%d/cmdline" % timer["pid"], "rb") as f:
            if f.read().split(b"\0")[-3:-1] == [TIMER_ARG.encode(), name.encode()]:
                os.kill(timer["pid"], signal.SIGTERM)
    except (OSError, KeyError, TypeError):
        pass
    os.remove(timer_file(state, name))
    return True


def quietly(action, state, name, data):
    """`action` with its prints dropped: a timer's service has no terminal, and the fire hook's caller
    reads none of it."""
    stdout, sys.stdout = sys.stdout, open(os.devnull, "w")
    try:
        action(state, name, data)
    finally:
        sys.stdout.close()
        sys.stdout = stdout


def run_timer(state, name, action):
    """The timer's process: sleeps until the deadline, then `action(state, name, data)` under the lock,
    unless the timer was disarmed (or fired) and so is no longer this process's."""
    with locked(state):
        timer = armed(state, name)
    if not timer or timer.get("pid") != os.getpid():
        return 0
    time.sleep(max(0.0, timer["deadline"] - time.time()))
    try:
        with locked(state):
            timer = armed(state, name)
            if timer and timer.get("pid") == os.getpid():
                quietly(action, state, name, timer["data"])
                os.remove(timer_file(state, name))
    except OSError:  # the state directory is gone (a test that ended): nothing to revert
        pass
    return 0


def fire_timers(state, action):
    """The fire hook: every armed timer's action now, as its deadline would run it; their processes end."""
    with locked(state):
        directory = os.path.join(state, "timers")
        for f in sorted(os.listdir(directory)) if os.path.isdir(directory) else []:
            if not f.endswith(".json"):
                continue
            name = f[:-len(".json")]
            timer = armed(state, name)
            disarm_timer(state, name)
            quietly(action, state, name, timer["data"])
    return 0


def timer_main(state, action):
    """argv's timer forms, when given: the timer's process or the fire hook. None otherwise."""
    if len(sys.argv) == 4 and sys.argv[2] == TIMER_ARG:
        return run_timer(state, sys.argv[3], action)
    if len(sys.argv) == 3 and sys.argv[2] == FIRE_ARG:
        return fire_timers(state, action)
    return None

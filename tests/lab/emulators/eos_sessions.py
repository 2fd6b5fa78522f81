"""EOS's configuration sessions as `show configuration sessions [detail] | json` prints them, by EOS release,
and the one commit timer a switch holds, for the emulated EOS switch (eos.py).

Source: napalm-automation/napalm issue #2166 (2025-02-18, real output of `configure session troubleshooting
commit timer ...` then `show configuration sessions detail | json`), and napalm/eos/eos.py @ee70e634
(_get_pending_commits reads both shapes):
- EOS 4.31 and before: the session's `state` is "pendingCommitTimer" while its timer runs, with `commitBy`
  (when the timer ends) and `commitUser`; top level maxSavedSessions, maxOpenSessions, mergeOnCommit,
  saveToStartupConfigOnCommit.
- EOS 4.32 and later: the session reads "committed" at once; the top-level keys commitTimerSessionName and
  commitTimerExpireTime are present only while a timer runs: one name and one time, so one commit timer per
  switch.
UNCONFIRMED: the base of commitBy / commitTimerExpireTime (the issue's values are epoch seconds; napalm
compares them with `show version`'s uptime) -- epoch seconds here; the keys of the plain `show
configuration sessions` (the issue shows only `detail`; here the same without commitBy and commitUser);
EOS's words when a second session asks for a commit timer (here: refused, the message below, on stderr
with exit status 1, like every refused exec of this emulator); a plain `commit` of another session while a
timer runs (here: taken, as the Configure Session page describes commit, overwriting running).
"""
import getpass
import re


def release_at_least(release, major, minor):
    m = re.match(r"(\d+)\.(\d+)", release)
    return bool(m) and (int(m[1]), int(m[2])) >= (major, minor)


def timer_holder(sessions):
    """The session whose commit timer runs, or None."""
    return next((n for n, s in sorted(sessions.items()) if s["state"] == "pendingCommitTimer"), None)


def second_timer(name, holder):
    """`configure session NAME commit timer ...` while HOLDER's timer runs (UNCONFIRMED wording)."""
    return "%% Cannot commit session %s with a timer: session %s has a commit timer pending\n" % (name, holder)


def show(sessions, release, detail):
    """The JSON document of `show configuration sessions [detail] | json`."""
    new_shape = release_at_least(release, 4, 32)
    out = {}
    for name, s in sorted(sessions.items()):
        timed = s["state"] == "pendingCommitTimer"
        e = {"state": "committed" if timed and new_shape else s["state"], "completedTime": s.get("completed", 0),
             "description": "", "instances": {}}
        if detail and timed:
            e["commitUser"] = s.get("user") or getpass.getuser()
            if not new_shape:
                e["commitBy"] = s["expires"]
        out[name] = e
    doc = {"sessions": out, "maxSavedSessions": 1, "maxOpenSessions": 5, "mergeOnCommit": False,
           "saveToStartupConfigOnCommit": False}
    holder = timer_holder(sessions)
    if detail and new_shape and holder is not None:
        doc["commitTimerSessionName"] = holder
        doc["commitTimerExpireTime"] = sessions[holder]["expires"]
    return doc

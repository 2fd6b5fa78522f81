#!/usr/bin/env bash
# Honest docs: every block in README.md and docs/*.md marked <!-- output: ARGS --> is exactly what
# `fabricctl ARGS` prints on stdout, run from the repository root. A changed output fails here until
# the docs say the same.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
/usr/bin/python3 - "$bin" README.md docs/*.md <<'PY'
import re, shlex, subprocess, sys
binary, files = sys.argv[1], sys.argv[2:]
checked = 0
for path in files:
    text = open(path).read()
    for m in re.finditer(r"<!-- output: (.*?) -->\n```[a-z]*\n(.*?)```\n", text, re.S):
        args, want = shlex.split(m.group(1)), m.group(2)
        got = subprocess.run([binary] + args, capture_output=True, text=True).stdout
        line = text[: m.start()].count("\n") + 1
        if got != want:
            print(f"FAIL: {path}:{line}: fabricctl {m.group(1)} prints something else:")
            sys.stdout.writelines(l for l in __import__("difflib").unified_diff(
                want.splitlines(True), got.splitlines(True), "docs", "fabricctl"))
            sys.exit(1)
        checked += 1
if checked == 0:
    print("FAIL: no <!-- output: ... --> block found"); sys.exit(1)
print(f"docs examples: {checked} blocks match their commands")
PY

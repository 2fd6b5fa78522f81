#!/usr/bin/env bash
# Current docs: no Markdown page speaks of the product's future ("in a later release", a future one,
# "(next issues)", "Planned stages"); it says what fabricctl does now. And docs/README.md, the index by
# reader, lists every file under docs/ and links nothing that does not exist.
#
#   bash tests/cli/docs_current.sh FABRICCTL [ROOT]
#
# Checks README.md, docs/**/*.md, schemas/**/*.md and src/**/*.md under ROOT (default: the repository
# root, the current directory); the binary is not used. Text in code (fenced blocks, `inline`) is not a
# statement about the product and is skipped. Each offending line is printed as FAIL: file:line, and the
# test exits 1. Without ROOT it then proves that it can fail: it runs itself on copies of the docs, each
# with one fault added, and on one copy whose only additions are in code, which must pass.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
self=$(realpath "${BASH_SOURCE[0]}")
check_root=${2:-$root}

/usr/bin/python3 - "$check_root" <<'PY' || exit 1
import os, re, sys
root = sys.argv[1]
# The future, stated about the product; word boundaries, a line break may fall between the words.
FUTURE = re.compile(r"\b(?:(?:later|future)\s+releases?|next\s+issues?|planned)\b", re.I)

def markdown_files():
    files = ["README.md"] if os.path.isfile(os.path.join(root, "README.md")) else []
    for top in ("docs", "schemas", "src"):
        for d, dirs, names in os.walk(os.path.join(root, top)):
            dirs.sort()
            files += sorted(os.path.relpath(os.path.join(d, n), root) for n in names if n.endswith(".md"))
    return files

def prose(text):
    """The text with code blanked out (fenced blocks, inline spans); newlines kept for line numbers."""
    out, fence = [], None
    for line in text.split("\n"):
        m = re.match(r"\s*(```|~~~)", line)
        if fence:
            if m and m.group(1) == fence: fence = None
            out.append("")
        elif m:
            fence = m.group(1)
            out.append("")
        else:
            out.append(re.sub(r"(`+)(.+?)\1", lambda c: " " * len(c.group(0)), line))
    return "\n".join(out)

def sentence(line, col):
    """The sentence (or table cell) of `line` around column `col`, at most 200 characters."""
    start = max([line.rfind(sep, 0, col) + len(sep) for sep in (". ", "; ", "| ") if line.rfind(sep, 0, col) >= 0] + [0])
    ends = [i for i in (line.find(sep, col) for sep in (". ", "; ", " |")) if i >= 0]
    text = line[start:min(ends) + 1 if ends else len(line)].strip()
    return text if len(text) <= 200 else text[:197] + "..."

failures = 0
files = markdown_files()
for path in files:
    text = open(os.path.join(root, path), encoding="utf-8").read()
    lines = text.split("\n")
    blanked = prose(text)
    for m in FUTURE.finditer(blanked):
        n = blanked.count("\n", 0, m.start()) + 1
        col = m.start() - (blanked.rfind("\n", 0, m.start()) + 1)
        words = " ".join(m.group(0).split())
        print(f'FAIL: {path}:{n}: "{words}": say what fabricctl does now: {sentence(lines[n - 1], col)}')
        failures += 1

index = os.path.join(root, "docs", "README.md")
if not os.path.isfile(index):
    print("FAIL: docs/README.md: missing (the index of every page under docs/, by reader)")
    sys.exit(1)
text = open(index, encoding="utf-8").read()
links = {}  # target (relative to docs/) -> line
for m in re.finditer(r"\]\(([^)#\s]+)(?:#[^)\s]*)?\)", text):
    links.setdefault(os.path.normpath(m.group(1)), text.count("\n", 0, m.start()) + 1)
for target, n in sorted(links.items(), key=lambda t: t[1]):
    if "://" not in target and not os.path.exists(os.path.join(root, "docs", target)):
        print(f"FAIL: docs/README.md:{n}: links {target}, which does not exist")
        failures += 1
for d, dirs, names in os.walk(os.path.join(root, "docs")):
    dirs.sort()
    for name in sorted(names):
        page = os.path.relpath(os.path.join(d, name), os.path.join(root, "docs"))
        if page != "README.md" and page not in links:
            print(f"FAIL: docs/{page}: not listed in docs/README.md (add a line under its readers)")
            failures += 1

if failures:
    sys.exit(1)
print(f"docs current: {len(files)} Markdown files state no future; docs/README.md lists every page")
PY

[ -n "${2:-}" ] && exit 0

# The self-check: a copy of the docs with one fault must fail, naming its file:line.
copy_docs() {  # DIR: README.md, docs/ and every Markdown file of schemas/ and src/
  mkdir -p "$1"
  cp README.md "$1/"
  cp -R docs "$1/"
  find schemas src -name '*.md' -exec cp --parents {} "$1/" \;
}
expect_fail() {  # NAME WANTED-OUTPUT: the copy $work/NAME fails (exit 1) and prints WANTED-OUTPUT
  local rc=0
  bash "$self" "$bin" "$work/$1" >"$work/$1.out" 2>&1 || rc=$?
  [ "$rc" -eq 1 ] || { cat "$work/$1.out"; fail "self-check $1: exit $rc on a copy with a fault, expected 1"; }
  grep -qF -- "$2" "$work/$1.out" || { cat "$work/$1.out"; fail "self-check $1: the output lacks: $2"; }
}

copy_docs "$work/later"
printf 'Live collection feeds the same engine in a later\nrelease.\n' >>"$work/later/README.md"
expect_fail later "FAIL: README.md:$(($(wc -l <README.md) + 1)): \"later release\""

copy_docs "$work/planned"
echo 'Planned stages (push) extend the same chain.' >>"$work/planned/docs/ARCHITECTURE.md"
expect_fail planned "FAIL: docs/ARCHITECTURE.md:$(($(wc -l <docs/ARCHITECTURE.md) + 1)): \"Planned\""

copy_docs "$work/next"
echo '| Parse, apply | (next issues) collectors |' >>"$work/next/src/platform/linux/README.md"
expect_fail next "FAIL: src/platform/linux/README.md:$(($(wc -l <src/platform/linux/README.md) + 1)): \"next issues\""

copy_docs "$work/unlisted"
printf '# Extra\n\nA page nobody indexed.\n' >"$work/unlisted/docs/extra.md"
expect_fail unlisted "FAIL: docs/extra.md: not listed in docs/README.md"

copy_docs "$work/dead"
echo '| [gone.md](gone.md) | A page that was removed. |' >>"$work/dead/docs/README.md"
expect_fail dead "links gone.md, which does not exist"

# Code is not prose: `planned` as a value, in a span or a block, passes.
copy_docs "$work/code"
printf 'The task registers `planned`.\n\n```yaml\nregister: planned\n```\n' >>"$work/code/docs/fleet.md"
bash "$self" "$bin" "$work/code" >"$work/code.out" 2>&1 || { cat "$work/code.out"; fail "self-check code: a copy with \"planned\" only in code failed"; }

echo "docs current: self-check: 5 faults in copies failed with their file:line, code passed"

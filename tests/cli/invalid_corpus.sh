#!/usr/bin/env bash
# Every case under tests/corpus/invalid/ must make `fabricctl validate` exit 2, print nothing on
# stdout, and print exactly the case's `expected` file on stderr. Every case under
# tests/corpus/valid/ must exit 0 and print exactly its `expected` on stderr (its warnings, or
# nothing) and its `expected_stdout` on stdout (the ok line).
#
# A case overlays the shipped profiles with its own profiles/*.yaml and replaces the inventory with
# its own inventory/ (default: the shipped lab inventory). Run with UPDATE=1 to rewrite `expected`
# (and `expected_stdout`) after an intended message change, then review the diff.
#
# Every case also runs as `validate -o json`: the same exit code, nothing on stderr, and a document
# whose diagnostics, printed the way the text form prints them, are exactly the case's stderr lines
# (tests/tools/validate-json-as-text), valid against schemas/validate.schema.json (tests/tools/check-schemas,
# with Debian's python3-jsonschema; without it, outside CI, that one part is skipped and says so).
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail

failed=0
count=0
invalid=0
# same FILE_A FILE_B: whether the two files hold the same bytes (bash's read: no process per compare;
# diff -u runs only to show a difference).
same() {
  local a b
  IFS= read -r -d '' a <"$1" || true
  IFS= read -r -d '' b <"$2" || true
  [ "$a" == "$b" ]
}
# validate_in DIR OUT ERR [OPTION]...: validate DIR's inventory and profiles from inside DIR (the paths
# in messages are relative), output into DIR/OUT and DIR/ERR, the status in $rc.
validate_in() {
  cd "$1"
  set +e
  "$bin" validate -i inventory -p profiles "${@:4}" >"$2" 2>"$3"
  rc=$?
  set -e
  cd "$root"
}
# run_case DIR WANT_EXIT: what a run costs beside the binary's two is a few processes (the corpus has
# 80 cases): names by parameter expansion, comparisons in bash.
run_case() {
  local case=$1 want=$2 name t rc
  name=${case%/*}
  name=${name##*/}/${case##*/}
  count=$((count + 1))
  t="$work/$name"
  cp -r "$work/base" "$t"
  if [ -d "$case/profiles" ]; then cp "$case"/profiles/*.yaml "$t/profiles/"; fi
  if [ -d "$case/inventory" ]; then cp -r "$case/inventory" "$t/inventory"; else cp -r "$root/inventory/lab" "$t/inventory"; fi
  validate_in "$t" stdout stderr
  if [ "${UPDATE:-}" = 1 ]; then
    cp "$t/stderr" "$case/expected"
    if [ "$want" = 0 ]; then cp "$t/stdout" "$case/expected_stdout"; fi
  fi
  if [ $rc -ne "$want" ]; then
    echo "FAIL $name: exit code $rc, want $want"; cat "$t/stderr"; failed=$((failed + 1)); return
  fi
  if [ "$want" = 0 ]; then
    if ! same "$case/expected_stdout" "$t/stdout"; then
      diff -u "$case/expected_stdout" "$t/stdout" || true
      echo "FAIL $name: stdout differs from expected_stdout"; failed=$((failed + 1)); return
    fi
  elif [ -s "$t/stdout" ]; then
    echo "FAIL $name: unexpected stdout:"; cat "$t/stdout"; failed=$((failed + 1)); return
  fi
  if ! same "$case/expected" "$t/stderr"; then
    diff -u "$case/expected" "$t/stderr" || true
    echo "FAIL $name: stderr differs from expected"; failed=$((failed + 1)); return
  fi
  validate_in "$t" json json.stderr -o json
  if [ $rc -ne "$want" ] || [ -s "$t/json.stderr" ]; then
    echo "FAIL $name: -o json: exit code $rc, want $want; stderr:"; cat "$t/json.stderr"; failed=$((failed + 1)); return
  fi
  compare+=("$t/json" "$want" "$t/stderr")  # compared at the end, in one process
  return 0
}
compare=()

# What every case starts from (the shipped profiles), copied in one process per case.
mkdir "$work/base" "$work/invalid" "$work/valid"
cp -r "$root/profiles" "$work/base/profiles"
# LeakSanitizer checks the first case of each kind (leaks_off, lib/common.sh).
for case in "$root"/tests/corpus/invalid/*/; do
  invalid=$((invalid + 1))
  run_case "${case%/}" 2
  leaks_off
done
leaks_on
for case in "$root"/tests/corpus/valid/*/; do
  [ -d "$case" ] && run_case "${case%/}" 0
  leaks_off
done
# -o json holds the diagnostics the text form prints, for every case that got this far.
/usr/bin/python3 "$root/tests/tools/validate-json-as-text" "${compare[@]}" >"$work/compare.out" ||
  { cat "$work/compare.out"; failed=$((failed + $(grep -c '^FAIL ' "$work/compare.out"))); }
echo "corpus: $((count - failed)) passed, $failed failed"
[ "$invalid" -ge 30 ] || { echo "corpus too small: $invalid invalid cases"; exit 1; }
[ $failed -eq 0 ]

py=/usr/bin/python3  # Debian's interpreter: python3-jsonschema installs for it (scripts/install-deps)
if "$py" -c 'import jsonschema' 2>/dev/null; then
  "$py" "$root/tests/tools/check-schemas" "$root" "$work"/*/*/json >"$work/check.out" \
    || fail "validate -o json against its schema: $(cat "$work/check.out")"
  grep -q " $count validate\b" "$work/check.out" || fail "not every document was checked: $(cat "$work/check.out")"
elif [ "${CI:-}" = true ]; then
  fail "python3-jsonschema is not installed (scripts/install-deps installs it)"
else
  echo "SKIP (part): the documents were not checked against the schema: python3-jsonschema is not installed"
fi

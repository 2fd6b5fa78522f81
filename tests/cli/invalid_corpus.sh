#!/usr/bin/env bash
# Every case under tests/corpus/invalid/ must make `fabricctl validate` exit 2, print nothing on
# stdout, and print exactly the case's `expected` file on stderr.
#
# A case overlays the shipped profiles with its own profiles/*.yaml and replaces the inventory with
# its own inventory/ (default: the shipped lab inventory). Run with UPDATE=1 to rewrite `expected`
# after an intended message change, then review the diff.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail

failed=0
count=0
for case in "$root"/tests/corpus/invalid/*/; do
  name=$(basename "$case")
  count=$((count + 1))
  t="$work/$name"
  mkdir -p "$t"
  cp -r "$root/profiles" "$t/profiles"
  if [ -d "$case/profiles" ]; then cp "$case"/profiles/*.yaml "$t/profiles/"; fi
  if [ -d "$case/inventory" ]; then cp -r "$case/inventory" "$t/inventory"; else cp -r "$root/inventory/lab" "$t/inventory"; fi
  set +e
  (cd "$t" && "$bin" validate -i inventory -p profiles >stdout 2>stderr)
  rc=$?
  set -e
  if [ "${UPDATE:-}" = 1 ]; then cp "$t/stderr" "$case/expected"; fi
  if [ $rc -ne 2 ]; then
    echo "FAIL $name: exit code $rc, want 2"; failed=$((failed + 1)); continue
  fi
  if [ -s "$t/stdout" ]; then
    echo "FAIL $name: unexpected stdout:"; cat "$t/stdout"; failed=$((failed + 1)); continue
  fi
  if ! diff -u "$case/expected" "$t/stderr"; then
    echo "FAIL $name: stderr differs from expected"; failed=$((failed + 1)); continue
  fi
done
echo "invalid corpus: $((count - failed)) passed, $failed failed"
[ "$count" -ge 30 ] || { echo "corpus too small: $count cases"; exit 1; }
[ $failed -eq 0 ]

#!/usr/bin/env bash
# render --check on a committed render: current (exit 0), stale after an intent change or a hand
# edit (exit 1, each file named), an error when OUT is not a render (exit 2); it never writes.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
run() { set +e; "$@"; rc=$?; set -e; }
cp -r inventory/lab "$work/inv"
cp -r profiles "$work/profiles"
r() { "$bin" render -i "$work/inv" -p "$work/profiles" "$@"; }
r --out "$work/out" >/dev/null
run r --out "$work/out" --check >"$work/ok.out"
[ $rc -eq 0 ] || fail "fresh render: exit $rc, want 0: $(cat "$work/ok.out")"
grep -q "is current$" "$work/ok.out" || fail "fresh render: $(cat "$work/ok.out")"

sed -i 's/^  switch: 9100 /  switch: 9200 /' "$work/profiles/roce-lossless.yaml"
grep -q "switch: 9200" "$work/profiles/roce-lossless.yaml" || fail "fixture: no switch MTU 9100 to change"
echo "# by hand" >>"$work/out/leaf2/session.cfg"
before=$(find "$work/out" -printf '%p %s %T@\n' | sort)
run r --out "$work/out" --check >"$work/stale.out" 2>"$work/stale.err"
[ $rc -eq 1 ] || fail "stale render: exit $rc, want 1"
grep -q "^modified  leaf2/session.cfg$" "$work/stale.out" || fail "hand edit not named: $(cat "$work/stale.out")"
grep -q "^modified  leaf1/config_db.json$" "$work/stale.out" || fail "the intent change names no file: $(cat "$work/stale.out")"
grep -q "is stale: .* run fabricctl render --out" "$work/stale.err" || fail "stderr: $(cat "$work/stale.err")"
[ "$(find "$work/out" -printf '%p %s %T@\n' | sort)" = "$before" ] || fail "--check changed OUT"

mkdir "$work/plain"
run r --out "$work/plain" --check 2>"$work/plain.err"
[ $rc -eq 2 ] || fail "not a render: exit $rc, want 2"
grep -q "does not hold a fabricctl render" "$work/plain.err" || fail "not a render: $(cat "$work/plain.err")"
echo "render check: ok"

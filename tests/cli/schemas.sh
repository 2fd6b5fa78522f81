#!/usr/bin/env bash
# Every snapshot, verify report and host NIC state that fabricctl ships or writes validates against the
# published schemas (schemas/*.schema.json), with Debian's python3-jsonschema:
#   - the JSON examples of docs/*.md (marked `<!-- schema: KIND -->`, or found by their "schema"),
#   - every snapshot under tests/snapshots/ and every nic-state.json under tests/golden/,
#   - `snapshot --from-intent` and the rendered nic-state.json of inventory/lab and inventory/rail-optimized,
#   - `verify -o json` of the lab snapshot sets (classic: failures and consequences; good; handwritten;
#     one with a device's snapshot missing: unreadable and missing results),
#   - `validate -o json` of both shipped inventories (the corpus's: tests/cli/invalid_corpus.sh).
# The checker's self-test proves the schemas reject mutated documents, and a bad file here must fail it.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
check="$root/tests/tools/check-schemas"
py=/usr/bin/python3  # Debian's interpreter: python3-jsonschema installs for it (scripts/install-deps)
if ! "$py" -c 'import jsonschema' 2>/dev/null; then
  [ "${CI:-}" = true ] && fail "python3-jsonschema is not installed (scripts/install-deps installs it)"
  echo "SKIP: python3-jsonschema is not installed (run scripts/install-deps)"
  exit 77
fi

"$py" "$check" --self-test "$root" || fail "check-schemas self-test"

files=()
for inv in lab rail-optimized; do
  "$bin" snapshot --from-intent -i "inventory/$inv" --out "$work/snap-$inv" >/dev/null
  "$bin" render -i "inventory/$inv" --out "$work/render-$inv" >/dev/null
  n=$(find "$work/render-$inv" -name nic-state.json | wc -l)
  [ "$n" -ge 2 ] || fail "render $inv: $n nic-state.json files"
  files+=("$work"/snap-"$inv"/*.json)
  mapfile -t -O "${#files[@]}" files < <(find "$work/render-$inv" -name nic-state.json | sort)
done

# verify -o json RC SET: the report of the lab against a snapshot set, with the exit code it must have.
report() {
  local want=$1 set=$2 out="$work/verify-$(basename "$2").json" rc
  set +e
  "$bin" verify -i inventory/lab --snapshots "$set" -o json >"$out" 2>/dev/null
  rc=$?
  set -e
  [ $rc -eq "$want" ] || fail "verify $set: exit $rc, want $want"
  files+=("$out")
}
report 1 tests/snapshots/lab-classic
report 0 tests/snapshots/lab-good
report 0 tests/snapshots/lab-handwritten
cp -r tests/snapshots/lab-good "$work/lab-no-leaf2"
rm "$work/lab-no-leaf2/leaf2.json"
report 3 "$work/lab-no-leaf2"
"$py" -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert "leaf2" in r["summary"]["unreadable"] and r["summary"]["results"]["missing"] > 0, r["summary"]
assert {f["status"] for f in json.load(open(sys.argv[2]))["findings"]} == {"fail", "consequence"}
' "$work/verify-lab-no-leaf2.json" "$work/verify-lab-classic.json" || fail "the reports do not cover every status"

# validate -o json of both shipped inventories (the validation corpus's documents are checked by
# tests/cli/invalid_corpus.sh, which makes them).
mkdir "$work/validate"
for inv in lab rail-optimized; do
  "$bin" validate -i "inventory/$inv" -o json >"$work/validate/$inv.json"
done
files+=("$work"/validate/*.json)

mapfile -t shipped < <(find tests/snapshots -name '*.json' | sort; find tests/golden -name nic-state.json | sort)
[ "${#shipped[@]}" -ge 30 ] || fail "only ${#shipped[@]} shipped documents found"
"$py" "$check" "$root" "${shipped[@]}" "${files[@]}" >"$work/check.out" || fail "$(cat "$work/check.out")"
cat "$work/check.out"
# Every kind was validated, from the docs and from real output.
for kind in " docs snapshot" " docs verify" " docs validate" " nic-state" " snapshot" " verify" " validate"; do
  grep -q "[0-9]$kind\b" "$work/check.out" || fail "no valid$kind document was checked: $(cat "$work/check.out")"
done

# And the wiring can fail: a real report with a finding of an unknown status, a snapshot with a
# string MTU, a NIC state without its nccl object, each named with the file and the JSON pointer.
sed 's/"status": "fail"/"status": "failed"/' "$work/verify-lab-classic.json" >"$work/bad-report.json"
sed '0,/"mtu": 9100/s//"mtu": "9100"/' tests/snapshots/lab-good/leaf1.json >"$work/bad-snapshot.json"
"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["nccl"]; json.dump(d, open(sys.argv[2], "w"))' \
  tests/golden/lab/host1/nic-state.json "$work/bad-nic-state.json"
# expect_bad FILE MESSAGE: the checker fails on FILE and prints MESSAGE.
expect_bad() {
  local out
  if out=$("$py" "$check" "$root" "$1"); then fail "$1 was accepted"; fi
  grep -qF "$2" <<<"$out" || fail "$1: no \"$2\" in: $out"
}
expect_bad "$work/bad-report.json" "/status: 'failed' is not one of"
expect_bad "$work/bad-snapshot.json" "bad-snapshot.json: /ports/Ethernet0/mtu: '9100' is not of type 'integer'"
expect_bad "$work/bad-nic-state.json" "bad-nic-state.json: /: 'nccl' is a required property"
echo "schemas: ok"

#!/usr/bin/env bash
# Strict templates through the command line: a site template that looks up a name the render context
# does not have fails at template:line:col with a suggestion, exit 2, and nothing is written; so does
# one that does not parse.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail

cp -r "$root/templates" "$work/site"
cd "$work"
"$bin" render -i "$root/inventory/lab" -p "$root/profiles" --templates site --out out >/dev/null
before=$(find out -type f -exec sha256sum {} + | sort)

# A typo in the EOS template's "interface {{name}}" line: the tag is at column 11.
line=$(grep -nx 'interface {{name}}' site/eos/session.cfg.mustache | cut -d: -f1)
[ -n "$line" ] || fail "no 'interface {{name}}' line in the EOS template: fix this test"
sed -i "${line}s/{{name}}/{{nme}}/" site/eos/session.cfg.mustache
set +e; "$bin" render -i "$root/inventory/lab" -p "$root/profiles" --templates site --out out >/dev/null 2>err; rc=$?; set -e
[ $rc -eq 2 ] || fail "unknown variable: exit $rc, want 2"
want='site/eos/session.cfg.mustache:'$line':11: unknown variable "nme"; did you mean "name"?
fabricctl: rendering failed; nothing was written'
[ "$(cat err)" = "$want" ] || fail "unknown variable: got
$(cat err)"
[ "$(find out -type f -exec sha256sum {} + | sort)" = "$before" ] || fail "a template error changed the output"

# An inverted section over a name the context does not have is an error too.
cp "$root/templates/eos/session.cfg.mustache" site/eos/
printf '{{^watchdogg}}no watchdog{{/watchdogg}}\n' >>site/eos/session.cfg.mustache
set +e; "$bin" render -i "$root/inventory/lab" -p "$root/profiles" --templates site --out out >/dev/null 2>err; rc=$?; set -e
[ $rc -eq 2 ] || fail "unknown inverted section: exit $rc, want 2"
grep -q '^site/eos/session.cfg.mustache:[0-9]*:1: unknown section "watchdogg"; did you mean "watchdog"?$' err ||
  fail "unknown inverted section: $(cat err)"

# A closing tag that does not match.
cp "$root/templates/nvue/commands.nvue.mustache" site/nvue/
sed -i 's|{{/interfaces}}$|{{/interface}}|' site/nvue/commands.nvue.mustache
set +e; "$bin" render -i "$root/inventory/lab" -p "$root/profiles" --templates site --out out >/dev/null 2>err; rc=$?; set -e
[ $rc -eq 2 ] || fail "mismatched closing tag: exit $rc, want 2"
grep -q '^site/nvue/commands.nvue.mustache:[0-9]*:[0-9]*: closing tag "interface" does not match the open section "interfaces" (opened at [0-9]*:[0-9]*)$' err ||
  fail "mismatched closing tag: $(cat err)"
[ "$(find out -type f -exec sha256sum {} + | sort)" = "$before" ] || fail "a template error changed the output"
echo "strict templates: ok"

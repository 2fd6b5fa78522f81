#!/usr/bin/env bash
# Hostile inputs cost little and end in one located exit-2 error, never a crash, an "internal
# error" (exit 3) or unbounded time and memory. Inputs are generated here, not committed.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
cd "$work"
cp -r "$root/profiles" profiles
cp -r "$root/templates" templates
snapshots="$root/tests/snapshots/lab-classic"

# expect NAME WANT_STDERR_FILE CMD...: exit 2, nothing on stdout, exactly the expected stderr,
# within 20 s of CPU (no memory ulimit: ASan reserves terabytes of address space).
expect() {
  local name=$1 want=$2; shift 2
  set +e
  (ulimit -t 20; "$@" >"$name.out" 2>"$name.err")
  local rc=$?
  set -e
  [ $rc -eq 2 ] || fail "$name: exit $rc, want 2; stderr: $(head -c 300 "$name.err")"
  [ ! -s "$name.out" ] || fail "$name: unexpected stdout"
  diff -u "$want" "$name.err" || fail "$name: stderr differs"
}

# A 26,500-character host key: std::regex_match overflowed the stack on it in validate, render
# and verify.
mkdir inv-key
/usr/bin/python3 - "$root/inventory/lab/fabric.yaml" <<'PY'
import sys
s = open(sys.argv[1]).read()
s = s.replace("mgmt: {address: 192.0.2.11}", 'mgmt: {address: 192.0.2.11, host_key: "ssh-ed25519 ' + "A" * 26500 + '"}')
open("inv-key/fabric.yaml", "w").write(s)
PY
cat >key.want <<EOF2
inv-key/fabric.yaml:29:43: mgmt.host_key: "ssh-ed25519 AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA..." is not a host key ("SHA256:<43 base64 chars>" or "ssh-ed25519 <base64>")
fabricctl: 1 error; nothing was changed
EOF2
expect key-validate key.want "$bin" validate -i inv-key -p profiles
expect key-render key.want "$bin" render -i inv-key -p profiles --out out-key
[ ! -e out-key ] || fail "key-render wrote output"
expect key-verify key.want "$bin" verify -i inv-key -p profiles --snapshots "$snapshots"

# An alias bomb: 400 bytes that expand to 10 million ports.
mkdir inv-bomb
{
  echo 'p0: &p0 {Ethernet0: {speed: 400G}}'
  echo 'l1: &l1 [*p0,*p0,*p0,*p0,*p0,*p0,*p0,*p0,*p0,*p0]'
  for i in 2 3 4 5 6 7; do
    a="*l$((i - 1))"
    echo "l$i: &l$i [$a,$a,$a,$a,$a,$a,$a,$a,$a,$a]"
  done
} >inv-bomb/fabric.yaml
cat >bomb.want <<EOF2
inv-bomb/fabric.yaml:1:21: YAML aliases expand this file to more than 100000 values (the limit is one per byte of the file, at least 100000)
fabricctl: 1 error; nothing was changed
EOF2
expect bomb bomb.want "$bin" validate -i inv-bomb -p profiles

# Deep YAML nesting stops at the depth limit (500, kMaxYamlDepth), at the mapping that would be level
# 501, not in a stack overflow.
/usr/bin/python3 -c 'print("a:\n" + "".join("  " * i + "b:\n" for i in range(1, 5000)))' >deep.yaml
cat >deep.want <<EOF2
deep.yaml:501:1001: invalid YAML: nested more than 500 levels deep
fabricctl: 1 error; nothing was changed
EOF2
expect deep deep.want "$bin" validate -i deep.yaml -p profiles

# A file over 64 MiB (sparse: no disk space used) is refused before it is read.
truncate -s 67108865 big.yaml
cat >big.want <<EOF2
big.yaml: file is 67108865 bytes; the limit is 67108864 bytes (64 MiB) per file: split it into several files
fabricctl: 1 error; nothing was changed
EOF2
expect big big.want "$bin" validate -i big.yaml -p profiles

# Symlink loops in the inventory and profile directories, and as the inventory itself.
mkdir inv-loop
cp "$root/inventory/lab/fabric.yaml" inv-loop/
ln -s self.yaml inv-loop/self.yaml
printf 'inv-loop/self.yaml: cannot read: Too many levels of symbolic links\nfabricctl: 1 error; nothing was changed\n' >loop.want
expect loop loop.want "$bin" validate -i inv-loop -p profiles
ln -s looped looped
printf 'looped: cannot read: Too many levels of symbolic links\nfabricctl: 1 error; nothing was changed\n' >loop2.want
expect loop-top loop2.want "$bin" validate -i looped -p profiles
cp -r profiles profiles-loop
ln -s b.yaml profiles-loop/a.yaml
ln -s a.yaml profiles-loop/b.yaml
printf 'profiles-loop/a.yaml: cannot read: Too many levels of symbolic links\nprofiles-loop/b.yaml: cannot read: Too many levels of symbolic links\nfabricctl: 2 errors; nothing was changed\n' >ploop.want
expect loop-profiles ploop.want "$bin" validate -i "$root/inventory/lab" -p profiles-loop

# Control bytes in a parser message reach the terminal escaped: the bad escape is named, as \x1b.
printf 'a: "\\\033[31m"\n' >ctl.yaml
printf 'ctl.yaml:1:5: invalid YAML: unknown escape character: \\x1b (in double quotes, a backslash starts an escape; write \\\\ for a backslash)\nfabricctl: 1 error; nothing was changed\n' >ctl.want
expect ctl ctl.want "$bin" validate -i ctl.yaml -p profiles

# Control bytes in names the user wrote are escaped wherever the name appears in a message.
mkdir inv-ctl
printf 'devices:\n  "bad\\e[31m":\n    platform: sonic\n    role: switch\n' >inv-ctl/fabric.yaml
cat >ctl-name.want <<'EOF2'
inv-ctl/fabric.yaml:2:3: devices.bad\x1b[31m: no profile (set profile on the device, one of its groups, or defaults)
inv-ctl/fabric.yaml:2:3: devices: "bad\x1b[31m" is not a valid device name (letters, digits, '.', '_', '-'; at most 63)
fabricctl: 2 errors; nothing was changed
EOF2
expect ctl-name ctl-name.want "$bin" validate -i inv-ctl -p profiles

# 20,000 nested template sections overflowed kainjow's recursive parser.
cp -r templates templates-deep
/usr/bin/python3 -c 'n = 20000; open("templates-deep/eos/session.cfg.mustache", "w").write("!\n" + "{{#interfaces}}" * n + "x" + "{{/interfaces}}" * n + "\n")'
printf 'templates-deep/eos/session.cfg.mustache:2:961: sections nested deeper than 64 levels\nfabricctl: rendering failed; nothing was written\n' >tdeep.want
expect template-deep tdeep.want "$bin" render -i "$root/inventory/lab" -p profiles --templates templates-deep --out out-deep
[ ! -e out-deep ] || fail "template-deep wrote output"

# Thousands of links to unknown devices: "did you mean" stays bounded (it was quadratic).
mkdir inv-typos
/usr/bin/python3 - "$root/inventory/lab/fabric.yaml" <<'PY'
import sys
s = open(sys.argv[1]).read()
s = s[:s.index("links:")]
devs = "".join("  h%05d:\n    role: host\n    platform: linux\n    mgmt: {address: 10.0.0.1}\n    ports:\n      eth0: {rdma_device: mlx5_0}\n" % i for i in range(4000))
s = s.replace("devices:\n", "devices:\n" + devs, 1)
s += "links:\n" + "".join("  - {a: x%05d:eth0, b: leaf1:Ethernet0}\n" % i for i in range(20000))
open("inv-typos/fabric.yaml", "w").write(s)
PY
set +e
(ulimit -t 20; "$bin" validate -i inv-typos -p profiles >typos.out 2>typos.err)
rc=$?
set -e
[ $rc -eq 2 ] || fail "typos: exit $rc, want 2"
grep -q 'link.a: unknown device "x00000"; did you mean "h00000"?' typos.err || fail "typos: no suggestion: $(head -3 typos.err)"
# 100,000 unknown keys in one snapshot (a newer collector's, or garbage): skipped, the device is
# still verified (the lab-good set stays clean, exit 0), and stderr stays 21 lines: 20 named with
# their file, path and key, then one line counting the rest (docs/snapshots.md#versions).
cp -r "$root/tests/snapshots/lab-good" stray-keys
/usr/bin/python3 - stray-keys/leaf1.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["ports"]["Ethernet0"].update({"future_%06d" % i: i for i in range(100000)})
s["ports"]["Ethernet8"]["mtuu"] = 9100
json.dump(s, open(sys.argv[1], "w"))
PY
set +e
(ulimit -t 20; "$bin" verify -i "$root/inventory/lab" -p profiles --snapshots stray-keys -o json >stray.out 2>stray.err)
rc=$?
set -e
[ $rc -eq 0 ] || fail "stray keys: exit $rc, want 0: $(head -c 300 stray.err)"
/usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['summary']['devices_checked'] == 5 and r['summary']['results']['fail'] == 0 and r['summary']['results']['missing'] == 0, r['summary']" stray.out ||
  fail "stray keys: leaf1 was not verified in full"
[ "$(wc -l <stray.err)" -eq 21 ] || fail "stray keys: $(wc -l <stray.err) lines on stderr, want 21"
head -1 stray.err | grep -qxF 'fabricctl: warning: stray-keys/leaf1.json: ports.Ethernet0: unknown key "future_000000" ignored' ||
  fail "stray keys: first warning: $(head -1 stray.err)"
tail -1 stray.err | grep -qxF 'fabricctl: warning: ignored 99981 more unknown keys (100001 in 1 snapshot file)' ||
  fail "stray keys: last warning: $(tail -1 stray.err)"

echo "hostile inputs: ok"

#!/usr/bin/env bash
# The Debian package (`make package`, CPack from the install rules): built from the build tree into a
# temporary directory, its contents listed with dpkg-deb -c and its control fields read with
# dpkg-deb -f, then extracted with dpkg-deb -x (nothing is installed system-wide) and the extracted
# binary run on the lab inventory with the profiles and templates it ships.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail

build=$(dirname "$bin")
skip() {
  [ -z "${CI:-}" ] || fail "$1 (CI is set, so this test may not skip)"
  echo "SKIP: $1"; exit 77
}
[ -f "$build/CPackConfig.cmake" ] || skip "$bin is not in a CMake build tree"
command -v dpkg-deb >/dev/null || skip "dpkg-deb is not installed"
unset FABRICCTL_PROFILES FABRICCTL_TEMPLATES

version=$("$bin" --version | awk '{ print $2 }')
arch=$(dpkg --print-architecture)
(cd "$work" && cpack --config "$build/CPackConfig.cmake" -B "$work/pkg" >cpack.log 2>&1) ||
  { cat "$work/cpack.log"; fail "cpack"; }
deb=$work/pkg/fabricctl_${version}_${arch}.deb
[ -f "$deb" ] || fail "no $deb; cpack wrote: $(ls "$work/pkg")"

dpkg-deb -c "$deb" >"$work/listing"
awk '{ print $6 }' "$work/listing" >"$work/contents"
for f in ./usr/bin/fabricctl ./usr/share/fabricctl/profiles/roce-lossless.yaml \
         ./usr/share/fabricctl/profiles/roce-pfc-only.yaml ./usr/share/fabricctl/profiles/roce-nvidia.yaml \
         ./usr/share/fabricctl/templates/eos/session.cfg.mustache ./usr/share/fabricctl/templates/nvue/commands.nvue.mustache \
         ./usr/share/fabricctl/templates/linux/apply.sh.mustache ./usr/share/man/man1/fabricctl.1.gz \
         ./usr/share/bash-completion/completions/fabricctl ./usr/share/doc/fabricctl/README.md; do
  grep -qxF "$f" "$work/contents" || fail "the package lacks $f; it has: $(tr '\n' ' ' <"$work/contents")"
done
! grep -q 'fabricctl.datadir\|_test\|/usr/local' "$work/contents" || fail "the package holds build-tree files"
grep -q '^-rwxr-xr-x .* \./usr/bin/fabricctl$' "$work/listing" || fail "fabricctl is not an executable 0755 file"

[ "$(dpkg-deb -f "$deb" Package)" = fabricctl ] || fail "Package: $(dpkg-deb -f "$deb" Package)"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version: $(dpkg-deb -f "$deb" Version)"
[ "$(dpkg-deb -f "$deb" Architecture)" = "$arch" ] || fail "Architecture: $(dpkg-deb -f "$deb" Architecture)"
[ -n "$(dpkg-deb -f "$deb" Maintainer)" ] || fail "no Maintainer"
depends=$(dpkg-deb -f "$deb" Depends)
# jemalloc only where the binary links it: the sanitizer build brings its own allocator instead.
wanted="libc6 libstdc++6 libfyaml0 libboost-program-options"
if readelf -d "$bin" | grep -q 'NEEDED.*libjemalloc'; then wanted="$wanted libjemalloc2"; fi
for lib in $wanted; do
  case $depends in *"$lib"*) ;; *) fail "Depends lacks $lib: $depends" ;; esac
done

# Extracted, not installed: the binary finds the data directory beside itself (usr/share/fabricctl).
x=$work/root
dpkg-deb -x "$deb" "$x"
cd "$work"
"$x/usr/bin/fabricctl" --version | grep -qE "^fabricctl $version \(([0-9a-f]{12}|unknown)\)$" || fail "extracted --version"
"$x/usr/bin/fabricctl" validate -i "$root/inventory/lab" >out || fail "extracted validate exited $?"
[ "$(cat out)" = "ok: 5 devices, 12 ports, 6 links" ] || fail "extracted validate: $(cat out)"
"$x/usr/bin/fabricctl" render -i "$root/inventory/lab" --out rendered >/dev/null || fail "extracted render exited $?"
diff -r -x .fabricctl-render "$root/tests/golden/lab" rendered >/dev/null || fail "the packaged profiles and templates render differently from the golden files"
zcat "$x/usr/share/man/man1/fabricctl.1.gz" | grep -q "^\.TH FABRICCTL 1 \"\" \"fabricctl $version\"" || fail "man page version"
if command -v man >/dev/null; then
  MANWIDTH=80 man -l "$x/usr/share/man/man1/fabricctl.1.gz" 2>/dev/null | grep -q 'FABRICCTL_PROFILES' || fail "man page does not render"
fi
echo "install deb: ok ($deb)"

#!/usr/bin/env bash
# -o html for verify and health: one self-contained page (no script, nothing fetched) drawn in a real
# headless browser (Debian's chromium): the picture shows the link of an injected fault in red and the
# clean links in green, measured on the screenshot at each link's midpoint; the link leads to its finding.
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"  # strict mode, $bin, $root, $work, fail
"$bin" snapshot --from-intent -i "$root/inventory/lab" --out "$work/snaps" >/dev/null
# The fault: PFC off on leaf1:Ethernet0, host1's first NIC's link.
/usr/bin/python3 - "$work/snaps/leaf1.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["ports"]["Ethernet0"]["pfc_enabled"] = []
json.dump(s, open(sys.argv[1], "w"))
PY
run "$bin" verify -i "$root/inventory/lab" --snapshots "$work/snaps" -o html
[ $rc -eq 1 ] || fail "verify -o html: exit $rc: $(cat "$work/err")"
cp "$work/out" "$work/verify.html"
if grep -Eq '<script|<link |src=|url\(|@import' "$work/verify.html" ||
  grep -o 'https\?://[^"]*' "$work/verify.html" | grep -vqx 'http://www.w3.org/2000/svg'; then
  fail "the page is not self-contained: $(grep -Eo '<script|<link [^>]*|src=[^ ]*|url\([^)]*|https?://[^"]*' "$work/verify.html" | head -3)"
fi
grep -q '<a href="#f1"><line class="link" data-link="host1:ens1f0np0~leaf1:Ethernet0" data-rank="3"' "$work/verify.html" ||
  fail "the faulty link is not drawn as an error leading to its finding: $(grep 'data-link' "$work/verify.html" | head -3)"
grep -q '<tr id="f1" class="error"><td>1</td><td>error</td><td>port.pfc.drift</td>' "$work/verify.html" ||
  fail "finding 1 is not the PFC drift: $(grep '<tr id' "$work/verify.html" | head -2)"

# Drawn by chromium, as a browser shows it; at each link's midpoint its colour.
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/chromium" \
  --window-size=1000,700 --screenshot="$work/verify.png" "file://$work/verify.html" >"$work/chromium.log" 2>&1 ||
  fail "chromium: $(tail -5 "$work/chromium.log")"
/usr/bin/python3 - "$work/verify.html" "$work/verify.png" <<'PY' || fail "the screenshot"
import re, struct, sys, zlib

def pixels(path):
    """An 8-bit, non-interlaced PNG (what chromium writes): rows of (r, g, b) tuples."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, head = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    width, height, depth, colour, _, _, interlace = head
    assert depth == 8 and interlace == 0 and colour in (2, 6), head
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return rows

html = open(sys.argv[1]).read()
img = pixels(sys.argv[2])
links = re.findall(r'data-link="([^"]+)" data-rank="(\d)" x1="(\d+)" y1="(\d+)" x2="(\d+)" y2="(\d+)"', html)
assert len(links) == 6, links
for name, rank, x1, y1, x2, y2 in links:
    x, y = (int(x1) + int(x2)) // 2, (int(y1) + int(y2)) // 2  # the page's SVG starts at its top left
    r, g, b = img[y][x]
    red, green = r > 180 and g < 90 and b < 90, g > 120 and r < 100 and b < 100
    want = "red" if name == "host1:ens1f0np0~leaf1:Ethernet0" else "green"
    assert (red if want == "red" else green), "%s at (%d, %d) is %r, not %s" % (name, x, y, (r, g, b), want)
PY

# health draws the same way: a storm on the same link, red.
"$bin" snapshot --from-intent -i "$root/inventory/lab" --out "$work/first" >/dev/null
cp -r "$work/first" "$work/second"
/usr/bin/python3 - "$work/first" "$work/second" <<'PY'
import glob, json, os, sys
for d, when, storms in ((sys.argv[1], "2026-12-05T12:00:00Z", 0), (sys.argv[2], "2026-12-05T12:01:00Z", 3)):
    for path in glob.glob(os.path.join(d, "*.json")):
        s = json.load(open(path))
        s["collected_at"] = when
        for name, p in s["ports"].items():
            p["counters"] = {"watchdog_storms_3": storms if (s["device"], name) == ("leaf1", "Ethernet0") else 0}
        json.dump(s, open(path, "w"))
PY
run "$bin" health -i "$root/inventory/lab" --since "$work/first" --snapshots "$work/second" -o html
[ $rc -eq 1 ] || fail "health -o html: exit $rc: $(cat "$work/err")"
grep -q 'data-link="host1:ens1f0np0~leaf1:Ethernet0" data-rank="3"' "$work/out" || fail "health: the storm's link is not red"
grep -q '<title>fabricctl health report</title>' "$work/out" || fail "health: the page's title"
# The storm's port has its rate chart (the one window: a bar), and the page stays well-formed with it.
grep -q '<svg class="rates" data-port="leaf1:Ethernet0" data-samples="1"' "$work/out" ||
  fail "health: no rate chart for leaf1:Ethernet0: $(grep -o '<svg class="rates"[^>]*>' "$work/out")"
grep -q 'watchdog_storms_3: up to 0.05/s' "$work/out" || fail "health: the chart's counter: $(grep -o 'up to [^<]*' "$work/out")"
cp "$work/out" "$work/health.html"
xmllint --noout "$work/health.html" || fail "health -o html is not well-formed"
echo "ok html_report"

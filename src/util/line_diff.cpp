#include "util/line_diff.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace fabricctl {

namespace {

struct Line {
  std::string_view text;  // without its LF
  bool newline = true;    // false for a last line without LF
  friend bool operator==(const Line& a, const Line& b) { return a.text == b.text && a.newline == b.newline; }
};

std::vector<Line> split(std::string_view s) {
  std::vector<Line> out;
  size_t start = 0;
  while (start < s.size()) {
    const size_t nl = s.find('\n', start);
    if (nl == std::string_view::npos) {
      out.push_back({s.substr(start), false});
      break;
    }
    out.push_back({s.substr(start, nl - start), true});
    start = nl + 1;
  }
  return out;
}

enum class Op : uint8_t { same, del, ins };

/// Myers' O(ND) shortest edit script between a[0..n) and b[0..m); nothing when D exceeds `max_d`.
bool myers(const Line* a, long n, const Line* b, long m, long max_d, std::vector<Op>& ops) {
  const long max = std::min(n + m, max_d);
  const long offset = max + 1;
  std::vector<long> v(static_cast<size_t>(2 * max + 3), 0);
  std::vector<std::vector<long>> trace;
  auto at = [&](std::vector<long>& vec, long k) -> long& { return vec[static_cast<size_t>(k + offset)]; };
  for (long d = 0; d <= max; ++d) {
    trace.push_back(v);
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && at(v, k - 1) < at(v, k + 1))) ? at(v, k + 1) : at(v, k - 1) + 1;
      long y = x - k;
      while (x < n && y < m && a[x] == b[y]) ++x, ++y;
      at(v, k) = x;
      if (x >= n && y >= m) {
        // Walk the trace back from (n, m) to (0, 0).
        std::vector<Op> rev;
        long cx = n, cy = m;
        for (long e = d; e > 0; --e) {
          std::vector<long>& pv = trace[static_cast<size_t>(e)];
          const long ck = cx - cy;
          const bool down = ck == -e || (ck != e && at(pv, ck - 1) < at(pv, ck + 1));
          const long pk = down ? ck + 1 : ck - 1;
          const long px = at(pv, pk), py = px - pk;
          while (cx > (down ? px : px + 1) && cy > (down ? py + 1 : py)) rev.push_back(Op::same), --cx, --cy;
          rev.push_back(down ? Op::ins : Op::del);
          cx = px, cy = py;
        }
        while (cx > 0 && cy > 0) rev.push_back(Op::same), --cx, --cy;
        ops.insert(ops.end(), rev.rbegin(), rev.rend());
        return true;
      }
    }
  }
  return false;
}

void emit(std::string& out, char tag, const Line& l) {
  out += tag;
  out += l.text;
  out += '\n';
  if (!l.newline) out += "\\ No newline at end of file\n";
}

std::string range(size_t start, size_t count) {
  // diff -u: a hunk of n lines from line l is "l,n"; of one line "l"; of none "l-1,0".
  if (count == 1) return std::to_string(start + 1);
  return std::to_string(count == 0 ? start : start + 1) + "," + std::to_string(count);
}

}  // namespace

std::string unified_diff(std::string_view before, std::string_view after, std::string_view a_name,
                         std::string_view b_name, size_t context, size_t max_edits, DiffStats* stats) {
  if (before == after) return "";
  const std::vector<Line> a = split(before), b = split(after);
  // Common prefix and suffix first: a changed value in a large file is a few lines of Myers.
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre && a[a.size() - 1 - suf] == b[b.size() - 1 - suf]) ++suf;
  std::vector<Op> ops(pre, Op::same);
  const long n = static_cast<long>(a.size() - pre - suf), m = static_cast<long>(b.size() - pre - suf);
  if (!myers(a.data() + pre, n, b.data() + pre, m, static_cast<long>(max_edits), ops)) {
    ops.insert(ops.end(), static_cast<size_t>(n), Op::del);
    ops.insert(ops.end(), static_cast<size_t>(m), Op::ins);
  }
  ops.insert(ops.end(), suf, Op::same);

  std::string out = "--- " + std::string(a_name) + "\n+++ " + std::string(b_name) + "\n";
  size_t i = 0;  // index into ops: everything before it is printed or skipped
  size_t ai = 0, bi = 0;
  while (i < ops.size()) {
    size_t first = i;  // the next change
    while (first < ops.size() && ops[first] == Op::same) ++first;
    if (first == ops.size()) break;
    const size_t start = first - i > context ? first - context : i;
    ai += start - i, bi += start - i;
    // The hunk goes on while the unchanged runs between changes are at most 2 x context lines.
    size_t k = first, end = first;
    while (true) {
      while (k < ops.size() && ops[k] != Op::same) ++k;
      size_t run = k;
      while (run < ops.size() && ops[run] == Op::same) ++run;
      if (run == ops.size() || run - k > 2 * context) {
        end = k + std::min(run - k, context);
        break;
      }
      k = run;
    }
    size_t ca = 0, cb = 0;
    for (size_t x = start; x < end; ++x) {
      if (ops[x] != Op::ins) ++ca;
      if (ops[x] != Op::del) ++cb;
    }
    out += "@@ -" + range(ai, ca) + " +" + range(bi, cb) + " @@\n";
    for (size_t x = start; x < end; ++x) {
      switch (ops[x]) {
        case Op::same:
          emit(out, ' ', a[ai]);
          ++ai, ++bi;
          break;
        case Op::del:
          emit(out, '-', a[ai++]);
          if (stats) ++stats->removed;
          break;
        case Op::ins:
          emit(out, '+', b[bi++]);
          if (stats) ++stats->added;
          break;
      }
    }
    i = end;
  }
  return out;
}

}  // namespace fabricctl

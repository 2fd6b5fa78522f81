#include "acceptance/nccl_tests.h"

#include <algorithm>
#include <vector>

#include "acceptance/report_text.h"
#include "util/diag.h"
#include "util/text.h"

namespace fabricctl::acceptance {
namespace {

constexpr size_t kMaxBytes = size_t{4} << 20;  // -b 8 -e 16G with every rank listed: some 100 kB
constexpr size_t kMaxRanks = 65536;

/// After "# Key : " on a footer line: the value's first word, or nothing when the line is not that key's.
std::optional<std::string_view> footer(std::string_view line, std::string_view key) {
  if (line.rfind('#', 0) != 0) return std::nullopt;
  std::string_view rest = trim(line.substr(1));
  if (rest.rfind(key, 0) != 0) return std::nullopt;
  rest = trim(rest.substr(key.size()));
  if (rest.empty() || rest.front() != ':') return std::nullopt;
  const std::vector<std::string_view> w = words(rest.substr(1));
  return w.empty() ? std::string_view() : w.front();
}

}  // namespace

Expected<CollectiveRun> parse_nccl_tests(std::string_view text) {
  if (text.size() > kMaxBytes) return unexpected("more than 4 MiB: not an nccl-tests report");
  CollectiveRun run;
  std::vector<std::string_view> header;  // the column names, without the leading '#'
  std::vector<size_t> busbw;             // the busbw columns: out of place, in place
  size_t size_col = 0;
  bool have_row = false, have_average = false, have_bounds = false;
  const std::vector<std::string> lines = split_lines(text);
  for (size_t n = 0; n < lines.size(); ++n) {
    const std::string at = "line " + std::to_string(n + 1) + ": ";
    const std::string_view line = trim(lines[n]);
    if (line.empty()) continue;
    if (line.front() == '#') {
      const std::vector<std::string_view> w = words(line.substr(1));
      if (w.size() >= 8 && w[0] == "Rank" && std::find(w.begin(), w.end(), "on") != w.end()) {
        const auto on = std::find(w.begin(), w.end(), "on");
        if (++run.ranks > static_cast<int>(kMaxRanks)) return unexpected(at + "more ranks than fabricctl reads");
        if (on + 1 != w.end()) run.hosts.insert(printable(*(on + 1), 64));
      } else if (!w.empty() && w[0] == "size" && std::count(w.begin(), w.end(), "busbw") > 0) {
        header = w;
        busbw.clear();
        for (size_t i = 0; i < w.size(); ++i)
          if (w[i] == "busbw") busbw.push_back(i);
        size_col = 0;
      } else if (const auto avg = footer(line, "Avg bus bandwidth")) {
        const auto v = decimal(*avg);
        if (!v) return unexpected(at + quote(std::string(avg->substr(0, 40))) + " is not a bandwidth");
        run.average_busbw_gbs = *v;
        have_average = true;
      } else if (const auto bounds = footer(line, "Out of bounds values")) {
        const auto v = parse_u64(*bounds);
        if (!v) return unexpected(at + quote(std::string(bounds->substr(0, 40))) + " is not a count");
        run.out_of_bounds = *v;
        have_bounds = true;
      }
      continue;
    }
    if (header.empty()) continue;  // what mpirun and NCCL print before the table
    const std::vector<std::string_view> w = words(line);
    if (w.size() < header.size()) {
      if (line.front() >= '0' && line.front() <= '9')
        return unexpected(at + "a result row of " + std::to_string(w.size()) + " values under " +
                          std::to_string(header.size()) + " columns: " + quote(std::string(line.substr(0, 120))));
      continue;  // a warning NCCL printed between rows
    }
    const auto size = parse_u64(w[size_col]);
    if (!size) continue;  // not a row
    double best = 0;
    for (const size_t c : busbw) {
      const auto v = decimal(w[c]);
      if (!v) return unexpected(at + quote(std::string(w[c].substr(0, 40))) + " is not a bandwidth");
      best = std::max(best, *v);
    }
    if (*size >= run.largest_bytes) {
      run.largest_bytes = *size;
      run.largest_busbw_gbs = best;
    }
    have_row = true;
  }
  if (!have_row) return unexpected(header.empty() ? "no result table (size ... busbw)" : "a result table without rows");
  if (!have_average || !have_bounds)
    return unexpected("no footer (# Out of bounds values, # Avg bus bandwidth): the run did not finish");
  return run;
}

}  // namespace fabricctl::acceptance

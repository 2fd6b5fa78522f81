#include "acceptance/perftest.h"

#include <vector>

#include "acceptance/report_text.h"
#include "util/diag.h"
#include "util/text.h"

namespace fabricctl::acceptance {
namespace {

constexpr size_t kMaxBytes = size_t{1} << 20;  // a report with -a is some 40 lines

/// The header's column names: split where two or more spaces (or a tab) part them, as perftest's
/// RESULT_FMT lays them out ("BW peak[Gb/sec]" is one name).
std::vector<std::string_view> columns(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const size_t start = i;
    while (i < s.size() && s[i] != '\t' && !(s[i] == ' ' && i + 1 < s.size() && s[i + 1] == ' ')) ++i;
    if (i > start) out.push_back(trim(s.substr(start, i - start)));
  }
  return out;
}

/// A parameter line's parts: perftest prints two "Key : value" pairs to a line, apart by tabs.
std::vector<std::string_view> tab_parts(std::string_view line) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= line.size(); ++i)
    if (i == line.size() || line[i] == '\t') {
      if (i > start) parts.push_back(trim(line.substr(start, i - start)));
      start = i + 1;
    }
  return parts;
}

/// Gb/s per unit of a bandwidth column, by the unit in its brackets: nothing for one it does not know.
std::optional<double> gbps_per(std::string_view column) {
  const size_t open = column.find('[');
  const std::string_view unit = open == std::string_view::npos ? "" : column.substr(open);
  if (unit == "[Gb/sec]") return 1.0;
  if (unit == "[MiB/sec]" || unit == "[MB/sec]") return 1048576.0 * 8 / 1e9;  // format_factor 0x100000
  return std::nullopt;
}

}  // namespace

Expected<BandwidthRun> parse_perftest(std::string_view text) {
  if (text.size() > kMaxBytes) return unexpected("more than 1 MiB: not a perftest report");
  BandwidthRun run;
  std::vector<std::string_view> header;
  size_t bytes_col = 0, peak_col = 0, avg_col = 0;
  double factor = 0;
  bool row = false;
  const std::vector<std::string> lines = split_lines(text);
  for (size_t n = 0; n < lines.size(); ++n) {
    const std::string at = "line " + std::to_string(n + 1) + ": ";
    const std::string_view line = trim(lines[n]);
    if (line.rfind("#bytes", 0) == 0) {
      header = columns(line);
      bool have_peak = false, have_avg = false;
      for (size_t i = 0; i < header.size(); ++i) {
        if (header[i].rfind("BW peak[", 0) == 0) peak_col = i, have_peak = true;
        if (header[i].rfind("BW average[", 0) == 0) avg_col = i, have_avg = true;
      }
      bytes_col = 0;
      const auto f = have_avg ? gbps_per(header[avg_col]) : std::nullopt;
      if (!have_peak || !f || gbps_per(header[peak_col]) != f)
        return unexpected(at + "a result header without BW peak and BW average in Gb/sec or MiB/sec: " +
                          quote(std::string(line.substr(0, 120))));
      factor = *f;
      continue;
    }
    if (header.empty() || line.empty() || line.front() < '0' || line.front() > '9') {
      // The parameters above the table, and the test's name ("RDMA_Write BW Test").
      for (const std::string_view part : tab_parts(line)) {
        const size_t colon = part.find(" :");
        if (colon == std::string_view::npos) {
          if (header.empty() && part.size() > 5 && part.substr(part.size() - 5) == " Test")
            run.test = std::string(part);
          continue;
        }
        const std::string_view key = trim(part.substr(0, colon)), value = trim(part.substr(colon + 2));
        if (key == "Device") run.device = printable(value, 64);
        else if (key == "Link type") run.link_type = printable(value, 32);
        else if (const auto gid = key == "GID index" ? parse_int(value) : std::nullopt; gid && *gid >= 0 && *gid < 256)
          run.gid_index = static_cast<int>(*gid);
      }
      continue;
    }
    const std::vector<std::string_view> w = words(line);
    if (w.size() < header.size())
      return unexpected(at + "a result row of " + std::to_string(w.size()) + " values under " +
                        std::to_string(header.size()) + " columns: " + quote(std::string(line.substr(0, 120))));
    const auto bytes = parse_u64(w[bytes_col]);
    const auto peak = decimal(w[peak_col]), avg = decimal(w[avg_col]);
    if (!bytes) return unexpected(at + quote(std::string(w[bytes_col].substr(0, 40))) + " is not a message size");
    if (!peak || !avg)
      return unexpected(at + quote(std::string((peak ? w[avg_col] : w[peak_col]).substr(0, 40))) +
                        " is not a bandwidth");
    run.message_bytes = *bytes;
    run.peak_gbps = *peak * factor;
    run.average_gbps = *avg * factor;
    row = true;
  }
  if (!row)
    return unexpected(header.empty() ? "no result table (#bytes ... BW average)" : "a result table without rows");
  return run;
}

}  // namespace fabricctl::acceptance

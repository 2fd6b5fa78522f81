#include "platform/linux/ethtool_text.h"

#include <cstdint>
#include <optional>
#include <string>

#include "util/diag.h"
#include "util/text.h"

namespace fabricctl::linux_host {

Expected<std::vector<Statistic>> parse_ethtool_statistics(std::string_view text) {
  std::vector<Statistic> out;
  size_t line_no = 0;
  bool header = false;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    const auto where = [&] { return "line " + std::to_string(line_no) + ": "; };
    if (!header) {
      if (line != "NIC statistics:") return unexpected(where() + quote(line) + " is not ethtool's \"NIC statistics:\"");
      header = true;
      continue;
    }
    const size_t indent = line.find_first_not_of(' ');
    const size_t colon = line.rfind(": ");
    if (indent == 0 || indent == std::string_view::npos || colon == std::string_view::npos || colon <= indent)
      return unexpected(where() + quote(line) + " is not \"     NAME: VALUE\"");
    const std::string_view name = line.substr(indent, colon - indent);
    // ETH_GSTRING_LEN is 32 with the NUL; some kernels end a name with a space, which ethtool prints.
    if (name.size() > 31) return unexpected(where() + "name " + quote(name) + " is longer than 31 bytes");
    if (!printable_ascii(name)) return unexpected(where() + "name " + quote(name) + " is not printable");
    const auto value = parse_u64(line.substr(colon + 2));
    if (!value) return unexpected(where() + quote(line.substr(colon + 2)) + " is not a counter (0-2^64-1)");
    if (out.size() == kMaxStatistics)
      return unexpected(where() + "more than " + std::to_string(kMaxStatistics) + " statistics");
    out.push_back({std::string(name), *value});
  }
  if (!header) return unexpected("line 1: empty; ethtool -S prints \"NIC statistics:\" first");
  return out;
}

}  // namespace fabricctl::linux_host

#include "platform/linux/traffic_class.h"

#include <algorithm>

#include "util/text.h"

namespace fabricctl::linux_host {

Expected<TrafficClassShown> parse_traffic_class(std::string_view shown) {
  TrafficClassShown out;
  constexpr std::string_view kGlobal = "Global tclass=";
  // The per-address keys the driver prints (main_ext.c parse_tree); every rule line ends in "tclass=N".
  constexpr std::string_view kRuleKeys[] = {"src_ip=", "dst_ip=", "src_ip6=", "dst_ip6="};
  size_t line_no = 0;
  for (size_t pos = 0; pos < shown.size();) {
    const size_t eol = std::min(shown.find('\n', pos), shown.size());
    const std::string_view line = shown.substr(pos, eol - pos);
    pos = eol + 1;
    ++line_no;
    if (line.empty()) continue;
    if (line_no == 1 && line.starts_with(kGlobal)) {
      const auto v = parse_int(line.substr(kGlobal.size()));
      if (!v || *v < 0 || *v > 255) return unexpected("line 1: not \"Global tclass=<0-255>\"");
      out.global = static_cast<int>(*v);
      continue;
    }
    bool rule = line.find(",tclass=") != std::string_view::npos;
    bool keyed = false;
    for (const std::string_view k : kRuleKeys) keyed = keyed || line.starts_with(k);
    if (!rule || !keyed)
      return unexpected("line " + std::to_string(line_no) +
                        ": neither \"Global tclass=<0-255>\" nor a per-address rule (\"dst_ip=...,tclass=N\")");
    out.rules.emplace_back(line);
  }
  return out;
}

std::string traffic_class_store(std::optional<int> tos) { return tos ? std::to_string(*tos) : "-1"; }

}  // namespace fabricctl::linux_host

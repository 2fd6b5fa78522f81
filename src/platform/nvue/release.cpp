#include "platform/nvue/release.h"

#include <nlohmann/json.hpp>

#include "util/diag.h"
#include "util/text.h"

namespace fabricctl::nvue {

// Newest first: a release fabricctl does not know yet ("5.16") is offered the newest syntax it knows.
std::vector<std::string_view> release_names() {
  return {"5.15", "5.14", "5.13", "5.12", "5.11", "5.10", "5.9", "5.8", "5.7", "5.6"};
}

Expected<Release> parse_release(std::string_view text) {
  const std::string bad = "not a Cumulus Linux release: \"" + printable(std::string(text.substr(0, 64)), 64) + "\"";
  std::string_view rest = text;
  if (constexpr std::string_view kName = "Cumulus Linux "; rest.substr(0, kName.size()) == kName)
    rest.remove_prefix(kName.size());
  // MAJOR.MINOR[.PATCH], each 1-3 digits.
  std::vector<int> parts;
  while (!rest.empty() && parts.size() < 4) {
    const size_t dot = rest.find('.');
    const std::string_view part = rest.substr(0, dot);
    const auto n = parse_int(part);
    if (part.empty() || part.size() > 3 || part.find_first_not_of("0123456789") != std::string_view::npos || !n)
      return unexpected(bad);
    parts.push_back(static_cast<int>(*n));
    if (dot == std::string_view::npos) break;
    rest.remove_prefix(dot + 1);
    if (rest.empty()) return unexpected(bad);
  }
  if (parts.size() < 2 || parts.size() > 3) return unexpected(bad);
  return Release{parts[0], parts[1]};
}

Expected<Release> inventory_release(const std::string& nos_release) {
  return nos_release.empty() ? Expected<Release>(kDefaultRelease) : parse_release(nos_release);
}

Expected<std::optional<Release>> config_release(std::string_view config_json) {
  using nlohmann::json;
  // Only the top of the document matters here: deeper values are dropped, not recursed into.
  const json::parser_callback_t shallow = [](int depth, json::parse_event_t, json&) { return depth <= 3; };
  const json doc = json::parse(config_json, shallow, false);
  if (doc.is_discarded()) return unexpected("nv config show: not JSON");
  if (!doc.is_array()) return std::optional<Release>();
  for (const json& e : doc) {
    if (!e.is_object() || !e.contains("header") || !e["header"].is_object()) continue;
    const auto v = e["header"].find("version");
    if (v == e["header"].end()) return std::optional<Release>();
    if (!v->is_string()) return unexpected("nv config show: header.version is not a string");
    auto r = parse_release(v->get_ref<const std::string&>());
    if (!r) return unexpected("nv config show: header.version: " + r.error());
    return std::optional<Release>(*r);
  }
  return std::optional<Release>();
}

std::string release_mismatch(const Release& stated, bool stated_by_inventory, const Release& reported) {
  if (stated.state_forms() == reported.state_forms()) return {};
  return "the switch runs Cumulus Linux " + reported.text() + ", whose NVUE syntax differs from release " +
         stated.text() + (stated_by_inventory ? " (the inventory's nvue.release)" : " (the default: no nvue.release)") +
         ": set nvue.release: \"" + reported.text() + "\" in the inventory";
}

}  // namespace fabricctl::nvue

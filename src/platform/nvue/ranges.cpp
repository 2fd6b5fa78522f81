// NVUE range keys (ranges.h): parsed by hand, strictly, with a bound on what one key may name.
#include "platform/nvue/ranges.h"

#include <algorithm>
#include <cstdint>

#include "util/diag.h"
#include "util/text.h"

namespace fabricctl::nvue {
namespace {

using nlohmann::json;

constexpr size_t kMaxDigits = 6;

bool digit(char c) { return c >= '0' && c <= '9'; }

/// The range PREFIX<N>-<M> of `item`: false when `item` is not of that form (then it is a name).
bool split_range(std::string_view item, std::string_view& prefix, std::string_view& first, std::string_view& last) {
  const size_t dash = item.rfind('-');
  if (dash == std::string_view::npos || dash + 1 == item.size()) return false;
  last = item.substr(dash + 1);
  if (!std::all_of(last.begin(), last.end(), digit)) return false;
  size_t start = dash;
  while (start > 0 && digit(item[start - 1])) --start;
  if (start == dash) return false;
  first = item.substr(start, dash - start);
  prefix = item.substr(0, start);
  return true;
}

std::string quoted(std::string_view key) { return "\"" + printable(std::string(key.substr(0, 64)), 64) + "\""; }

}  // namespace

bool is_range_key(std::string_view key) {
  if (key.find(',') != std::string_view::npos) return true;
  std::string_view prefix, first, last;
  return split_range(key, prefix, first, last);
}

Expected<std::vector<std::string>> expand_key(std::string_view key) {
  std::vector<std::string> out;
  size_t begin = 0;
  while (begin <= key.size()) {
    const size_t comma = std::min(key.find(',', begin), key.size());
    const std::string_view item = key.substr(begin, comma - begin);
    begin = comma + 1;
    if (item.empty()) return unexpected("range " + quoted(key) + ": an empty item");
    std::string_view prefix, first, last;
    if (!split_range(item, prefix, first, last)) {
      out.emplace_back(item);
    } else {
      for (const std::string_view n : {first, last})
        if (n.size() > kMaxDigits || (n.size() > 1 && n[0] == '0'))
          return unexpected("range " + quoted(key) + ": \"" + std::string(n) + "\" is not a plain number");
      const int64_t lo = *parse_int(first), hi = *parse_int(last);
      if (lo > hi) return unexpected("range " + quoted(key) + " runs backwards");
      if (static_cast<uint64_t>(hi - lo) >= kMaxRangeMembers)
        return unexpected("range " + quoted(key) + " names more than " + std::to_string(kMaxRangeMembers) + " objects");
      for (int64_t n = lo; n <= hi; ++n) out.push_back(std::string(prefix) + std::to_string(n));
    }
    if (out.size() > kMaxRangeMembers)
      return unexpected("range " + quoted(key) + " names more than " + std::to_string(kMaxRangeMembers) + " objects");
  }
  return out;
}

namespace {

/// `into` with `from` merged in, key by key (an object's members recursively, anything else replaced).
void merge(json& into, const json& from) {
  if (!into.is_object() || !from.is_object()) {
    into = from;
    return;
  }
  for (const auto& [k, v] : from.items()) merge(into[k], v);
}

/// The values in `v`, itself included: what one more copy of it costs.
size_t nodes(const json& v) {
  size_t n = 1;
  if (v.is_structured())
    for (const json& c : v) n += nodes(c);
  return n;
}

/// The object `obj` with its range keys expanded: range keys first, then the single ones. `budget` is
/// how many more values the copies may hold: a key naming 4096 ports copies its subtree 4096 times, so a
/// hostile tree is bounded by what the copies hold, not only by how many ports it names.
Expected<json> expand_object(const json& obj, size_t& budget) {
  json out = json::object();
  for (const bool ranges : {true, false})
    for (const auto& [key, value] : obj.items()) {
      if (is_range_key(key) != ranges) continue;
      auto members = expand_key(key);
      if (!members) return unexpected(members.error());
      const size_t cost = members->size() * nodes(value);
      if (cost > budget) return unexpected("ranges name more settings than fabricctl reads from one switch");
      budget -= cost;
      for (const std::string& m : *members) merge(out[m], value);
    }
  return out;
}

bool index_collection(std::string_view key) {
  return key == "dscp" || key == "pcp" || key == "switch-priority" || key == "traffic-class";
}

/// The index collections under `node` (a part of the qos tree), expanded in place.
Expected<void> expand_qos(json& node, size_t& budget, int depth) {
  if (!node.is_object() || depth > 8) return {};
  for (auto& [key, value] : node.items()) {
    if (index_collection(key) && value.is_object()) {
      auto expanded = expand_object(value, budget);
      if (!expanded) return unexpected(expanded.error());
      value = std::move(*expanded);
    }
    if (auto r = expand_qos(value, budget, depth + 1); !r) return r;
  }
  return {};
}

}  // namespace

Expected<json> expand_ranges(const json& tree) {
  json out = tree;
  if (!out.is_object()) return out;
  // What the expanded copies may hold in all: some 40 values a port at 16 times the most ports one key
  // names, far above any switch's configuration (a 512-port switch holds a few thousand here).
  size_t budget = size_t{640} * kMaxRangeMembers;
  if (const auto it = out.find("interface"); it != out.end() && it->is_object()) {
    auto expanded = expand_object(*it, budget);
    if (!expanded) return unexpected("nv config show: interface: " + expanded.error());
    *it = std::move(*expanded);
  }
  if (const auto it = out.find("qos"); it != out.end())
    if (auto r = expand_qos(*it, budget, 0); !r) return unexpected("nv config show: qos: " + r.error());
  return out;
}

}  // namespace fabricctl::nvue

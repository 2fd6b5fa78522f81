// How the difference is found (docs/transactions-nxos.md):
// - Blocks are matched by their line, children by theirs, spacing aside: NX-OS prints what it was given.
// - A desired line running lacks is sent. A single-valued setting (a port's `mtu`, `priority-flow-control
//   mode`, a class's `bandwidth remaining percent`) is replaced by sending its new value, so it needs no
//   `no` line; NX-OS omits one default, a port's `mtu 1500`, which is satisfied by no line.
// - Inside what fabricctl owns (its FABRICCTL-* class maps and policies), a line running has and the
//   intent does not is removed with `no <line>` (UNCONFIRMED: NX-OS's `no` form of every such line, an
//   acceptance check). Lines of a port or of `system qos` that fabricctl does not set are never touched.
// - A FABRICCTL-* class map the intent no longer has is removed last, once its policy no longer names it.
#include "platform/nxos/change.h"

#include <algorithm>
#include <string_view>

namespace fabricctl::nxos {
namespace {

bool owned(std::string_view line) {
  for (std::string_view prefix : {"class-map type qos match-any ", "class-map type qos match-all ",
                                  "policy-map type qos ", "policy-map type network-qos ", "policy-map type queuing "}) {
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size()).rfind("FABRICCTL-", 0) == 0;
  }
  return false;
}

/// Lines NX-OS does not print because they state its default, under a block of the given line.
bool omitted_default(std::string_view parent, std::string_view line) {
  return parent.rfind("interface ", 0) == 0 && line == "mtu 1500";
}

const ConfigBlock* find(const std::vector<ConfigBlock>& blocks, std::string_view line) {
  for (const ConfigBlock& b : blocks)
    if (b.line == line) return &b;
  return nullptr;
}

/// What a line sets, for telling a new value of a setting from a second setting: `bandwidth remaining
/// percent 50` replaces `... 40`, and `priority level 1` replaces the class's bandwidth; a `match` line
/// is one of a list, each its own.
std::string_view setting_of(std::string_view line) {
  for (std::string_view whole : {"priority", "bandwidth"})
    if (line.rfind(whole, 0) == 0) return "scheduling";
  if (line.rfind("match ", 0) == 0) return line;
  const size_t space = line.find(' ');
  if (line.rfind("random-detect", 0) == 0 || line.rfind("pause ", 0) == 0) return line.substr(0, space);
  const size_t last = line.rfind(' ');
  return last == std::string_view::npos ? line : line.substr(0, last);
}

/// What makes `have`'s children hold `want`'s, under a block that is (or is inside) fabricctl's own:
/// first what is removed, then what is added, so that a class never holds both its old and new
/// scheduling.
std::vector<ConfigBlock> children_difference(const ConfigBlock& want, const ConfigBlock* have, bool own) {
  std::vector<ConfigBlock> out;
  if (own && have)
    for (const ConfigBlock& h : have->children) {
      if (find(want.children, h.line) != nullptr) continue;
      const bool replaced = std::any_of(want.children.begin(), want.children.end(), [&](const ConfigBlock& w) {
        return w.children.empty() && h.children.empty() && setting_of(w.line) == setting_of(h.line);
      });
      if (!replaced) out.push_back({"no " + h.line, {}});
    }
  for (const ConfigBlock& w : want.children) {
    const ConfigBlock* h = have ? find(have->children, w.line) : nullptr;
    if (h == nullptr && omitted_default(want.line, w.line)) continue;
    if (w.children.empty()) {
      if (h == nullptr) out.push_back({w.line, {}});
      continue;
    }
    std::vector<ConfigBlock> sub = children_difference(w, h, own);
    if (h == nullptr || !sub.empty()) out.push_back({w.line, std::move(sub)});
  }
  return out;
}

}  // namespace

Config difference(const Config& desired, const Config& running) {
  Config out;
  for (const ConfigBlock& want : desired) {
    const ConfigBlock* have = find(running, want.line);
    if (want.children.empty()) {
      if (have == nullptr) out.push_back({want.line, {}});
      continue;
    }
    std::vector<ConfigBlock> sub = children_difference(want, have, owned(want.line));
    if (have == nullptr || !sub.empty()) out.push_back({want.line, std::move(sub)});
  }
  // fabricctl's class maps the intent no longer has: after the policies that named them have changed.
  for (const ConfigBlock& have : running)
    if (owned(have.line) && have.line.rfind("class-map ", 0) == 0 && find(desired, have.line) == nullptr)
      out.push_back({"no " + have.line, {}});
  return out;
}

namespace {
void exec_block(const ConfigBlock& b, std::vector<std::string>& out) {
  out.push_back(b.line);
  for (const ConfigBlock& c : b.children) exec_block(c, out);
  if (!b.children.empty()) out.emplace_back("exit");
}
}  // namespace

std::string exec_lines(const Config& change) {
  std::vector<std::string> lines{"configure terminal"};
  for (const ConfigBlock& b : change) exec_block(b, lines);
  lines.emplace_back("end");
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : " ; ") + l;
  return out;
}

std::string canonical(const Config& running) {
  Config sorted = running;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const ConfigBlock& a, const ConfigBlock& b) { return a.line < b.line; });
  return config_text(sorted);
}

}  // namespace fabricctl::nxos

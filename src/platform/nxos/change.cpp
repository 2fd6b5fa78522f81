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
#include <utility>

namespace fabricctl::nxos {
namespace {

bool owned(std::string_view line) {
  for (std::string_view prefix : {"class-map type qos match-any ", "class-map type qos match-all ",
                                  "policy-map type qos ", "policy-map type network-qos ", "policy-map type queuing "}) {
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size()).rfind("FABRICCTL-", 0) == 0;
  }
  return false;
}

/// Lines NX-OS does not print because they state its default, under a block of the given line: satisfied
/// when the block has no line for that setting at all.
bool omitted_default(std::string_view parent, std::string_view line, const ConfigBlock* have);

/// A class map's line as running may print it: NX-OS takes `match-all` as `match-any` on Nexus 9000
/// ("the match-all option ... yields the same results as match-any", Cisco's QoS guide 7.x, p.71), so the
/// two lines name one class map.
std::string other_match(std::string_view line) {
  for (const auto& [a, b] :
       {std::pair<std::string_view, std::string_view>{"class-map type qos match-any ", "class-map type qos match-all "},
        {"class-map type qos match-all ", "class-map type qos match-any "}})
    if (line.rfind(a, 0) == 0) return std::string(b) + std::string(line.substr(a.size()));
  return {};
}

const ConfigBlock* find(const std::vector<ConfigBlock>& blocks, std::string_view line) {
  for (const ConfigBlock& b : blocks)
    if (b.line == line) return &b;
  return nullptr;
}

/// The block of `line` at the top level, a class map under either of its match words.
const ConfigBlock* find_top(const Config& blocks, std::string_view line) {
  if (const ConfigBlock* b = find(blocks, line)) return b;
  const std::string other = other_match(line);
  return other.empty() ? nullptr : find(blocks, other);
}

/// What a line sets, for telling a new value of a setting from a second setting: `bandwidth remaining
/// percent 50` replaces `... 40`; `priority level 1` and a bandwidth are two settings, so a queue that
/// turns strict loses its bandwidth by a `no` line first (and the other way round); a `match` line is
/// one of a list, each its own.
std::string_view setting_of(std::string_view line) {
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
    if (h == nullptr && omitted_default(want.line, w.line, have)) continue;
    if (w.children.empty()) {
      if (h == nullptr) out.push_back({w.line, {}});
      continue;
    }
    std::vector<ConfigBlock> sub = children_difference(w, h, own);
    if (h == nullptr || !sub.empty()) out.push_back({w.line, std::move(sub)});
  }
  return out;
}

bool omitted_default(std::string_view parent, std::string_view line, const ConfigBlock* have) {
  if (parent.rfind("interface ", 0) != 0 || line != "mtu 1500") return false;
  if (have == nullptr) return true;
  return std::none_of(have->children.begin(), have->children.end(),
                      [](const ConfigBlock& c) { return c.line.rfind("mtu ", 0) == 0; });
}

}  // namespace

Config difference(const Config& desired, const Config& running) {
  Config out;
  for (const ConfigBlock& want : desired) {
    const ConfigBlock* have = find_top(running, want.line);
    if (want.children.empty()) {
      if (have == nullptr) out.push_back({want.line, {}});
      continue;
    }
    std::vector<ConfigBlock> sub = children_difference(want, have, owned(want.line));
    if (have == nullptr || !sub.empty()) out.push_back({want.line, std::move(sub)});
  }
  // fabricctl's class maps the intent no longer has: after the policies that named them have changed.
  for (const ConfigBlock& have : running)
    if (owned(have.line) && have.line.rfind("class-map ", 0) == 0 && find_top(desired, have.line) == nullptr)
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

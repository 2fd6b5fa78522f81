// The table report, for people at a terminal: failures grouped by what they are about (links first,
// then ports and devices), missing data summarized per check, unreadable devices listed, one summary
// line. Text that came from devices (names, LLDP, messages that quote device output) is stripped of
// control characters so it can neither break the layout nor send escape sequences to the terminal.
#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "report/report.h"
#include "util/escape.h"
#include "util/text.h"

namespace fabricctl {

namespace {

constexpr std::string_view kRed = "\x1b[31m";
constexpr std::string_view kYellow = "\x1b[33m";
constexpr std::string_view kDim = "\x1b[2m";
constexpr std::string_view kReset = "\x1b[0m";
constexpr size_t kSeverityWidth = 7;  // "warning"

/// One line of plain text (util/escape.h): tab, CR and LF become spaces; other controls are dropped.
std::string one_line(std::string_view s) { return terminal_line(s); }

std::string rtrim(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string count(size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

class Painter {
 public:
  explicit Painter(bool color) : color_(color) {}
  [[nodiscard]] std::string paint(std::string_view code, std::string_view text) const {
    if (!color_ || text.empty()) return std::string(text);
    return std::string(code) + std::string(text) + std::string(kReset);
  }
  [[nodiscard]] std::string severity(Severity s) const {
    const std::string_view name = to_string(s);
    const std::string pad(kSeverityWidth - name.size(), ' ');
    switch (s) {
      case Severity::error: return paint(kRed, name) + pad;
      case Severity::warning: return paint(kYellow, name) + pad;
      case Severity::info: break;
    }
    return std::string(name) + pad;
  }

 private:
  bool color_;
};

/// Natural order of endpoints, so that leaf1:Ethernet2 comes before leaf1:Ethernet10.
bool endpoint_less(const Endpoint& x, const Endpoint& y) {
  if (x.device != y.device) return natural_less(x.device, y.device);
  return natural_less(x.port, y.port);
}

/// A group of failures about one object: a link (a, b) or a port or device (a only).
struct Group {
  Endpoint a;
  std::optional<Endpoint> b;
  std::vector<const Result*> rows;
};

bool group_less(const Group& x, const Group& y) {
  if (x.b.has_value() != y.b.has_value()) return x.b.has_value();  // links first
  if (!(x.a == y.a)) return endpoint_less(x.a, y.a);
  if (x.b && y.b) return endpoint_less(*x.b, *y.b);
  return false;
}

/// What a result is grouped under: its link when it has one (a port finding on a cabled port sits with
/// the link's other findings), else its own object.
std::pair<Endpoint, std::optional<Endpoint>> group_of(const Result& res) {
  if (res.link) return {res.link->a, res.link->b};
  return {res.a, res.b};
}

/// Identifies a group unambiguously (each part length-prefixed).
std::string group_key(const std::pair<Endpoint, std::optional<Endpoint>>& g) {
  std::string key;
  auto add = [&key](const std::string& part) { key += std::to_string(part.size()) + ':' + part; };
  add(g.first.device);
  add(g.first.port);
  if (g.second) {
    add(g.second->device);
    add(g.second->port);
  }
  return key;
}

std::string header(const Group& g) {
  std::string h = one_line(g.a.str());
  if (g.b) h += " <-> " + one_line(g.b->str());
  return h;
}

}  // namespace

std::string report_table(const VerifyReport& r, bool color) {
  const Painter paint(color);
  std::string out;
  auto line = [&out](const std::string& text) { out += rtrim(text) + "\n"; };

  // Failures, grouped by object; the groups in natural order, errors first inside a group.
  std::vector<Group> groups;
  std::unordered_map<std::string, size_t> group_index;  // linear in results, not quadratic
  size_t check_width = 0;
  const ReportTally t = tally(r);
  std::vector<std::pair<std::string, size_t>> missing_by_check;  // first-appearance order
  for (const Result& res : r.results) {
    if (res.status == Status::pass) continue;
    if (res.status == Status::missing) {
      const std::string id = one_line(res.check);
      auto it = std::find_if(missing_by_check.begin(), missing_by_check.end(),
                             [&id](const auto& e) { return e.first == id; });
      if (it == missing_by_check.end()) missing_by_check.emplace_back(id, 1);
      else ++it->second;
      continue;
    }
    check_width = std::max(check_width, one_line(res.check).size());
    auto g = group_of(res);
    auto [slot, added] = group_index.try_emplace(group_key(g), groups.size());
    if (added) groups.push_back(Group{std::move(g.first), std::move(g.second), {}});
    groups[slot->second].rows.push_back(&res);
  }
  std::stable_sort(groups.begin(), groups.end(), group_less);

  const std::string detail_indent(2 + kSeverityWidth + 2, ' ');
  for (Group& g : groups) {
    // Faults first (errors before warnings), then the consequences they explain.
    std::stable_sort(g.rows.begin(), g.rows.end(), [](const Result* x, const Result* y) {
      const bool xc = x->status == Status::consequence, yc = y->status == Status::consequence;
      if (xc != yc) return yc;
      return x->severity > y->severity;
    });
    line(header(g));
    for (const Result* res : g.rows) {
      std::string id = one_line(res->check);
      id.resize(check_width, ' ');
      if (res->status == Status::consequence) {
        std::string label = "caused";
        label.resize(kSeverityWidth, ' ');
        line("  " + paint.paint(kDim, label + "  " + id + "  " + one_line(res->message)));
        line(detail_indent + paint.paint(kDim, "by " + one_line(res->cause)));
        continue;
      }
      line("  " + paint.severity(res->severity) + "  " + id + "  " + one_line(res->message));
      std::string seen;
      if (!res->expected.empty()) seen = "expected: " + one_line(res->expected);
      if (!res->observed.empty())
        seen += (seen.empty() ? "" : " / ") + std::string("observed: ") + one_line(res->observed);
      if (!seen.empty()) line(detail_indent + seen);
      // A fix is commands, one per line: each keeps its own line so it can be copied and pasted.
      if (!res->hint.empty()) {
        std::string prefix = "fix: ";
        size_t start = 0;
        while (start <= res->hint.size()) {
          const size_t end = std::min(res->hint.find('\n', start), res->hint.size());
          line(detail_indent + prefix + one_line(std::string_view(res->hint).substr(start, end - start)));
          prefix = "     ";
          start = end + 1;
        }
      }
    }
    line("");
  }
  if (groups.empty()) {
    line(t.missing > 0 || !r.unreadable.empty()
             ? "no failures among what could be compared (some state is missing, below)"
             : "no findings");
    line("");
  }

  if (!missing_by_check.empty()) {
    std::string required;
    if (r.incomplete > 0 && r.incomplete < t.missing)
      required = ", " + std::to_string(r.incomplete) + " of them for lack of required state";
    else if (r.incomplete > 0) required = ", all for lack of required state";
    line(paint.paint(kDim,
                     "missing data: " + count(t.missing, "result", "results") + " could not be compared" + required));
    size_t width = 0;
    for (const auto& [id, n] : missing_by_check) width = std::max(width, id.size());
    for (const auto& [id, n] : missing_by_check) {
      std::string padded = id;
      padded.resize(width, ' ');
      line("  " + paint.paint(kDim, padded + "  " + std::to_string(n)));
    }
  }
  if (!r.unreadable.empty()) {
    line(paint.paint(kDim, "unreadable devices: " + std::to_string(r.unreadable.size())));
    size_t width = 0;
    for (const auto& [device, why] : r.unreadable) width = std::max(width, one_line(device).size());
    for (const auto& [device, why] : r.unreadable) {
      std::string padded = one_line(device);
      padded.resize(width, ' ');
      line("  " + paint.paint(kDim, rtrim(padded + "  " + one_line(why))));
    }
  }
  if (!missing_by_check.empty() || !r.unreadable.empty()) line("");

  line(count(t.errors, "error", "errors") + ", " + count(t.warnings, "warning", "warnings") + ", " +
       std::to_string(t.infos) + " info" +
       (t.consequence ? " (+" + std::to_string(t.consequence) + " caused by them)" : std::string()) + "; " +
       count(t.pass, "check passed", "checks passed") + ", " + std::to_string(t.missing) + " missing data" +
       (t.not_applicable ? ", " + std::to_string(t.not_applicable) + " not applicable" : std::string()) + "; " +
       count(r.devices_checked, "device", "devices") + ", " + count(r.links_checked, "link", "links") + " checked");
  if (r.hidden_warnings + r.hidden_infos > 0)
    line(paint.paint(kDim, "hidden by --severity " + std::string(to_string(r.min_severity)) + ": " +
                               count(r.hidden_warnings, "warning", "warnings") + ", " + std::to_string(r.hidden_infos) +
                               " info"));
  return out;
}

}  // namespace fabricctl

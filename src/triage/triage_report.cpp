#include "triage/triage_report.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "util/escape.h"

namespace fabricctl {

namespace {

/// Each line of `text` (device output reaches hints and messages) made safe for a terminal, indented.
void lines(std::ostream& out, std::string_view indent, std::string_view text) {
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    out << indent << terminal_line(text.substr(0, nl)) << "\n";
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
  }
}

std::string plural(size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

}  // namespace

void write_triage_table(const TriageReport& r, std::ostream& out) {
  out << "Triage of " << plural(r.devices, "device", "devices") << ": "
      << (r.suspects.empty() ? "no suspect" : plural(r.suspects.size(), "suspect", "suspects") + ", most likely first")
      << "\n";
  size_t rank = 0;
  for (const Suspect& s : r.suspects) {
    out << "\n"
        << ++rank << ". " << terminal_line(s.place) << "  [" << to_string(s.layer) << ", " << to_string(s.severity)
        << "]\n";
    for (const Result& e : s.evidence) {
      const bool consequence = e.status == Status::consequence;
      out << "   " << (consequence ? "+ " : "- ") << terminal_line(e.check) << ": " << terminal_line(e.message)
          << (consequence ? " (a consequence)" : "") << "\n";
      if (!e.observed.empty()) out << "       seen: " << terminal_line(e.observed) << "\n";
      if (!consequence) lines(out, "       do: ", e.hint);
    }
  }
  out << "\nLayers, walked in order:\n";
  for (const LayerSummary& l : r.layers) {
    out << "  " << to_string(l.layer) << std::string(12 - to_string(l.layer).size(), ' ')
        << (l.checks == 0     ? std::string("not checked")
            : l.findings == 0 ? "ruled out: " + plural(l.passed, "result", "results") + " of " +
                                    plural(l.checks, "check", "checks") + " passed"
                              : plural(l.findings, "finding", "findings") + ", " + std::to_string(l.passed) + " passed")
        << "\n";
  }
  for (const auto& [device, why] : r.unreadable)
    out << "not read: " << terminal_line(device) << ": " << terminal_line(why) << "\n";
}

void write_triage_json(const TriageReport& r, std::ostream& out) {
  nlohmann::ordered_json j;
  j["format"] = "fabricctl.triage/v1";
  j["devices"] = r.devices;
  j["suspects"] = nlohmann::ordered_json::array();
  size_t rank = 0;
  for (const Suspect& s : r.suspects) {
    nlohmann::ordered_json e = nlohmann::ordered_json::array();
    for (const Result& x : s.evidence) {
      nlohmann::ordered_json f;
      f["check"] = x.check;
      f["status"] = to_string(x.status);
      f["severity"] = to_string(x.severity);
      f["object"] = x.object();
      f["message"] = x.message;
      f["expected"] = x.expected;
      f["observed"] = x.observed;
      if (!x.hint.empty()) f["hint"] = x.hint;
      if (!x.cause.empty()) f["cause"] = x.cause;
      e.push_back(std::move(f));
    }
    j["suspects"].push_back({{"rank", ++rank},
                             {"place", s.place},
                             {"layer", to_string(s.layer)},
                             {"severity", to_string(s.severity)},
                             {"evidence", std::move(e)}});
  }
  j["layers"] = nlohmann::ordered_json::array();
  for (const LayerSummary& l : r.layers)
    j["layers"].push_back(
        {{"layer", to_string(l.layer)}, {"checks", l.checks}, {"passed", l.passed}, {"findings", l.findings}});
  j["unreadable"] = nlohmann::ordered_json::object();
  for (const auto& [device, why] : r.unreadable) j["unreadable"][device] = why;
  // Device output reaches the messages: invalid UTF-8 becomes U+FFFD rather than an exception.
  out << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

int triage_exit_code(const TriageReport& r) {
  if (!r.unreadable.empty()) return 3;
  return r.suspects.empty() ? 0 : 1;
}

}  // namespace fabricctl

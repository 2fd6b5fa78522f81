#include "acceptance/acceptance_report.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>

#include "util/escape.h"

namespace fabricctl::acceptance {
namespace {

std::string fixed(double v, const char* format = "%.1f") {
  char buf[32];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string verdict(const PairResult& p) {
  if (!p.judged()) return "not judged: " + p.error;
  return p.passed() ? "ok" : "below " + fixed(kBar * 100, "%.0f") + "% of the line rate";
}

std::string padded(std::string s, size_t width) {
  if (s.size() < width) s.resize(width, ' ');
  return s + "  ";
}

}  // namespace

void write_table(const AcceptanceReport& r, std::ostream& out) {
  size_t ok = 0, below = 0, unjudged = 0;
  if (!r.pairs.empty()) {
    size_t width = 6;
    for (const PairResult& p : r.pairs) width = std::max({width, p.pair.client.size(), p.pair.server.size()});
    out << padded("RAIL", 4) << padded("CLIENT", width) << padded("SERVER", width) << padded("GB/S", 7)
        << padded("LINE", 6) << padded("SHARE", 5) << "RESULT\n";
    for (const PairResult& p : r.pairs) {
      (p.judged() ? (p.passed() ? ok : below) : unjudged)++;
      out << padded(std::to_string(p.pair.rail), 4) << padded(p.pair.client, width) << padded(p.pair.server, width)
          << padded(p.run ? fixed(p.run->average_gbps) : "-", 7)
          << padded(p.line_gbps ? fixed(*p.line_gbps, "%.0f") : "-", 6)
          << padded(p.judged() ? fixed(100 * p.run->average_gbps / *p.line_gbps, "%.0f") + "%" : "-", 5)
          << terminal_line(verdict(p)) << "\n";
    }
  }
  size_t clean = 0, failed = 0;
  for (const CollectiveResult& c : r.collectives) {
    out << (&c == &r.collectives.front() && !r.pairs.empty() ? "\n" : "") << terminal_line(c.name) << ": ";
    if (!c.judged()) {
      ++unjudged;
      out << "not judged: " << terminal_line(c.error) << "\n";
      continue;
    }
    (c.passed() ? clean : failed)++;
    out << c.run->ranks << " ranks on " << c.run->hosts.size() << " hosts, bus bandwidth "
        << fixed(c.run->largest_busbw_gbs, "%.2f") << " GB/s at " << c.run->largest_bytes << " B, "
        << fixed(c.run->average_busbw_gbs, "%.2f") << " GB/s on average"
        << (c.passed() ? "" : ", " + std::to_string(c.run->out_of_bounds) + " wrong values") << "\n";
  }
  out << "\n"
      << r.pairs.size() << " pairs: " << ok << " at " << fixed(kBar * 100, "%.0f") << "% of the line rate or more, "
      << below << " below";
  if (!r.collectives.empty())
    out << "; " << r.collectives.size() << " collectives: " << clean << " clean, " << failed << " with wrong values";
  if (unjudged > 0) out << "; " << unjudged << " not judged";
  out << "\n";
}

void write_json(const AcceptanceReport& r, std::ostream& out) {
  nlohmann::ordered_json j{{"schema", "fabricctl.acceptance/v1"}, {"bar", kBar}};
  j["pairs"] = nlohmann::ordered_json::array();
  for (const PairResult& p : r.pairs) {
    nlohmann::ordered_json x{{"rail", p.pair.rail}, {"client", p.pair.client}, {"server", p.pair.server}};
    x["line_gbps"] = p.line_gbps ? nlohmann::ordered_json(*p.line_gbps) : nullptr;
    if (p.run) {
      x["gbps"] = p.run->average_gbps;
      x["peak_gbps"] = p.run->peak_gbps;
      x["message_bytes"] = p.run->message_bytes;
      x["device"] = p.run->device;
      x["link_type"] = p.run->link_type;
    }
    x["result"] = !p.judged() ? "not judged" : p.passed() ? "pass" : "below";
    if (!p.error.empty()) x["error"] = p.error;
    j["pairs"].push_back(std::move(x));
  }
  j["collectives"] = nlohmann::ordered_json::array();
  for (const CollectiveResult& c : r.collectives) {
    nlohmann::ordered_json x{{"name", c.name}};
    if (c.run) {
      x["ranks"] = c.run->ranks;
      x["hosts"] = c.run->hosts;
      x["largest_bytes"] = c.run->largest_bytes;
      x["largest_busbw_gbs"] = c.run->largest_busbw_gbs;
      x["average_busbw_gbs"] = c.run->average_busbw_gbs;
      x["out_of_bounds"] = c.run->out_of_bounds;
    }
    x["result"] = !c.judged() ? "not judged" : c.passed() ? "pass" : "wrong values";
    if (!c.error.empty()) x["error"] = c.error;
    j["collectives"].push_back(std::move(x));
  }
  out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace fabricctl::acceptance

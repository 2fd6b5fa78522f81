// One self-contained HTML page of a verify or health report: a picture of the fabric (spines, leaves
// by rail, hosts) whose links are coloured by their worst finding, each link a click away from its
// findings, then every finding. No script and no fetch: the page is read where it is saved, offline.
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "report/report.h"
#include "util/escape.h"

namespace fabricctl {

namespace {

// The picture's geometry, in CSS pixels: one row per tier, a column per device.
constexpr int kColumn = 130, kMargin = 70, kRowGap = 150, kBox = 104, kBoxHeight = 30;

struct Place {
  int x = 0, y = 0;
};

/// A link's colour by its worst finding: an error, a warning, missing data, or fine.
std::string_view colour_of(int rank) {
  switch (rank) {
    case 3: return "#d62728";  // an error
    case 2: return "#ff7f0e";  // a warning (or info)
    case 1: return "#7f7f7f";  // not compared: an end unread
    default: return "#2ca02c";
  }
}

int rank_of(const Result& r) {
  if (r.status == Status::fail) return r.severity == Severity::error ? 3 : 2;
  if (r.status == Status::missing) return 1;
  return 0;  // a consequence is coloured by its cause
}

std::string link_key(const std::string& a, const std::string& b) { return a < b ? a + "~" + b : b + "~" + a; }

// The rate charts: one per port a finding names (at most kChartPorts), its busiest counters (at most
// kChartCounters, by their highest rate), kChartWidth x kChartHeight CSS pixels.
constexpr size_t kChartPorts = 20, kChartCounters = 4;
constexpr int kChartWidth = 360, kChartHeight = 90, kChartLegend = 16;
constexpr std::array<std::string_view, kChartCounters> kChartColours = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd"};

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f" : v >= 1 ? "%.1f" : "%.2f", v);
  return buf;
}

/// The ports the findings name, a finding's own end first, in the findings' order.
std::vector<std::string> suspicious_ports(const VerifyReport& r) {
  std::vector<std::string> out;
  const auto add = [&](const std::string& port) {
    if (port.find(':') != std::string::npos && std::find(out.begin(), out.end(), port) == out.end() &&
        out.size() < kChartPorts)
      out.push_back(port);
  };
  for (const Result& x : r.results) {
    if (x.status != Status::fail && x.status != Status::consequence) continue;
    add(x.a.str());
    if (x.b) add(x.b->str());
  }
  return out;
}

/// Counter -> its rate in each sample (0 where a sample lacks it), of one port.
using Series = std::map<std::string, std::vector<double>>;

/// The series of each of `ports` over `samples`: one pass over the rates, whatever their number.
std::map<std::string, Series> series_of(const std::vector<std::string>& ports, const std::vector<RateSample>& samples) {
  std::map<std::string, Series> out;
  for (const std::string& port : ports) out[port];
  for (size_t i = 0; i < samples.size(); ++i)
    for (const CounterRate& c : samples[i].rates) {
      const auto port = out.find(c.where.str());
      if (port == out.end()) continue;
      std::vector<double>& rates = port->second[c.counter];
      rates.resize(samples.size());
      rates[i] = c.per_s;
    }
  return out;
}

/// One port's chart: each of its busiest counters as a line over the samples (or, with one sample, a
/// bar), scaled to the highest rate drawn, which the chart names.
void write_chart(std::ostream& out, const std::string& port, const Series& series, size_t samples) {
  std::vector<std::pair<double, std::string>> busiest;
  for (const auto& [counter, rates] : series) {
    const double top = *std::max_element(rates.begin(), rates.end());
    if (top > 0) busiest.emplace_back(top, counter);
  }
  std::sort(busiest.begin(), busiest.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  if (busiest.size() > kChartCounters) busiest.resize(kChartCounters);
  out << "<h3>" << xml_text(port) << "</h3>\n";
  if (busiest.empty()) {
    out << "<p>No counter of this port rose.</p>\n";
    return;
  }
  const double top = busiest.front().first;
  const int height = kChartHeight + kChartLegend * static_cast<int>(busiest.size());
  out << "<svg class=\"rates\" data-port=\"" << xml_attribute(port) << "\" data-samples=\"" << samples
      << "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kChartWidth << "\" height=\"" << height << "\">"
      << "<rect x=\"0\" y=\"0\" width=\"" << kChartWidth << "\" height=\"" << kChartHeight
      << "\" fill=\"#fafafa\" stroke=\"#ccc\"/><text x=\"4\" y=\"12\" font-size=\"11\">" << number(top) << "/s</text>";
  for (size_t k = 0; k < busiest.size(); ++k) {
    const std::vector<double>& rates = series.at(busiest[k].second);
    const std::string_view colour = kChartColours[k];
    const auto y = [&](double v) { return kChartHeight - 4 - static_cast<int>((kChartHeight - 20) * v / top); };
    if (rates.size() == 1) {  // one window: a bar per counter
      const int w = (kChartWidth - 40) / static_cast<int>(busiest.size());
      const int x = 30 + static_cast<int>(k) * w;
      out << "<rect class=\"bar\" x=\"" << x << "\" y=\"" << y(rates[0]) << "\" width=\"" << w - 6 << "\" height=\""
          << kChartHeight - 4 - y(rates[0]) << "\" fill=\"" << colour << "\"/>";
    } else {
      out << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\" points=\"";
      for (size_t i = 0; i < rates.size(); ++i)
        out << (i ? " " : "") << 30 + static_cast<int>(i) * (kChartWidth - 40) / static_cast<int>(rates.size() - 1)
            << "," << y(rates[i]);
      out << "\"/>";
    }
    out << "<text x=\"4\" y=\"" << kChartHeight + kChartLegend * static_cast<int>(k + 1) - 4
        << "\" font-size=\"11\" fill=\"" << colour << "\">" << xml_text(busiest[k].second) << ": up to "
        << number(busiest[k].first) << "/s</text>";
  }
  out << "</svg>\n";
}

}  // namespace

void write_html(const VerifyReport& r, const FabricDesired& fabric, std::ostream& out,
                const std::vector<RateSample>& history) {
  // Tiers: hosts at the bottom, the switches they reach above them, the switches above those on top.
  std::set<std::string> hosts, leaves;
  for (const DeviceDesired& d : fabric.devices)
    if (d.role == Role::host) {
      hosts.insert(d.name);
      for (const PortDesired& p : d.ports)
        if (!p.peer_device.empty()) leaves.insert(p.peer_device);
    }
  std::vector<const DeviceDesired*> tiers[3];
  for (const DeviceDesired& d : fabric.devices)
    tiers[hosts.count(d.name) ? 2 : leaves.count(d.name) ? 1 : 0].push_back(&d);
  std::stable_sort(tiers[1].begin(), tiers[1].end(), [](const DeviceDesired* a, const DeviceDesired* b) {
    return a->rail.value_or(-1) < b->rail.value_or(-1);  // leaves by rail, then as the inventory has them
  });
  size_t widest = 1;
  for (const auto& t : tiers) widest = std::max(widest, t.size());
  const int width = static_cast<int>(widest) * kColumn + 2 * kMargin;
  const int height = 2 * kRowGap + 2 * kMargin;
  std::map<std::string, Place> at;
  for (int row = 0; row < 3; ++row) {
    const auto& t = tiers[row];
    const int offset = (static_cast<int>(widest) - static_cast<int>(t.size())) * kColumn / 2;
    for (size_t i = 0; i < t.size(); ++i)
      at[t[i]->name] = {kMargin + offset + static_cast<int>(i) * kColumn + kColumn / 2, kMargin + row * kRowGap};
  }

  // Each finding's anchor, and each link's worst rank and findings.
  std::map<std::string, int> worst;
  std::map<std::string, std::vector<size_t>> of_link;
  for (size_t i = 0; i < r.results.size(); ++i) {
    const Result& x = r.results[i];
    std::string key;
    if (x.link) key = link_key(x.link->a.str(), x.link->b.str());
    else if (x.b) key = link_key(x.a.str(), x.b->str());
    if (key.empty()) continue;
    worst[key] = std::max(worst[key], rank_of(x));
    of_link[key].push_back(i);
  }

  const std::string title = std::string("fabricctl ") + std::string(r.tool) + " report";
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>" << xml_text(title)
      << "</title>\n<style>\n"
         "body{margin:0;font:14px/1.4 system-ui,sans-serif;color:#222}\n"
         "svg{display:block}\n"
         ".dev rect{fill:#f4f4f4;stroke:#555}.dev text{font-size:12px;text-anchor:middle}\n"
         ".unread rect{fill:#ddd;stroke-dasharray:4 3}\n"
         "main{padding:0 24px 24px}table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;"
         "padding:4px 8px;text-align:left;vertical-align:top}\n"
         ".error{color:#d62728}.warning{color:#b35900}.consequence{color:#777}\n"
         "tr:target{background:#fff3c4}\n"
         "</style>\n</head>\n<body>\n";
  out << "<svg id=\"fabric\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << " " << height << "\">\n";
  // Links first, under the devices: every cable once.
  std::set<std::string> drawn;
  for (const DeviceDesired& d : fabric.devices)
    for (const PortDesired& p : d.ports) {
      if (p.peer_device.empty() || !at.count(p.peer_device)) continue;
      const std::string a = d.name + ":" + p.name, b = p.peer_device + ":" + p.peer_port;
      const std::string key = link_key(a, b);
      if (!drawn.insert(key).second) continue;
      const bool unread = r.unreadable.count(d.name) || r.unreadable.count(p.peer_device);
      const auto w = worst.find(key);
      const int rank = std::max(w == worst.end() ? 0 : w->second, unread ? 1 : 0);
      const Place from = at[d.name], to = at[p.peer_device];
      const auto findings = of_link.find(key);
      const std::string target =
          findings == of_link.end() ? std::string() : "#f" + std::to_string(findings->second.front() + 1);
      out << (target.empty() ? "" : "<a href=\"" + target + "\">") << "<line class=\"link\" data-link=\""
          << xml_attribute(key) << "\" data-rank=\"" << rank << "\" x1=\"" << from.x << "\" y1=\"" << from.y
          << "\" x2=\"" << to.x << "\" y2=\"" << to.y << "\" stroke=\"" << colour_of(rank) << "\" stroke-width=\""
          << (rank >= 2 ? 6 : 3) << "\"><title>" << xml_text(key);
      if (findings != of_link.end())
        for (const size_t i : findings->second)
          out << "\n" << xml_text(r.results[i].check + ": " + r.results[i].message);
      out << "</title></line>" << (target.empty() ? "" : "</a>") << "\n";
    }
  for (const auto& [name, p] : at) {
    const bool unread = r.unreadable.count(name) > 0;
    out << "<g class=\"dev" << (unread ? " unread" : "") << "\"><rect x=\"" << p.x - kBox / 2 << "\" y=\""
        << p.y - kBoxHeight / 2 << "\" width=\"" << kBox << "\" height=\"" << kBoxHeight << "\" rx=\"4\"/><text x=\""
        << p.x << "\" y=\"" << p.y + 4 << "\">" << xml_text(name) << "</text>";
    if (unread) out << "<title>" << xml_text(name + ": not read: " + r.unreadable.at(name)) << "</title>";
    out << "</g>\n";
  }
  out << "</svg>\n<main>\n<h1>" << xml_text(title) << "</h1>\n";
  const ReportTally t = tally(r);
  out << "<p>" << t.errors << " errors, " << t.warnings << " warnings, " << t.infos << " info";
  if (t.consequence > 0) out << " (+" << t.consequence << " caused by them)";
  out << "; " << r.pass_count << " checks passed, " << t.missing << " missing data; " << r.devices_checked
      << " devices, " << r.links_checked << " links checked.</p>\n";
  for (const auto& [device, why] : r.unreadable)
    out << "<p class=\"error\">" << xml_text(device) << ": not read: " << xml_text(why) << "</p>\n";
  if (r.results.empty()) {
    out << "<p>No findings.</p>\n";
  } else {
    out << "<table>\n<tr><th>#</th><th>severity</th><th>check</th><th>where</th><th>what</th><th>fix</th></tr>\n";
    for (size_t i = 0; i < r.results.size(); ++i) {
      const Result& x = r.results[i];
      const bool consequence = x.status == Status::consequence;
      const std::string cls = consequence ? "consequence" : std::string(to_string(x.severity));
      out << "<tr id=\"f" << i + 1 << "\" class=\"" << cls << "\"><td>" << i + 1 << "</td><td>"
          << (consequence ? "caused"
                          : std::string(to_string(x.status == Status::missing ? Severity::info : x.severity)))
          << "</td><td>" << xml_text(x.check) << "</td><td>" << xml_text(x.object()) << "</td><td>"
          << xml_text(x.message);
      if (!x.observed.empty()) out << "<br/>seen: " << xml_text(x.observed);
      if (consequence) out << "<br/>caused by " << xml_text(x.cause);
      out << "</td><td>" << xml_text(consequence ? "" : x.hint) << "</td></tr>\n";
    }
    out << "</table>\n";
  }
  // Rates where the findings are: what the counters did there, over the watch's samples.
  if (!r.rates.empty() || !history.empty()) {
    const std::vector<std::string> ports = suspicious_ports(r);
    if (!ports.empty()) {
      const std::vector<RateSample> one{{r.ran_at.value_or(std::chrono::system_clock::time_point{}), r.rates}};
      const std::vector<RateSample>& samples = history.empty() ? one : history;
      out << "<h2>Rates on the ports the findings name</h2>\n<p>" << samples.size()
          << (samples.size() == 1 ? " window" : " windows, oldest first") << "; per second.</p>\n";
      const std::map<std::string, Series> series = series_of(ports, samples);
      for (const std::string& port : ports) write_chart(out, port, series.at(port), samples.size());
    }
  }
  out << "</main>\n</body>\n</html>\n";
}

}  // namespace fabricctl

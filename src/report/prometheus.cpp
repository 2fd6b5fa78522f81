// The Prometheus report (of verify, or of health: metrics named fabricctl_<tool>_...): text exposition
// format 0.0.4, for node_exporter's textfile collector or a
// push gateway. All metrics are gauges describing the last verify run; families are sorted by name
// and series by label values, with no timestamps, so the same report gives the same bytes.
// fabricctl_verify_findings has a series for every check that ran and every severity, 0 when there
// is nothing to report, so that series do not vanish when a problem is fixed. fabricctl_verify_finding
// says where: one series per failed object, so an alert can name the device, port and peer; at most
// kMaxFindingSeries of them, errors first, so a fabric-wide fault cannot flood the time-series database.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "report/report.h"
#include "util/escape.h"

namespace fabricctl {

namespace {

/// The most fabricctl_verify_finding series one report has: a misconfiguration of a whole fabric fails
/// on every port, and one series per port of R100k would swamp a Prometheus server.
constexpr size_t kMaxFindingSeries = 1000;
// Counter rates (health): a port has a few dozen counters, a fabric some hundred thousand ports. The
// ports a finding names come first, then the highest rates; the rest are counted as omitted.
constexpr size_t kMaxRateSeries = 5000;

/// A label value as the exposition format wants it (util/escape.h). Two values that differ only in
/// what cleaning dropped or replaced end up as one series (their counts add up), never as duplicates.
std::string label_value(std::string_view s) { return prometheus_label_value(s); }

void family(std::string& out, std::string_view name, std::string_view help) {
  out += "# HELP " + std::string(name) + " " + std::string(help) + "\n";
  out += "# TYPE " + std::string(name) + " gauge\n";
}

void sample(std::string& out, std::string_view name, std::string_view labels, size_t value) {
  out += std::string(name);
  if (!labels.empty()) out += "{" + std::string(labels) + "}";
  out += " " + std::to_string(value) + "\n";
}

/// One failed object's series: its labels, in the exposition's (alphabetical) order.
struct FindingLabels {
  int rank = 0;  // 0 error, 1 warning, 2 info: which series are kept first under the cap
  std::string labels;
  friend bool operator<(const FindingLabels& x, const FindingLabels& y) {
    return std::tie(x.rank, x.labels) < std::tie(y.rank, y.labels);
  }
};

FindingLabels finding_labels(const Result& res) {
  const std::string peer = res.b ? res.b->str() : std::string();
  return {res.severity == Severity::error     ? 0
          : res.severity == Severity::warning ? 1
                                              : 2,
          "check=\"" + label_value(res.check) + "\",device=\"" + label_value(res.a.device) + "\",peer=\"" +
              label_value(peer) + "\",port=\"" + label_value(res.a.port) + "\",severity=\"" +
              std::string(to_string(res.severity)) + "\""};
}

}  // namespace

std::string report_prometheus(const VerifyReport& r) {
  const std::string m = "fabricctl_" + std::string(r.tool) + "_";  // the metrics' prefix
  // Keyed by escaped label values: std::map gives the sort order and merges what escaping merged.
  std::map<std::pair<std::string, std::string>, size_t> findings;  // (check, severity) -> failures
  std::map<std::string, size_t> results = {
      {"consequence", 0}, {"fail", 0}, {"missing", 0}, {"not_applicable", r.not_applicable}, {"pass", 0}};
  // Series exist for every check that ran, at every reported severity, so that they never vanish;
  // severities hidden by --severity get no series rather than a misleading 0.
  auto seed = [&](const std::string& check) {
    for (Severity s : {Severity::error, Severity::warning, Severity::info})
      if (s >= r.min_severity) findings.try_emplace({check, std::string(to_string(s))}, 0);
  };
  for (const std::string& id : r.checks_run) seed(label_value(id));
  results["pass"] += r.pass_count;
  for (const Result& res : r.results) {
    const std::string check = label_value(res.check);
    seed(check);
    ++results[std::string(to_string(res.status))];
    if (res.status == Status::fail) ++findings[{check, std::string(to_string(res.severity))}];
  }
  std::map<std::string, size_t> unreadable;
  for (const auto& [device, why] : r.unreadable) unreadable[label_value(device)] = 1;
  // Failures only: a consequence is explained by its cause's series, missing data by the unreadable
  // device's. Two results of one check on one object (two counters) are one series of value 2.
  std::map<FindingLabels, size_t> where;
  for (const Result& res : r.results)
    if (res.status == Status::fail) ++where[finding_labels(res)];
  const size_t omitted = where.size() > kMaxFindingSeries ? where.size() - kMaxFindingSeries : 0;
  std::vector<std::pair<std::string, size_t>> kept;  // the first kMaxFindingSeries by rank, then sorted by labels
  for (const auto& [key, n] : where) {
    if (kept.size() == kMaxFindingSeries) break;
    kept.emplace_back(key.labels, n);
  }
  std::sort(kept.begin(), kept.end());

  std::string out;
  family(out, m + "device_unreadable",
         "1 for each device whose state could not be read (reasons are in the JSON and table reports).");
  for (const auto& [device, one] : unreadable) sample(out, m + "device_unreadable", "device=\"" + device + "\"", one);

  family(out, m + "devices_checked", "Devices whose state was read and checked.");
  sample(out, m + "devices_checked", "", r.devices_checked);

  family(out, m + "devices_unreadable", "Devices whose state could not be read.");
  sample(out, m + "devices_unreadable", "", r.unreadable.size());

  family(out, m + "finding",
         "Where verify failed: the number of failed results of a check on one object (its device, port and, "
         "for a link, the peer end), at most " +
             std::to_string(kMaxFindingSeries) + " series, errors first.");
  for (const auto& [labels, n] : kept) sample(out, m + "finding", labels, n);

  family(out, m + "finding_series_omitted",
         "Failed objects left out of " + m + "finding by its limit of " + std::to_string(kMaxFindingSeries) +
             " series (they are in the JSON report).");
  sample(out, m + "finding_series_omitted", "", omitted);

  family(out, m + "findings",
         "Failed results by check ID and severity; 0 for every check that ran without such failures.");
  for (const auto& [key, n] : findings)
    sample(out, m + "findings", "check=\"" + key.first + "\",severity=\"" + key.second + "\"", n);

  family(out, m + "links_checked", "Links whose two ends were compared.");
  sample(out, m + "links_checked", "", r.links_checked);

  if (!r.rates.empty()) {
    std::set<std::string> named;  // the ports a failure names, at either end
    for (const Result& res : r.results)
      if (res.status == Status::fail) {
        named.insert(res.a.str());
        if (res.b) named.insert(res.b->str());
      }
    std::vector<const CounterRate*> order;
    for (const CounterRate& c : r.rates) order.push_back(&c);
    std::stable_sort(order.begin(), order.end(), [&](const CounterRate* x, const CounterRate* y) {
      const bool nx = named.count(x->where.str()) > 0, ny = named.count(y->where.str()) > 0;
      if (nx != ny) return nx;
      return x->per_s > y->per_s;
    });
    std::map<std::string, double> series;  // labels -> rate: sorted, and merged as escaping merges them
    for (size_t i = 0; i < order.size() && i < kMaxRateSeries; ++i)
      series["counter=\"" + label_value(order[i]->counter) + "\",device=\"" + label_value(order[i]->where.device) +
             "\",port=\"" + label_value(order[i]->where.port) + "\""] = order[i]->per_s;
    family(out, m + "rate",
           "Each counter's rate per second between the two readings, per device, port and counter (neutral "
           "names), at most " +
               std::to_string(kMaxRateSeries) + " series: the ports a finding names first, then the highest rates.");
    for (const auto& [labels, v] : series) {
      char value[32];
      std::snprintf(value, sizeof value, "%.6g", v);
      out += m + "rate{" + labels + "} " + value + "\n";
    }
    family(out, m + "rate_series_omitted", "Counter rates left out of " + m + "rate by its limit.");
    sample(out, m + "rate_series_omitted", "", order.size() > kMaxRateSeries ? order.size() - kMaxRateSeries : 0);
  }

  family(out, m + "results",
         "Check results by status: pass, fail, missing (no data to compare), consequence (explained by a failure), or "
         "not_applicable (not compared: the check does not apply to the object as it is, e.g. a down link's speed).");
  for (const auto& [status, n] : results) sample(out, m + "results", "status=\"" + status + "\"", n);

  if (r.ran_at) {
    family(out, m + "run_timestamp_seconds",
           "When this verify run's checks ran, in seconds since the Unix epoch: alert when it grows old.");
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(r.ran_at->time_since_epoch()).count();
    sample(out, m + "run_timestamp_seconds", "", static_cast<size_t>(std::max<int64_t>(seconds, 0)));
  }
  return out;
}

}  // namespace fabricctl

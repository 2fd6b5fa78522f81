// The JSON report, schema "fabricctl.verify/v1" (docs/reports.md): summary counts, unreadable devices
// and every result that is not a pass, in input order. Keys are emitted in a fixed order
// (ordered_json) so that the bytes are stable; passes are only counted, to keep reports of large
// fabrics small.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <utility>

#include "report/report.h"

namespace fabricctl {

namespace {

using ojson = nlohmann::ordered_json;

ojson endpoint(const Endpoint& e) {
  ojson j = ojson::object();
  j["device"] = e.device;
  j["port"] = e.port;  // "" for a device-level result
  return j;
}

ojson finding(const Result& res) {
  ojson j = ojson::object();
  j["check"] = res.check;
  j["severity"] = std::string(to_string(res.severity));
  j["status"] = std::string(to_string(res.status));
  j["object"] = res.object();
  j["a"] = endpoint(res.a);
  j["b"] = res.b ? endpoint(*res.b) : ojson(nullptr);
  j["expected"] = res.expected;
  j["observed"] = res.observed;
  j["message"] = res.message;
  j["hint"] = res.hint;
  j["cause"] = res.cause.empty() ? ojson(nullptr) : ojson(res.cause);
  j["link"] = res.link ? ojson{{"a", endpoint(res.link->a)}, {"b", endpoint(res.link->b)}} : ojson(nullptr);
  return j;
}

}  // namespace

std::string report_json(const VerifyReport& r) {
  const ReportTally t = tally(r);
  ojson findings = ojson::array();
  for (const Result& res : r.results)
    if (res.status != Status::pass) findings.push_back(finding(res));

  ojson unreadable = ojson::object();  // std::map order: sorted by device name
  for (const auto& [device, why] : r.unreadable) unreadable[device] = why;

  ojson doc = ojson::object();
  doc["schema"] = "fabricctl." + std::string(r.tool) + "/v1";
  ojson& summary = doc["summary"];
  summary["devices_checked"] = r.devices_checked;
  summary["links_checked"] = r.links_checked;
  summary["results"] = ojson{{"pass", t.pass},
                             {"fail", t.fail},
                             {"missing", t.missing},
                             {"consequence", t.consequence},
                             {"not_applicable", t.not_applicable}};
  summary["incomplete"] = r.incomplete;  // missing results whose state is required (exit 3)
  summary["findings"] = ojson{{"error", t.errors}, {"warning", t.warnings}, {"info", t.infos}};
  // Failures below --severity: not listed, but never mistaken for passes.
  summary["hidden"] = ojson{{"min_severity", std::string(to_string(r.min_severity))},
                            {"warning", r.hidden_warnings},
                            {"info", r.hidden_infos}};
  summary["unreadable"] = std::move(unreadable);
  doc["findings"] = std::move(findings);
  // Device output may carry invalid UTF-8; replace it (U+FFFD) rather than fail the whole report.
  return doc.dump(2, ' ', false, ojson::error_handler_t::replace) + "\n";
}

}  // namespace fabricctl

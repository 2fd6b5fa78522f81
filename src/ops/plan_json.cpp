#include "ops/plan_json.h"

namespace fabricctl::ops {

using nlohmann::ordered_json;

std::string_view status_of(const DevicePlan& d) {
  if (d.failed()) return "failed";
  return d.changes() ? "change" : "no change";
}

ordered_json plan_json(const FabricPlan& plan, bool payloads) {
  ordered_json devices = ordered_json::array();
  for (const DevicePlan& d : plan.devices) {
    ordered_json j;
    j["device"] = d.device;
    j["platform"] = to_string(d.platform);
    j["status"] = status_of(d);
    if (d.failed()) {
      j["error"] = d.error;
    } else {
      j["base_sha256"] = d.base_sha256;
      j["change_file"] = change_file(d.platform);
      j["change"] = d.change.text;
      if (payloads) j["payload"] = d.change.payload;
      if (!d.change.notes.empty()) j["notes"] = d.change.notes;
      if (!d.checked.empty()) j["checked"] = d.checked;
    }
    ordered_json why = ordered_json::array();
    for (const Result& r : d.why)
      why.push_back({{"check", r.check}, {"object", r.object()}, {"expected", r.expected}, {"observed", r.observed}});
    j["why"] = std::move(why);
    devices.push_back(std::move(j));
  }
  ordered_json doc;
  doc["schema"] = "fabricctl.plan/v1";
  doc["created_at"] = plan.created_at;
  doc["summary"] = {{"devices", plan.devices.size()}, {"change", plan.changed()}, {"failed", plan.failed()}};
  doc["devices"] = std::move(devices);
  return doc;
}

}  // namespace fabricctl::ops

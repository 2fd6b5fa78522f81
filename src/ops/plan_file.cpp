#include "ops/plan_file.h"

#include <nlohmann/json.hpp>

#include "ops/plan_json.h"
#include "util/diag.h"
#include "util/escape.h"
#include "util/file_io.h"
#include "util/names.h"

namespace fabricctl::ops {
namespace {

using nlohmann::ordered_json;

constexpr size_t kMaxPlanBytes = size_t{512} << 20;  // a whole fabric's patches and payloads

Expected<std::string> text_member(const ordered_json& j, const char* key, const std::string& where) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return unexpected(where + ": \"" + key + "\" is missing or not a string");
  return it->get<std::string>();
}

}  // namespace

Expected<void> save_plan(const FabricPlan& plan, const std::filesystem::path& dir) {
  // A device may be named plan.json (a valid name): its directory would be the plan's own file.
  for (const DevicePlan& d : plan.devices)
    if (d.changes() && d.device == "plan.json")
      return unexpected(
          "device \"plan.json\" has the name of the plan's own file, so a plan directory cannot "
          "hold its change: apply without --plan, or rename the device");
  std::error_code ec;
  for (const DevicePlan& d : plan.devices) {
    if (!d.changes()) continue;
    std::filesystem::create_directories(dir / d.device, ec);
    if (ec) return unexpected("cannot create " + quote((dir / d.device).string()) + ": " + ec.message());
    const std::string file(adapter(d.platform).applier.change_file);
    if (auto w = write_new_file(dir / d.device / file, d.change.text, {.mode = 0600, .sync = false}); !w)
      return unexpected(w.error());
  }
  return write_new_file(dir / "plan.json", plan_json(plan, true).dump(2) + "\n", {.mode = 0600, .sync = false});
}

Expected<FabricPlan> load_plan(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "plan.json";
  const std::string where = file.string();
  auto text = read_regular_file(file, {kMaxPlanBytes, "saved plan"});
  if (!text) return unexpected(text.error().message);
  ordered_json doc = ordered_json::parse(*text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return unexpected(where + ": not a JSON object");
  if (doc.value("schema", "") != "fabricctl.plan/v1")
    return unexpected(where + ": not a fabricctl plan (schema " + quote(doc.value("schema", "")) +
                      ", expected \"fabricctl.plan/v1\")");
  FabricPlan plan;
  plan.created_at = doc.value("created_at", "");
  const auto devices = doc.find("devices");
  if (devices == doc.end() || !devices->is_array()) return unexpected(where + ": \"devices\" is missing or not a list");
  for (size_t i = 0; i < devices->size(); ++i) {
    const ordered_json& j = (*devices)[i];
    const std::string at = where + ": devices[" + std::to_string(i) + "]";
    if (!j.is_object()) return unexpected(at + ": not an object");
    DevicePlan d;
    auto name = text_member(j, "device", at);
    if (!name) return unexpected(name.error());
    if (!valid_device_name(*name)) return unexpected(at + ": device name " + quote(*name) + " is not valid");
    d.device = *name;
    auto platform = text_member(j, "platform", at);
    if (!platform) return unexpected(platform.error());
    const PlatformAdapter* a = find_platform(*platform);
    if (a == nullptr) return unexpected(at + ": unknown platform " + quote(*platform));
    d.platform = a->platform();
    auto status = text_member(j, "status", at);
    if (!status) return unexpected(status.error());
    if (*status == "failed") {
      d.error = j.value("error", "failed when the plan was made");
    } else if (*status == "change" || *status == "no change") {
      auto base = text_member(j, "base_sha256", at);
      auto change = text_member(j, "change", at);
      if (!base) return unexpected(base.error());
      if (!change) return unexpected(change.error());
      d.base_sha256 = *base;
      d.change.text = *change;
      if (*status == "change") {
        auto payload = text_member(j, "payload", at);
        if (!payload) return unexpected(payload.error());
        d.change.payload = *payload;
        if (d.change.text.empty()) return unexpected(at + ": status \"change\" with an empty change");
      }
    } else {
      return unexpected(at + ": unknown status " + quote(*status));
    }
    plan.devices.push_back(std::move(d));
  }
  return plan;
}

SavedPlanCheck check_saved_plan(const FabricPlan& saved, const FabricPlan& now) {
  SavedPlanCheck r;
  r.plan.created_at = saved.created_at;
  for (const DevicePlan& s : saved.devices) {
    const DevicePlan* n = now.find(s.device);
    if (n == nullptr) {
      r.stale.push_back(s.device + ": not in this run's scope or inventory");
      continue;
    }
    if (s.failed()) {
      r.plan.devices.push_back(*n);  // it failed when the plan was made: nothing of it to apply
      r.plan.devices.back().change = {};
      if (r.plan.devices.back().error.empty())
        r.plan.devices.back().error = "failed when the plan was made: " + s.error;
      continue;
    }
    if (n->failed()) {
      r.plan.devices.push_back(*n);
      continue;
    }
    if (n->base_sha256 != s.base_sha256) {
      r.stale.push_back(s.device + ": its configuration changed since the plan was made (sha256 " +
                        s.base_sha256.substr(0, 12) + " then, " + n->base_sha256.substr(0, 12) + " now)");
      continue;
    }
    DevicePlan d = *n;
    d.change.text = s.change.text;
    d.change.payload = s.change.payload;
    r.plan.devices.push_back(std::move(d));
  }
  return r;
}

}  // namespace fabricctl::ops

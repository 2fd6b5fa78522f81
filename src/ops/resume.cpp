#include "ops/resume.h"

namespace fabricctl::ops {

std::set<std::string> resume_scope(const RecordedApply& r) {
  std::set<std::string> out;
  for (const RecordedDevice& d : r.devices)
    if (d.status != "no change") out.insert(d.name);
  return out;
}

std::set<std::string> undo_scope(const RecordedApply& r) {
  std::set<std::string> out;
  for (const RecordedDevice& d : r.devices)
    if (d.state == RecordedState::confirmed) out.insert(d.name);
  return out;
}

std::vector<std::string> resume_conflicts(const RecordedApply& r, const FabricPlan& plan) {
  std::vector<std::string> out;
  for (const DevicePlan& p : plan.devices) {
    const RecordedDevice* d = r.find(p.device);
    if (d != nullptr && d->state == RecordedState::confirmed && p.changes())
      out.push_back(p.device + ": " + r.transaction +
                    " applied it, and the plan changes it again: the intent or the device changed since");
  }
  return out;
}

std::vector<std::string> undo_conflicts(const RecordedApply& r, const FabricPlan& plan) {
  std::vector<std::string> out;
  for (const DevicePlan& p : plan.devices) {
    const RecordedDevice* d = r.find(p.device);
    if (d == nullptr || d->state != RecordedState::confirmed || p.failed()) continue;
    if (p.base_sha256 != d->after_sha256)
      out.push_back(p.device + ": no longer runs what " + r.transaction +
                    " left it with (changed since): an undo would not put back what it replaced");
    else if (!p.changes())
      out.push_back(p.device + ": the intent given changes nothing of what " + r.transaction +
                    " left: give the inventory and profiles as they were before it");
  }
  return out;
}

UndoCheck check_undo(const RecordedApply& r, const ApplyResult& undo) {
  UndoCheck out;
  for (const DeviceOutcome& o : undo.devices) {
    const RecordedDevice* d = r.find(o.device);
    if (d == nullptr || o.outcome != Outcome::applied) continue;
    (o.after_sha256 == d->before_sha256 ? out.restored : out.differs).push_back(o.device);
  }
  return out;
}

}  // namespace fabricctl::ops

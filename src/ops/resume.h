// Continuing or reversing an apply from its audit record (docs/apply.md "Resume and undo"):
// `apply --resume RECORD` applies, with the record's options, the devices it did not apply; `apply
// --undo RECORD -i <the intent before it>` changes back the devices it confirmed. Pure: which devices,
// and what makes either unsafe, from the record and the plan made now.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "ops/apply.h"
#include "ops/apply_record.h"
#include "ops/plan.h"

namespace fabricctl::ops {

/// The devices a resume plans: those the record's plan changed or could not reach.
std::set<std::string> resume_scope(const RecordedApply& r);
/// The devices an undo plans: those the record confirmed.
std::set<std::string> undo_scope(const RecordedApply& r);

/// Why resuming with `plan` would not continue the record's change, one line a device: a device the
/// record confirmed that the plan changes again (the intent, or the device, changed since).
std::vector<std::string> resume_conflicts(const RecordedApply& r, const FabricPlan& plan);
/// Why undoing with `plan` would not put back what the record replaced, one line a device: a device
/// that no longer runs what the record left it with, or one the given intent does not change (it is
/// the record's own intent, not the one before it).
std::vector<std::string> undo_conflicts(const RecordedApply& r, const FabricPlan& plan);

/// After an undo: each applied device whose configuration is again the one the record's plan saw, and
/// each that differs.
struct UndoCheck {
  std::vector<std::string> restored;
  std::vector<std::string> differs;
};
UndoCheck check_undo(const RecordedApply& r, const ApplyResult& undo);

}  // namespace fabricctl::ops

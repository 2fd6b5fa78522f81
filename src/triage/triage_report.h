// triage's report: a table for the engineer (suspects most likely first, each with its evidence and what
// to do, then what each layer ruled out) and JSON for bots (fabricctl.triage/v1, docs/triage.md).
#pragma once

#include <ostream>

#include "triage/triage.h"

namespace fabricctl {

void write_triage_table(const TriageReport& r, std::ostream& out);
void write_triage_json(const TriageReport& r, std::ostream& out);

/// 3 when a device could not be read (triage without it may miss the culprit), else 1 when there is a
/// suspect, else 0.
int triage_exit_code(const TriageReport& r);

}  // namespace fabricctl

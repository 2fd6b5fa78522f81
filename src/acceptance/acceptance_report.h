// acceptance's report: a table for the terminal, and `fabricctl.acceptance/v1` JSON, which is also what
// `acceptance --baseline DIR` keeps beside the baseline (docs/acceptance.md).
#pragma once

#include <ostream>

#include "acceptance/acceptance.h"

namespace fabricctl::acceptance {

void write_table(const AcceptanceReport& r, std::ostream& out);
void write_json(const AcceptanceReport& r, std::ostream& out);

}  // namespace fabricctl::acceptance

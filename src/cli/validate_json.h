// The JSON form of `fabricctl validate -o json`, schema "fabricctl.validate/v1" (docs/cli.md#validate):
// every diagnostic as data, for a merge-request bot that annotates the lines it names.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "util/diag.h"

namespace fabricctl {

/// What validate counted in a fabric that loaded.
struct ValidateCounts {
  size_t devices = 0;
  size_t ports = 0;
  size_t links = 0;
};

/// The document: `valid`, the counts (null when the fabric did not load), then every path error and
/// diagnostic in the order the text form prints them. `message` is the text after "file:line:col: "
/// (and "warning: "); `subjects` lists every object a folded line is about, even those the text
/// shortens to "and N more".
std::string validate_json(const std::string& inventory, const std::vector<std::string>& path_errors, const Diags& diags,
                          const std::optional<ValidateCounts>& counts);

}  // namespace fabricctl

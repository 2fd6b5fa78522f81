// NVUE's configuration revisions, as `nv config revision -o json` prints them: which revision is in
// flight (a trial apply awaiting its confirmation, or an apply under way), so that plan names it and a
// stage does not start beside it (docs/transactions-nvue.md).
//
// Sources. `nv config revision` ("Shows the configuration revisions on the switch", Cumulus Linux 5.5.0
// and later; its table's columns Rev ID, State, ..., Message): CumulusNetworks/docs content/nvue-reference/
// Config-Commands.md. UNCONFIRMED in NVIDIA's pages (kept to this file and the acceptance checklist):
// the JSON form, an object of revision id to an object with a string "state" (napalm-cumulus
// napalm_cumulus/cumulus.py @cf00485b reads it so), the state "confirm" of a trial apply awaiting its
// confirmation (napalm-cumulus, ibid.; entropia/gpn-noc-gpncfg gpncfg/deployment/__init__.py @3893ea99,
// NT_CONFIRM), the states of an apply under way (gpncfg NT_BLOCKING, less those that are errors or
// set aside), and "message", the apply's `-m` text.
// Device output is untrusted: read strictly, the first problem named by its JSON path.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/expected.h"

namespace fabricctl::nvue {

inline constexpr std::string_view kRevisionsCommand = "nv config revision -o json";

/// A revision in flight, its words made printable (at most 64 bytes each).
struct InFlight {
  std::string id;
  std::string state;    // "confirm", or a state of an apply under way
  std::string message;  // the apply's -m text ("" when NVUE prints none)
  [[nodiscard]] bool awaits_confirmation() const { return state == "confirm"; }
};

/// The revisions in flight, in NVUE's order; empty when none is. The error: `text` is not that command's
/// JSON (not an object of objects, a revision without a string "state"), with the JSON path.
Expected<std::vector<InFlight>> revisions_in_flight(std::string_view text);

/// What is in flight, for a message: `revision 12 (state confirm, message "fabricctl-...")`, the first
/// three and how many more.
std::string in_flight_text(const std::vector<InFlight>& revisions);

}  // namespace fabricctl::nvue

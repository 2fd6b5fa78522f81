#include "platform/nvue/revisions.h"

#include <algorithm>
#include <array>

#include "util/diag.h"
#include "util/json_reader.h"
#include "util/text.h"

namespace fabricctl::nvue {
namespace {

using jsonr::Path;
using jsonr::Value;

// NVUE keeps NVUE_MAX_REVISIONS revisions (100 by default, /etc/default/nvued): some 100 KB.
const jsonr::JsonLimits kLimits{size_t{4} << 20, 16};

/// The states of a revision in flight: awaiting confirmation, or being applied (UNCONFIRMED, revisions.h).
constexpr std::array<std::string_view, 13> kInFlight = {
    "confirm",     "apply",      "ays",         "ays_yes",         "ays_no",
    "confirm_yes", "confirm_no", "ignore_fail", "ignore_fail_yes", "ignore_fail_no",
    "readying",    "verifying",  "reloading",
};

}  // namespace

Expected<std::vector<InFlight>> revisions_in_flight(std::string_view text) {
  return jsonr::read_json(text, kLimits, [](Value root) {
    jsonr::expect_object(root, Path(""));
    std::vector<InFlight> out;
    for (const auto& m : root.members()) {
      const std::string where = printable(m.key, 64);
      const Path path(where);
      jsonr::expect_object(m.value, path);
      const std::string state_at = where + ".state";
      const std::string_view state = jsonr::string_value(jsonr::required(m.value, path, "state"), Path(state_at));
      if (std::find(kInFlight.begin(), kInFlight.end(), state) == kInFlight.end()) continue;
      std::string message;
      if (const auto v = jsonr::find(m.value, "message"); v && v->is_string()) {
        const std::string message_at = where + ".message";
        message = printable(jsonr::string_value(*v, Path(message_at)), 64);
      }
      out.push_back({where, printable(state, 64), message});
    }
    return out;
  });
}

std::string in_flight_text(const std::vector<InFlight>& revisions) {
  std::vector<std::string> each;
  each.reserve(revisions.size());
  for (const InFlight& r : revisions)
    each.push_back("revision " + r.id + " (state " + r.state +
                   (r.message.empty() ? "" : ", message \"" + r.message + "\"") + ")");
  return first_and_more(each);
}

}  // namespace fabricctl::nvue

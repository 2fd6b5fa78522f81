// `nv config revision -o json` read strictly: which revisions are in flight, and nothing else believed.
#include "platform/nvue/revisions.h"

#include <doctest/doctest.h>

using namespace fabricctl;
using namespace fabricctl::nvue;

TEST_CASE("nvue revisions: a trial awaiting confirmation and an apply under way are in flight, the rest not") {
  const auto r = revisions_in_flight(R"({
    "1": {"state": "applied_and_saved", "message": "Config update by cumulus"},
    "2": {"state": "confirm_fail", "message": "fabricctl-20261206T200000-aaaaaa"},
    "3": {"state": "confirm", "message": "fabricctl-20261206T210000-bbbbbb", "transition": {"issue": {}, "progress": ""}},
    "4": {"state": "apply", "message": "Config update by admin"},
    "5": {"state": "pending"},
    "6": {"state": "detached"},
    "7": {"state": "apply_fail"}})");
  REQUIRE_MESSAGE(r, r.error());
  REQUIRE(r->size() == 2);
  CHECK((*r)[0].id == "3");
  CHECK((*r)[0].awaits_confirmation());
  CHECK((*r)[0].message == "fabricctl-20261206T210000-bbbbbb");
  CHECK((*r)[1].state == "apply");
  CHECK_FALSE((*r)[1].awaits_confirmation());
  CHECK(in_flight_text(*r) ==
        "revision 3 (state confirm, message \"fabricctl-20261206T210000-bbbbbb\"), revision 4 (state apply, message "
        "\"Config update by admin\")");
  CHECK(revisions_in_flight("{}")->empty());
}

TEST_CASE("nvue revisions: more than three in flight are counted; hostile words are escaped and cut") {
  std::string text = "{";
  for (int i = 1; i <= 5; ++i)
    text += std::string(i > 1 ? "," : "") + "\"" + std::to_string(i) + "\": {\"state\": \"confirm\"}";
  const auto many = revisions_in_flight(text + "}");
  REQUIRE(many);
  CHECK(in_flight_text(*many) ==
        "revision 1 (state confirm), revision 2 (state confirm), revision 3 (state confirm) and 2 more");
  const auto hostile = revisions_in_flight(R"({"9\u001b[31m": {"state": "confirm", "message": "x\u0007y"}})");
  REQUIRE(hostile);
  CHECK(in_flight_text(*hostile) == "revision 9\\x1b[31m (state confirm, message \"x\\x07y\")");
  // A message that is not a string is no message: its owner unknown, never a crash.
  CHECK(revisions_in_flight(R"({"1": {"state": "confirm", "message": 5}})")->front().message.empty());
}

TEST_CASE("nvue revisions: output that is not the command's JSON is an error with its path") {
  CHECK(revisions_in_flight("[]").error() == "expected an object, got an array");
  CHECK(revisions_in_flight(R"({"1": "confirm"})").error() == "1: expected an object, got a string \"confirm\"");
  CHECK(revisions_in_flight(R"({"1": {}})").error() == "1: missing required key \"state\"");
  CHECK(revisions_in_flight(R"({"1": {"state": 3}})").error().starts_with("1.state: "));
  CHECK(revisions_in_flight("Error: 'revision' is not a valid command").error().starts_with("invalid JSON at line 1"));
}

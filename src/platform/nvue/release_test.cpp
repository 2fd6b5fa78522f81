// The Cumulus Linux release: the inventory's words, the header's version, and the check that the
// inventory's release speaks the switch's syntax.
#include <doctest/doctest.h>

#include "platform/nvue/release.h"

using namespace fabricctl::nvue;

TEST_CASE("nvue release: inventory words and header versions") {
  CHECK(parse_release("5.15")->state_forms());
  CHECK_FALSE(parse_release("5.14")->state_forms());
  CHECK(*parse_release("Cumulus Linux 5.15.0") == Release{5, 15});
  CHECK(parse_release("Cumulus Linux 6.0.1")->state_forms());
  CHECK(*parse_release("Cumulus Linux 5.9.2") == Release{5, 9});
  for (const char* bad : {"", "5", "5.", "5.x", "Cumulus Linux", "5.15.0.1", "+5.15", "Cumulus Linux 5.15 beta"})
    CHECK_MESSAGE(!parse_release(bad), bad);
  CHECK(parse_release("5.1a").error() == "not a Cumulus Linux release: \"5.1a\"");
  for (std::string_view name : release_names()) CHECK(parse_release(name));
  CHECK(*inventory_release("") == kDefaultRelease);
}

TEST_CASE("nvue release: the header of nv config show, and a mismatch naming the inventory key") {
  CHECK(config_release(R"([{"header": {"version": "Cumulus Linux 5.15.0"}}, {"set": {}}])")->value() == Release{5, 15});
  CHECK_FALSE(config_release(R"({"qos": {}})")->has_value());  // a bare tree has no header
  CHECK_FALSE(config_release(R"([{"header": {"model": "SN5600"}}])")->has_value());
  CHECK(config_release(R"([{"header": {"version": 5}}])").error() == "nv config show: header.version is not a string");
  CHECK(config_release(R"([{"header": {"version": "SONiC 202405"}}])").error() ==
        "nv config show: header.version: not a Cumulus Linux release: \"SONiC 202405\"");
  CHECK(release_mismatch({5, 14}, true, {5, 12}).empty());  // the same syntax
  CHECK(release_mismatch({5, 15}, true, {5, 14}) ==
        "the switch runs Cumulus Linux 5.14, whose NVUE syntax differs from release 5.15 (the inventory's "
        "nvue.release): set nvue.release: \"5.14\" in the inventory");
}

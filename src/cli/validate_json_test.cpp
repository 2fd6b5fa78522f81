#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "cli/validate_json.h"

using namespace fabricctl;

namespace {

Loc at(const char* file, int line, int col) { return {std::make_shared<const std::string>(file), line, col}; }

}  // namespace

TEST_CASE("validate -o json: every diagnostic as data, in the text form's order, subjects in full") {
  Diags d;
  d.warning(at("inv/devices.yaml", 7, 3), "device \"host9\" is on no link");
  for (const char* leaf : {"leaf1", "leaf2", "leaf3", "leaf4", "leaf5"})
    d.error(at("inv/devices.yaml", 2, 5), "unknown profile \"roce-losless\" on \x1f")
        .about("device", leaf)
        .suggest("; did you mean \"roce-lossless\"?");
  d.error(Loc{}, "no line known", DiagClass::read);
  const auto doc = nlohmann::json::parse(
      validate_json("inv", {"-p site/profiles: no such directory (chosen by -p)"}, d, std::nullopt));
  CHECK(doc["schema"] == "fabricctl.validate/v1");
  CHECK(doc["inventory"] == "inv");
  CHECK(doc["valid"] == false);
  CHECK(doc["summary"] == nlohmann::json::parse(R"({"errors": 3, "warnings": 1, "notes": 0,
                                                    "devices": null, "ports": null, "links": null})"));
  const auto& list = doc["diagnostics"];
  REQUIRE(list.size() == 4);
  // The directory first, then the read error, the folded rule error, the warning.
  CHECK(list[0]["message"] == "-p site/profiles: no such directory (chosen by -p)");
  CHECK(list[0]["file"].is_null());
  CHECK(list[1]["class"] == "read");
  CHECK(list[1]["line"].is_null());
  CHECK(list[1]["col"].is_null());
  CHECK(list[2]["file"] == "inv/devices.yaml");
  CHECK(list[2]["line"] == 2);
  CHECK(list[2]["col"] == 5);
  CHECK(list[2]["severity"] == "error");
  CHECK(list[2]["class"] == "rule");
  // The text names three; the data names all five.
  CHECK(list[2]["message"] ==
        "unknown profile \"roce-losless\" on devices leaf1, leaf2 and 3 more; did you mean \"roce-lossless\"?");
  CHECK(list[2]["subjects"]["kind"] == "device");
  CHECK(list[2]["subjects"]["names"].size() == 5);
  CHECK(list[3]["severity"] == "warning");
  CHECK(list[3]["message"] == "device \"host9\" is on no link");
  CHECK(list[3]["subjects"].is_null());
}

TEST_CASE("validate -o json: a fabric that loaded is valid and counted, warnings and all") {
  Diags d;
  d.warning(at("inv/links.yaml", 3, 1), "link has no speed");
  const auto doc = nlohmann::json::parse(validate_json("inv", {}, d, ValidateCounts{5, 12, 6}));
  CHECK(doc["valid"] == true);
  CHECK(doc["summary"]["errors"] == 0);
  CHECK(doc["summary"]["warnings"] == 1);
  CHECK(doc["summary"]["devices"] == 5);
  CHECK(doc["summary"]["ports"] == 12);
  CHECK(doc["summary"]["links"] == 6);
}

// SONiC fidelity: the artifacts read the way the switch would take them. config_db.json goes through
// `config load` (sonic-cfggen --write-to-db: field by field, a null entry deleted; test_support.h
// load_config) and config_db.patch.json through `config apply-patch` (RFC 6902), each onto SONiC's
// default tables for ports with neighbours; both must give the same switch, without the template's
// leftovers. What the switch then holds is judged by SONiC's YANG models in tests/unit/sonic_yang_test.cpp
// and tests/cli/sonic_yang_rendered.sh.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "fixtures.h"
#include "platform/json_patch.h"
#include "platform/sonic/config_db.h"
#include "platform/sonic/config_db_patch.h"
#include "platform/sonic/default_config_db.h"
#include "platform/sonic/test_support.h"

using namespace fabricctl;
using namespace fabricctl::sonic;
using nlohmann::ordered_json;
using sonic::testing::applied;
using sonic::testing::check_holds;
using sonic::testing::fixture;

TEST_CASE("sonic artifacts converge: config load of config_db.json and apply-patch of the patch give one switch") {
  // From SONiC's default tables, with the documented semantics of each: `config load` merges field by
  // field and deletes only whole entries (test_support.h load_config); `config apply-patch` is RFC 6902.
  DeviceDesired d = fixture();
  SUBCASE("roce-lossless") {}
  SUBCASE("ECN off (roce-pfc-only)") {
    d.qos.ecn_enabled = false;
    d.qos.dcqcn.enabled = false;
  }
  SUBCASE("watchdog off") { d.qos.watchdog.enabled = false; }
  SUBCASE("no lossless priority") { d.qos.lossless.fill(false); }
  SUBCASE("lossless 3 and 4, ECN on both") {
    d.qos.lossless[4] = true;
    d.qos.priority_to_tc[4] = 4;
    d.qos.tc[4] = {true, false, 20};
    d.qos.tc[0].bandwidth_pct = 30;
    d.qos.ecn.push_back({4, 100000, 1000000, 5});
  }
  SUBCASE("lossless priority 2 only") {
    d.qos.lossless = {false, false, true, false, false, false, false, false};
    d.qos.priority_to_tc[2] = 2;
    d.qos.tc[2] = {true, false, 0};
  }
  SUBCASE("dynamic buffer model") { d.hardware.headroom_cable_rows_m.clear(); }
  SUBCASE("dynamic buffer model, watchdog and ECN off") {
    d.hardware.headroom_cable_rows_m.clear();
    d.qos.watchdog.enabled = false;
    d.qos.ecn_enabled = false;
    d.qos.dcqcn.enabled = false;
  }
  SUBCASE("no cable lengths") {
    for (auto& p : d.ports) p.cable_length_m = 0;
  }
  const ordered_json base = default_config_db(d);
  const ordered_json file = sonic::testing::parse_ordered(sonic::testing::render_artifact(d, "config_db.json"));
  const ordered_json patch = sonic::testing::parse_ordered(sonic::testing::render_artifact(d, "config_db.patch.json"));
  const ordered_json loaded = sonic::testing::load_config(base, file);
  const ordered_json patched = applied(base, patch);
  CHECK_MESSAGE(json_equal(loaded, patched), "config load:\n"
                                                 << loaded.dump(1) << "\napply-patch:\n"
                                                 << patched.dump(1));
  check_holds(patched, config_db(d));

  // What SONiC's template left on the device's ports is gone: no queue marks with AZURE_LOSSLESS, no
  // unused queue keeps an entry, the watchdog runs exactly where fabricctl wants it.
  for (const PortDesired& p : d.ports) {
    CAPTURE(p.name);
    for (int q = 0; q < kTrafficClasses; ++q) {
      const std::string key = p.name + "|" + std::to_string(q);
      CAPTURE(q);
      if (!d.qos.tc[static_cast<size_t>(q)].used) {
        CHECK_FALSE(patched["QUEUE"].contains(key));
        continue;
      }
      const std::string wred = patched["QUEUE"][key]["wred_profile"].get<std::string>();
      CHECK(wred != "AZURE_LOSSLESS");
      const bool marks = patched["WRED_PROFILE"][wred]["ecn"] != "ecn_none";
      bool want_marks = false;
      for (const EcnQueue& e : d.qos.ecn) want_marks = want_marks || (d.qos.ecn_enabled && e.tc == q);
      CHECK(marks == want_marks);
    }
    const ordered_json& qos = patched["PORT_QOS_MAP"][p.name];
    CHECK(qos["dscp_to_tc_map"] == "ROCE");
    const bool watchdog = d.qos.watchdog.enabled && !d.qos.lossless_priorities().empty();
    CHECK(patched.contains("PFC_WD") == (watchdog || patched["PFC_WD"].size() > 0));
    CHECK((patched.contains("PFC_WD") && patched["PFC_WD"].contains(p.name)) == watchdog);
    CHECK(qos["pfcwd_sw_enable"] == (watchdog ? qos["pfc_enable"] : ordered_json("")));
    if (d.hardware.headroom_cable_rows_m.empty()) {
      // Dynamic: exactly the lossless PGs get headroom, besides SONiC's lossy PG 0.
      std::set<std::string> pgs;
      for (const auto& [key, value] : patched["BUFFER_PG"].items())
        if (key.rfind(p.name + "|", 0) == 0 && value["profile"] == "NULL") pgs.insert(key.substr(p.name.size() + 1));
      std::set<std::string> want;
      if (d.qos.lossless_priorities() == std::vector<int>{3}) want = {"3"};
      if (d.qos.lossless_priorities() == std::vector<int>{3, 4}) want = {"3-4"};
      CHECK(pgs == want);
    }
  }
  // SONiC's DSCP map stays for ports fabricctl does not manage, but the switch-wide binding is ours.
  CHECK(patched["PORT_QOS_MAP"]["global"]["dscp_to_tc_map"] == "ROCE");
}

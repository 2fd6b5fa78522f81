// The plan's table at the size of a bring-up: a finding that differs only by port is one line, with the
// first ports named and the rest counted, and devices with the same findings name the first one's.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "cli/plan_report.h"
#include "util/text.h"

using namespace fabricctl;

namespace {

Result finding(const std::string& check, const std::string& device, const std::string& port,
               const std::string& expected, const std::string& observed) {
  Result r;
  r.check = check;
  r.status = Status::fail;
  r.a = {device, port};
  r.expected = expected;
  r.observed = observed;
  return r;
}

/// A switch at factory defaults: PFC off on `ports` ports, MTU 9100 wanted on all of them, one device-wide finding.
ops::DevicePlan factory_switch(const std::string& name, int ports) {
  ops::DevicePlan d;
  d.device = name;
  d.platform = Platform::sonic;
  d.change.text = "[{\"op\": \"add\"}]\n";
  for (int i = 0; i < ports; ++i)
    d.why.push_back(finding("port.pfc.drift", name, "Ethernet" + std::to_string(4 * i), "3", "none"));
  for (int i = 0; i < ports; ++i)
    d.why.push_back(finding("port.mtu.drift", name, "Ethernet" + std::to_string(4 * i), "9100", "1500"));
  d.why.push_back(finding("device.ecn.drift", name, "", "on", "off"));
  return d;
}

std::string table_of(const ops::FabricPlan& plan) {
  std::ostringstream out;
  write_plan_table(plan, out);
  return out.str();
}

}  // namespace

TEST_CASE("plan table: findings that differ only by port are one line, the first ports named") {
  ops::FabricPlan plan;
  plan.devices.push_back(factory_switch("leaf1", 32));
  const std::string t = table_of(plan);
  CHECK(t.find("port.pfc.drift Ethernet0, Ethernet4, Ethernet8, Ethernet12 and 28 more ports: expected 3, observed "
               "none\n") != std::string::npos);
  CHECK(t.find("port.mtu.drift Ethernet0, Ethernet4, Ethernet8, Ethernet12 and 28 more ports: expected 9100, "
               "observed 1500\n") != std::string::npos);
  CHECK(t.find("device.ecn.drift: expected on, observed off\n") != std::string::npos);
  // Three lines of WHY for 65 findings.
  CHECK(t.find("Ethernet16") == std::string::npos);
  CHECK(t.find("port.pfc.drift") == t.rfind("port.pfc.drift"));
}

TEST_CASE("plan table: a port whose finding differs keeps a line of its own; a few ports are all named") {
  ops::FabricPlan plan;
  ops::DevicePlan d = factory_switch("leaf1", 3);
  d.why.push_back(finding("port.pfc.drift", "leaf1", "Ethernet64", "3", "3,4"));
  plan.devices.push_back(d);
  const std::string t = table_of(plan);
  CHECK(t.find("port.pfc.drift Ethernet0, Ethernet4, Ethernet8: expected 3, observed none\n") != std::string::npos);
  CHECK(t.find("port.pfc.drift Ethernet64: expected 3, observed 3,4\n") != std::string::npos);
}

TEST_CASE("plan table: devices with the same findings name the first one's; each change is still shown") {
  ops::FabricPlan plan;
  for (const char* name : {"leaf1", "leaf2", "leaf3"}) plan.devices.push_back(factory_switch(name, 8));
  ops::DevicePlan other = factory_switch("leaf4", 8);
  other.why.back().observed = "on, 5%";
  plan.devices.push_back(other);
  const std::string t = table_of(plan);
  CHECK(t.find("leaf2   sonic     change     the same findings as leaf1\n") != std::string::npos);
  CHECK(t.find("leaf3   sonic     change     the same findings as leaf1\n") != std::string::npos);
  CHECK(t.find("device.ecn.drift: expected on, observed on, 5%\n") != std::string::npos);
  CHECK(t.find("leaf4   sonic     change     port.pfc.drift Ethernet0") != std::string::npos);
  CHECK(t.find("--- leaf3: ") != std::string::npos);
  CHECK(t.find("4 of 4 devices change; 0 unchanged.") != std::string::npos);
}

TEST_CASE("plan table: the summary form leaves the changes out and keeps the devices and the count") {
  ops::FabricPlan plan;
  plan.devices.push_back(factory_switch("leaf1", 2));
  std::ostringstream out;
  write_plan_table(plan, out, PlanChanges::left_out);
  CHECK(out.str().find("--- leaf1") == std::string::npos);
  CHECK(out.str().find("port.pfc.drift Ethernet0, Ethernet4: expected 3, observed none") != std::string::npos);
  CHECK(out.str().find("1 of 1 device changes; 0 unchanged.") != std::string::npos);
  CHECK(table_of(plan).find("--- leaf1: patch.json") != std::string::npos);
}

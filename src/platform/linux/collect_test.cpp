// The Linux collector's command line: the host's fabricctl and ports are quoted, and a value that is not
// a name fabricctl accepts (which the inventory refuses first) makes the line `false`, which runs nothing.
#include <doctest/doctest.h>

#include "fidelity_support.h"
#include "platform/platform.h"
#include "state/snapshot.h"

using namespace fabricctl;

TEST_CASE("linux collector: the host collect command line, every value quoted or refused") {
  const Collector c = adapter(Platform::linux_host).collector;
  REQUIRE(c.commands.size() == 1);
  const bool has_command_line = c.command_line != nullptr;
  REQUIRE(has_command_line);
  DeviceDesired d;
  d.name = "host1";
  d.platform = Platform::linux_host;
  PortDesired p;
  p.name = "ens1f0np0";
  d.ports.push_back(p);
  CHECK(c.command_line(c.commands[0], d, "/opt/fabricctl/bin/fabricctl") ==
        "'/opt/fabricctl/bin/fabricctl' host collect --device 'host1' --port 'ens1f0np0'");
  for (const char* bad : {"fabricctl;reboot", "-x", "$(reboot)", "a b", ""})
    CHECK(c.command_line(c.commands[0], d, bad) == "false");
  for (const char* bad : {"ens1'; reboot; '", "-rf", "e\x1b[2J", "$(x)"}) {
    DeviceDesired h = d;
    h.ports[0].name = bad;
    CHECK(c.command_line(c.commands[0], h, "fabricctl") == "false");
  }
  DeviceDesired h = d;
  h.name = "host1;reboot";
  CHECK(c.command_line(c.commands[0], h, "fabricctl") == "false");
}

TEST_CASE("linux collector: the snapshot the host printed, for that host only") {
  const Collector c = adapter(Platform::linux_host).collector;
  DeviceObserved o;
  o.name = "host1";
  o.platform = Platform::linux_host;
  PortObserved p;
  p.name = "ens1f0np0";
  p.mtu = 9000;
  o.ports.push_back(p);
  const RawOutputs raw{{"host-collect.json", write_snapshot(o)}};
  const auto got = c.observe("host1", raw);
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ports.at(0).mtu == 9000);
  const auto other = c.observe("host2", raw);
  REQUIRE_FALSE(other);
  CHECK(other.error() == "fabricctl host collect answered for device \"host1\", not host2");
  CHECK_FALSE(c.observe("host1", {{"host-collect.json", "fabricctl: error: not root\n"}}));
  CHECK_FALSE(c.observe("host1", {}));
}

// Junos fixes: the statements of config.set that set the setting, in configure ... commit confirmed.
#include <doctest/doctest.h>

#include "fixtures.h"
#include "platform/platform.h"

using namespace fabricctl;

namespace {

DeviceDesired leaf_to_fix() { return test::example_switch(Platform::junos, {"et-0/0/0", "et-0/0/1"}); }

std::string fix(Setting s, std::vector<int> keys = {}) {
  static const DeviceDesired d = leaf_to_fix();
  return fix_text(Fix{s, &d, &d.ports[1], std::move(keys)});
}

}  // namespace

TEST_CASE("junos fix: a port's MTU, and the objects a setting lives in with the port's binding") {
  CHECK(fix(Setting::mtu) == "configure\nset interfaces et-0/0/1 mtu 9114\ncommit confirmed 5");
  const std::string pfc = fix(Setting::pfc);
  CHECK(pfc.starts_with("configure\nset class-of-service forwarding-classes class FABRICCTL-TC0 queue-num 0\n"));
  CHECK(pfc.find("set class-of-service congestion-notification-profile FABRICCTL-CNP input dscp code-point 011010 "
                 "pfc\n") != std::string::npos);
  CHECK(
      pfc.ends_with("set class-of-service interfaces et-0/0/1 congestion-notification-profile FABRICCTL-CNP\n"
                    "commit confirmed 5"));
  CHECK(pfc.find("et-0/0/0") == std::string::npos);  // the other port's binding is not this fix's
  const std::string ecn = fix(Setting::ecn, {3});
  CHECK(ecn.find("set class-of-service drop-profiles FABRICCTL-ECN3-15000K interpolate fill-level 1\n") !=
        std::string::npos);
  CHECK(ecn.ends_with("set class-of-service interfaces et-0/0/1 scheduler-map FABRICCTL-SM\ncommit confirmed 5"));
  CHECK(fix(Setting::dscp_map)
            .ends_with(
                "set class-of-service interfaces et-0/0/1 unit 0 classifiers dscp FABRICCTL-DSCP\ncommit confirmed 5"));
  CHECK(fix(Setting::link_up) == "configure\ndelete interfaces et-0/0/1 disable\ncommit confirmed 5");
  CHECK(fix(Setting::cabling) == "show lldp neighbors interface et-0/0/1");
  CHECK(fix(Setting::dcqcn).empty());  // a host's
}

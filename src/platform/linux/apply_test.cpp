// The Linux host's write side, pure: the change from what `host collect` printed (empty for a host that
// holds its intent, one line per value that differs), the answer of another host refused, and the
// transaction's commands: the host's own fabricctl with every value quoted, and nothing run for values
// that are not what the inventory allows.
#include <doctest/doctest.h>

#include <string>

#include "fixtures.h"
#include "platform/platform.h"
#include "state/observed.h"
#include "state/snapshot.h"

using namespace fabricctl;

namespace {

RawOutputs collected(const DeviceObserved& observed) { return {{"host-collect.json", write_snapshot(observed)}}; }

NativeChange change_of(const DeviceDesired& d, const DeviceObserved& observed) {
  auto c = adapter(Platform::linux_host).applier.change(d, collected(observed));
  REQUIRE_MESSAGE(c, c.error());
  return *c;
}

}  // namespace

TEST_CASE("linux apply: a host that holds its intent has no change; a port's MTU off is one line") {
  const DeviceDesired host = test::example_host();
  CHECK(change_of(host, observed_from_desired(host)).empty());

  DeviceObserved off = observed_from_desired(host);
  REQUIRE(!off.ports.empty());
  off.ports.front().mtu = 1500;
  const NativeChange c = change_of(host, off);
  // One line, what `host apply` runs: the port back to its intent (ip-link(8)).
  CHECK(c.text ==
        "ip link set dev " + off.ports.front().name + " mtu " + std::to_string(host.ports.front().mtu) + "\n");
  // What the host is sent is its desired NIC state, whatever it holds now.
  CHECK(c.payload == linux_nic_state_json(host, linux_nic_state(host)));
}

TEST_CASE("linux apply: no snapshot, a broken one, or another host's answer is no change but an error") {
  const DeviceDesired host = test::example_host();
  const Applier& a = adapter(Platform::linux_host).applier;
  CHECK_FALSE(a.change(host, {}));
  CHECK_FALSE(a.change(host, {{"host-collect.json", "{\"schema\": "}}));
  DeviceObserved other = observed_from_desired(host);
  other.name = "host9";
  const auto c = a.change(host, collected(other));
  REQUIRE_FALSE(c);
  CHECK(c.error().find("\"host9\"") != std::string::npos);
}

TEST_CASE("linux apply: stage, confirm and rollback run the host's fabricctl, every value quoted") {
  DeviceDesired host = test::example_host();
  DeviceObserved off = observed_from_desired(host);
  off.ports.front().mtu = 1500;
  const NativeChange c = change_of(host, off);
  TransactionId id;
  id.name = "fabricctl-20261204T190000-a1b2c3";
  id.confirm_timeout_s = 120;
  id.fabricctl = "/opt/fabricctl-0.1/bin/fabricctl";
  const TransactionSteps s = adapter(Platform::linux_host).applier.steps(host, c, id);
  REQUIRE(s.stage.size() == 1);
  REQUIRE(s.confirm.size() == 1);
  REQUIRE(s.rollback.size() == 1);
  CHECK(s.stage[0].command == "'/opt/fabricctl-0.1/bin/fabricctl' host apply --device '" + host.name +
                                  "' --transaction 'fabricctl-20261204T190000-a1b2c3' --confirm-timeout '120'");
  CHECK(s.stage[0].input == c.payload);
  CHECK(s.confirm[0].command ==
        "'/opt/fabricctl-0.1/bin/fabricctl' host confirm --transaction 'fabricctl-20261204T190000-a1b2c3'");
  CHECK(s.rollback[0].command ==
        "'/opt/fabricctl-0.1/bin/fabricctl' host rollback --transaction 'fabricctl-20261204T190000-a1b2c3'");
  REQUIRE(s.extend.size() == 1);
  CHECK(s.extend[0].command ==
        "'/opt/fabricctl-0.1/bin/fabricctl' host extend --transaction "
        "'fabricctl-20261204T190000-a1b2c3' --confirm-timeout '120'");
  CHECK(s.window_s == 120);

  // No change: no step at all.
  CHECK(adapter(Platform::linux_host).applier.steps(host, NativeChange{}, id).stage.empty());

  // A transaction name outside [a-z0-9T-], or a program path that is not one (a space, a newline): every
  // command is `false`.
  for (const auto& bad : {std::pair{std::string("fabricctl-x;reboot"), std::string("fabricctl")},
                          std::pair{std::string("fabricctl-1"), std::string("/opt/fabric ctl/fabricctl")},
                          std::pair{std::string("fabricctl-1"), std::string("fabricctl\n; reboot")}}) {
    TransactionId b = id;
    b.name = bad.first;
    b.fabricctl = bad.second;
    const TransactionSteps t = adapter(Platform::linux_host).applier.steps(host, c, b);
    REQUIRE(t.stage.size() == 1);
    CHECK(t.stage[0].command == "false");
    CHECK(t.confirm[0].command == "false");
    CHECK(t.rollback[0].command == "false");
    CHECK(t.extend[0].command == "false");
  }
}

TEST_CASE("linux apply: the check asks the host for a transaction in flight, with or without a change") {
  const Applier& a = adapter(Platform::linux_host).applier;
  const DeviceDesired host = test::example_host();
  TransactionId id;
  id.fabricctl = "/opt/fabricctl-0.1/bin/fabricctl";
  const std::vector<RemoteStep> check = a.check(host, NativeChange{}, id);
  REQUIRE(check.size() == 1);
  CHECK(check[0].command == "'/opt/fabricctl-0.1/bin/fabricctl' host pending");
  CHECK(a.failure(check[0], {0, "", ""}).empty());
  CHECK(a.failure(check[0], {0, "fabricctl-20261204T190000-a1b2c3 1796000000\n", ""}) ==
        "a fabricctl transaction is staged on the host and not confirmed: fabricctl-20261204T190000-a1b2c3 (its "
        "timer restores the NIC state at 2026-11-30T00:53:20Z); confirm or undo it with `fabricctl apply "
        "--resume|--undo RECORD`, or wait");
  // A record from before deadlines were kept: no time to say.
  CHECK(
      a.failure(check[0], {0, "fabricctl-20261204T190000-a1b2c3 0\n", ""}).find("(its timer restores the NIC state)") !=
      std::string::npos);
  // Device output is untrusted: a line of another shape is an error, never read as a name.
  CHECK(a.failure(check[0], {0, "fabricctl-x \x1b[31m 3\n", ""}).starts_with(check[0].what + ": not a line of"));
  // A host whose fabricctl has no `host pending` cannot tell: not refused.
  CHECK(a.failure(check[0], {2, "", "fabricctl: error: unknown host subcommand \"pending\"; the ones ...\n"}).empty());
  CHECK_FALSE(a.failure(check[0], {3, "", "fabricctl: error: cannot read\n"}).empty());
  id.fabricctl = "fabricctl\n; reboot";
  CHECK(a.check(host, NativeChange{}, id)[0].command == "false");
}

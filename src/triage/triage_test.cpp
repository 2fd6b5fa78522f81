// triage on reports built by hand: each check lands in its layer; a storm's pauses are evidence under it,
// not a suspect; a cable fault outranks the congestion it causes; what each layer ruled out is counted;
// the table and JSON say it, and a hostile message reaches neither raw.
#include "triage/triage.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <sstream>

#include "triage/triage_report.h"

using namespace fabricctl;

namespace {

Result finding(std::string check, Endpoint a, std::optional<Endpoint> b, Severity s = Severity::error) {
  Result r;
  r.check = std::move(check);
  r.status = Status::fail;
  r.severity = s;
  r.a = std::move(a);
  r.b = std::move(b);
  r.message = r.check + " on " + r.object();
  r.hint = "look at " + r.a.str() + "\nthen at its peer";
  return r;
}

/// A report that ran `checks`, each passing `passed` times.
VerifyReport report(std::vector<std::string> checks, size_t passed) {
  VerifyReport r;
  r.checks_run = std::move(checks);
  r.check_tallies.assign(r.checks_run.size(), {passed, 0});
  r.devices_checked = 5;
  return r;
}

const Endpoint kHost{"host1", "ens1f0np0"}, kLeaf{"leaf1", "Ethernet0"};
const LinkRef kLink{kHost, kLeaf};

}  // namespace

TEST_CASE("triage: every check has its layer") {
  CHECK(layer_of("health.link.flap") == Layer::physical);
  CHECK(layer_of("link.oper.down") == Layer::physical);
  CHECK(layer_of("cabling.swapped") == Layer::physical);
  CHECK(layer_of("port.speed.drift") == Layer::physical);
  CHECK(layer_of("port.pfc.drift") == Layer::config);
  CHECK(layer_of("link.mtu.mismatch") == Layer::config);
  CHECK(layer_of("health.pfc.storm") == Layer::congestion);
  CHECK(layer_of("health.dcqcn.cnp") == Layer::congestion);
  CHECK(layer_of("health.lossless.drops") == Layer::congestion);
  CHECK(layer_of("health.rdma.retransmissions") == Layer::rdma);
  CHECK(layer_of("link.roce.class") == Layer::rdma);
  CHECK(layer_of("nccl.tc.lossy") == Layer::rdma);
}

TEST_CASE("triage: a storm and its pauses are one suspect, the link; its consequences are evidence") {
  VerifyReport config = report({"port.pfc.drift", "link.oper.down"}, 10);
  VerifyReport health = report({"health.pfc.storm", "health.pfc.pauses"}, 3);
  Result storm = finding("health.pfc.storm", kHost, kLeaf);
  storm.link = kLink;
  Result pauses = finding("health.pfc.pauses", kHost, kLeaf, Severity::warning);
  pauses.status = Status::consequence;
  pauses.cause = "health.pfc.storm " + storm.object();
  pauses.link = kLink;
  health.results = {pauses, storm};  // a consequence may come first: it still goes under its cause
  const TriageReport t = triage(config, health);
  REQUIRE(t.suspects.size() == 1);
  CHECK(t.suspects[0].place == "host1:ens1f0np0~leaf1:Ethernet0");
  CHECK(t.suspects[0].layer == Layer::congestion);
  REQUIRE(t.suspects[0].evidence.size() == 2);
  CHECK(t.suspects[0].evidence[0].check == "health.pfc.storm");
  CHECK(t.suspects[0].evidence[1].status == Status::consequence);
  // Layers: physical and config ruled out by verify's passes, congestion has the one finding.
  CHECK(t.layers[0].layer == Layer::physical);
  CHECK(t.layers[0].passed == 10);
  CHECK(t.layers[0].findings == 0);
  CHECK(t.layers[2].findings == 1);
  CHECK(t.layers[2].passed == 6);
  CHECK(t.layers[3].checks == 0);
}

TEST_CASE("triage: a physical fault comes before the congestion elsewhere; findings on both ends are one place") {
  VerifyReport config = report({"link.oper.down"}, 0);
  VerifyReport health = report({"health.link.errors", "health.pfc.pauses"}, 0);
  Result pauses =
      finding("health.pfc.pauses", {"host2", "ens1f0np0"}, Endpoint{"leaf1", "Ethernet8"}, Severity::warning);
  pauses.link = LinkRef{{"host2", "ens1f0np0"}, {"leaf1", "Ethernet8"}};
  // The errors counted on the switch's end name it first; the link is still the host's.
  Result errors = finding("health.link.errors", kLeaf, kHost);
  errors.link = kLink;
  Result down = finding("link.oper.down", kHost, kLeaf);
  down.link = kLink;
  health.results = {pauses, errors};
  config.results = {down};
  const TriageReport t = triage(config, health);
  REQUIRE(t.suspects.size() == 2);
  CHECK(t.suspects[0].place == "host1:ens1f0np0~leaf1:Ethernet0");
  CHECK(t.suspects[0].evidence.size() == 2);
  CHECK(t.suspects[1].place == "host2:ens1f0np0~leaf1:Ethernet8");
  CHECK(t.suspects[1].severity == Severity::warning);
  CHECK(triage_exit_code(t) == 1);
}

TEST_CASE("triage: the reports say it; a clean fabric has no suspect; an unreadable device is exit 3") {
  VerifyReport config = report({"port.pfc.drift"}, 4);
  VerifyReport health = report({"health.dcqcn.cnp"}, 2);
  TriageReport t = triage(config, health);
  CHECK(t.suspects.empty());
  CHECK(triage_exit_code(t) == 0);
  std::ostringstream table;
  write_triage_table(t, table);
  CHECK(table.str().find("Triage of 5 devices: no suspect\n") == 0);
  CHECK(table.str().find("  config      ruled out: 4 results of 1 check passed\n") != std::string::npos);
  CHECK(table.str().find("  physical    not checked\n") != std::string::npos);

  Result cnp = finding("health.dcqcn.cnp", kHost, kLeaf, Severity::warning);
  cnp.message = "no CNP \x1b[2J from \xff";
  health.results = {cnp};
  health.unreadable["spine1"] = "second reading: timed out";
  t = triage(config, health);
  CHECK(triage_exit_code(t) == 3);
  table.str("");
  write_triage_table(t, table);
  CHECK(table.str().find('\x1b') == std::string::npos);
  CHECK(table.str().find("1. host1:ens1f0np0~leaf1:Ethernet0  [congestion, warning]\n") != std::string::npos);
  CHECK(table.str().find("       do: look at host1:ens1f0np0\n       do: then at its peer\n") != std::string::npos);
  CHECK(table.str().find("not read: spine1: second reading: timed out\n") != std::string::npos);
  std::ostringstream json;
  write_triage_json(t, json);
  const auto j = nlohmann::json::parse(json.str());
  CHECK(j["format"] == "fabricctl.triage/v1");
  CHECK(j["suspects"][0]["rank"] == 1);
  CHECK(j["suspects"][0]["evidence"][0]["check"] == "health.dcqcn.cnp");
  CHECK(j["suspects"][0]["evidence"][0]["message"] == "no CNP \x1b[2J from \xef\xbf\xbd");
  CHECK(j["layers"][2]["layer"] == "congestion");
  CHECK(j["unreadable"]["spine1"] == "second reading: timed out");
}

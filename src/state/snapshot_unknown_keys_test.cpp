// Unknown keys in a v1 snapshot are skipped with a warning, at every level of the format, so that a
// collector writing a newer key can be rolled out before the readers (docs/snapshots.md#versions).
// Everything else stays strict, and the warnings stay bounded however many keys a file holds.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "state/snapshot.h"
#include "temp_dir.h"

using namespace fabricctl;
namespace fs = std::filesystem;
using fabricctl::test::spit;
using fabricctl::test::TempDir;

namespace {

// The start of a snapshot of `device`, up to its first key after "device".
std::string doc_head(const std::string& device = "leaf1") {
  return R"({"schema": "fabricctl.snapshot/v1", "device": ")" + device + "\", ";
}

// A snapshot of `device` with one port Ethernet0 whose body is `fields`.
std::string doc_with(const std::string& fields, const std::string& device = "leaf1") {
  return doc_head(device) + R"("ports": {"Ethernet0": {)" + fields + "}}}";
}

}  // namespace

TEST_CASE("snapshot: an unknown key at any level is skipped and named, and the rest is read") {
  // One unknown key in every object of the format that has fixed keys, each beside a known one.
  const std::string text = R"({"schema": "fabricctl.snapshot/v1", "device": "host1", "site": "dc1",
    "nccl": {"traffic_class": 106, "nccl_debug": "WARN"},
    "ports": {"ens1f0np0": {"mtu": 9000, "fec": "rs",
      "ets": [{"tc": 3, "tsa": "ets", "bandwidth_pct": 100, "credits": 1}],
      "ecn": [{"tc": 3, "min_bytes": 1, "max_bytes": 2, "probability_pct": 5, "mode": "red"}],
      "pfc_watchdog": {"enabled": false, "big_red_button": true},
      "dcqcn": {"rp_enabled": [3], "np_enabled": [3], "cc_algo": 1, "rp": {"rpg_ai_rate": 5, "rpg_ai_rat": 6}},
      "rdma": {"device": "mlx5_0", "port": 1, "lid": 0,
               "gids": [{"index": 3, "type": "RoCE v2", "gid": "::ffff:10.0.0.1", "netdev": "ens1f0np0"}]},
      "lldp": {"system_name": "leaf1", "chassis_id": "aa:bb"}}}})";
  UnknownKeys unknown;
  auto d = parse_snapshot(text, &unknown);
  REQUIRE(d.has_value());
  CHECK(d->unreadable_ports.empty());
  // In document order: the path of the object, then the key, quoted.
  CHECK(unknown.shown ==
        std::vector<std::string>{
            R"(unknown key "site" ignored)",
            R"(nccl: unknown key "nccl_debug" ignored)",
            R"(ports.ens1f0np0: unknown key "fec" ignored)",
            R"(ports.ens1f0np0.ets[0]: unknown key "credits" ignored)",
            R"(ports.ens1f0np0.ecn[0]: unknown key "mode" ignored)",
            R"(ports.ens1f0np0.pfc_watchdog: unknown key "big_red_button" ignored)",
            R"(ports.ens1f0np0.dcqcn: unknown key "cc_algo" ignored)",
            R"(ports.ens1f0np0.dcqcn.rp: unknown key "rpg_ai_rat" ignored; did you mean "rpg_ai_rate"?)",
            R"(ports.ens1f0np0.rdma: unknown key "lid" ignored)",
            R"(ports.ens1f0np0.rdma.gids[0]: unknown key "netdev" ignored)",
            R"(ports.ens1f0np0.lldp: unknown key "chassis_id" ignored)",
        });
  CHECK(unknown.count == 11);
  // The known keys beside them are read, and writing back drops only the unknown ones.
  const PortObserved& p = d->ports.at(0);
  CHECK(p.mtu == 9000);
  CHECK((*p.tc)[3].bandwidth_pct == 100);
  CHECK(p.ecn->at(0).probability_pct == 5);
  CHECK_FALSE(p.watchdog->enabled);
  CHECK(p.dcqcn->rp == std::map<std::string, int, std::less<>>{{"rpg_ai_rate", 5}});
  CHECK(p.rdma->gids.at(0).index == 3);
  CHECK(p.lldp->system_name == "leaf1");
  CHECK(d->nccl->traffic_class == 106);
  const std::string written = write_snapshot(*d);
  for (const char* key : {"site", "nccl_debug", "fec", "credits", "mode", "cc_algo", "rpg_ai_rat", "lid", "netdev"})
    CHECK(written.find("\"" + std::string(key) + "\"") == std::string::npos);
  UnknownKeys again;
  REQUIRE(parse_snapshot(written, &again).has_value());
  CHECK(again.count == 0);
}

TEST_CASE("snapshot: unknown keys are named safely, not walked, and a near miss gets a suggestion") {
  UnknownKeys unknown;
  // The value of an unknown key is not read: one warning for the key, none for what it holds.
  REQUIRE(parse_snapshot(doc_with(R"("mtuu": 9100, "\u001b[2J": {"x": {"y": [1, {"z": 2}]}})"), &unknown));
  CHECK(unknown.shown == std::vector<std::string>{R"(ports.Ethernet0: unknown key "mtuu" ignored; did you mean "mtu"?)",
                                                  R"(ports.Ethernet0: unknown key "\x1b[2J" ignored)"});
}

TEST_CASE("snapshot: everything but unknown keys stays strict") {
  UnknownKeys unknown;
  // A bad value beside an unknown key still makes its port unreadable...
  auto d = parse_snapshot(doc_with(R"("future": 1, "mtu": "9100")"), &unknown);
  REQUIRE(d.has_value());
  CHECK(d->unreadable_ports.at("Ethernet0") == R"(ports.Ethernet0.mtu: expected an integer, got a string "9100")");
  CHECK(unknown.count == 1);
  // ... a duplicate key, unknown or not, still rejects the file ...
  CHECK(parse_snapshot(doc_with(R"("future": 1, "future": 2)")).error() == "ports.Ethernet0.future: duplicate key");
  // ... so does a bad value outside the ports, and then nothing is reported as skipped: the error is.
  UnknownKeys none;
  const auto bad = parse_snapshot(doc_head() + R"("site": "dc1", "platform": "test-nos", "ports": {}})", &none);
  CHECK(bad.error() == R"(platform: "test-nos" is not one of "sonic", "eos", "nvue", "linux", "nxos", "junos")");
  CHECK(none.count == 0);
  CHECK(none.shown.empty());
  // A required key is still required, whatever else the object holds.
  CHECK(parse_snapshot(doc_with(R"("ets": [{"tc": 3, "bandwidth_pct": 0, "tsa_v2": "strict"}])"))
            ->unreadable_ports.at("Ethernet0") == R"(ports.Ethernet0.ets[0]: missing required key "tsa")");
  // Another major version is refused before any key is looked at.
  CHECK(parse_snapshot(R"({"schema": "fabricctl.snapshot/v2", "device": "leaf1", "ports": {}, "new": 1})").error() ==
        R"(schema: unsupported snapshot schema "fabricctl.snapshot/v2"; this fabricctl reads "fabricctl.snapshot/v1")");
}

TEST_CASE("snapshot: 100,000 unknown keys are counted, and only the first few worded") {
  std::string fields;
  constexpr size_t kKeys = 100'000;
  for (size_t i = 0; i < kKeys; ++i) fields += "\"k" + std::to_string(i) + "\": 0, ";
  UnknownKeys unknown;
  const auto d = parse_snapshot(doc_with(fields + R"("mtu": 9100)"), &unknown);
  REQUIRE(d.has_value());
  CHECK(d->ports.at(0).mtu == 9100);
  CHECK(unknown.count == kKeys);
  REQUIRE(unknown.shown.size() == kMaxUnknownKeysShown);
  CHECK(unknown.shown.front() == R"(ports.Ethernet0: unknown key "k0" ignored)");
  CHECK(unknown.shown.back() == R"(ports.Ethernet0: unknown key "k19" ignored)");
}

TEST_CASE("snapshot: read_snapshot_dir warns of unknown keys with the file, at most 20 lines a run") {
  TempDir tmp;
  const std::string d = tmp.path.string();
  std::string many;
  for (int i = 0; i < 30; ++i) many += "\"k" + std::to_string(i) + "\": 0, ";
  spit(tmp.path / "leaf1.json", doc_with(R"("mtuu": 9100)"));
  spit(tmp.path / "leaf2.json", doc_with(many + R"("mtu": 9100)", "leaf2"));
  spit(tmp.path / "leaf3.json", doc_with(R"("mtu": 9100)", "leaf3"));
  // A file that does not read reports its error, not its unknown keys.
  spit(tmp.path / "leaf4.json", doc_with(R"("stray": 1)", "leaf9"));

  const SnapshotSet set = read_snapshot_dir(tmp.path, {"leaf1", "leaf2", "leaf3", "leaf4"});
  CHECK(set.observed.devices.size() == 3);
  CHECK(set.observed.devices.at("leaf1").ports.at(0).name == "Ethernet0");
  CHECK(set.observed.unreadable.count("leaf4") == 1);
  REQUIRE(set.warnings.size() == kMaxUnknownKeysShown + 1);
  CHECK(set.warnings[0] == d + R"(/leaf1.json: ports.Ethernet0: unknown key "mtuu" ignored; did you mean "mtu"?)");
  CHECK(set.warnings[1] == d + R"(/leaf2.json: ports.Ethernet0: unknown key "k0" ignored)");
  CHECK(set.warnings[19] == d + R"(/leaf2.json: ports.Ethernet0: unknown key "k18" ignored)");
  CHECK(set.warnings[20] == "ignored 11 more unknown keys (31 in 2 snapshot files)");

  // Without unknown keys, no warning.
  const SnapshotSet clean = read_snapshot_dir(tmp.path, {"leaf3"}, {"leaf1", "leaf2", "leaf3", "leaf4"});
  CHECK(clean.warnings.empty());
}

#include "state/snapshot.h"

#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <chrono>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "fixtures.h"
#include "temp_dir.h"

using namespace fabricctl;
namespace fs = std::filesystem;
using fabricctl::test::spit;
using fabricctl::test::TempDir;

namespace {

/// The error of a snapshot that does not parse, or else why its first unreadable port could not be read
/// (a bad port makes only that port unreadable).
std::string error_of(std::string_view text) {
  auto r = parse_snapshot(text);
  if (!r) return r.error();
  if (!r->unreadable_ports.empty()) return r->unreadable_ports.begin()->second;
  return "<parsed>";
}

DeviceObserved parsed(std::string_view text) {
  auto r = parse_snapshot(text);
  if (!r) FAIL("unexpected error: " << r.error());
  return std::move(r).value();
}

// A snapshot of leaf1 with one port, Ethernet0 unless named, whose body is `fields`.
std::string doc(const std::string& fields, const std::string& port = "Ethernet0") {
  return R"({"schema": "fabricctl.snapshot/v1", "device": "leaf1", "ports": {")" + port + "\": {" + fields + "}}}";
}

DeviceObserved example_switch() {
  DeviceObserved d =
      observed_from_desired(test::example_switch(Platform::sonic, {"Ethernet8", "Ethernet0", "Ethernet16"}));
  d.collected_at = "2026-11-30T06:00:00Z";
  d.source = "fabricctl collect";
  d.ports[0].counters = {{"pfc_rx_pause_3", 12}, {"ecn_marked_3", 18446744073709551615ULL}};
  return d;
}

DeviceObserved example_host() {
  DeviceObserved d = observed_from_desired(test::example_host());
  d.collected_at = "2026-11-30T06:00:00.123Z";
  d.ports[1].oper_up = false;
  d.ports[1].rdma->active = false;
  // What a collector reads of the DCQCN parameters, whether the profile sets them or not.
  d.ports[1].dcqcn->rp = {{"rpg_time_reset", 300}, {"rpg_ai_rate", 5}};
  d.ports[1].dcqcn->min_time_between_cnps = 0;
  d.nccl->gid_index = 3;  // a site's own pin, read from its nccl.conf
  return d;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh directory under the temporary directory, removed with everything in it.
}  // namespace

TEST_CASE("snapshot: write, parse, write is byte-identical") {
  for (const DeviceObserved& d : {example_switch(), example_host()}) {
    CAPTURE(d.name);
    const std::string text = write_snapshot(d);
    CHECK(text.ends_with("}\n"));
    CHECK(write_snapshot(parsed(text)) == text);
    // The same state listed in another order (ports, ECN queues, GIDs) writes the same bytes.
    DeviceObserved permuted = d;
    REQUIRE(permuted.ports.size() >= 2);
    std::reverse(permuted.ports.begin(), permuted.ports.end());
    for (PortObserved& p : permuted.ports) {
      if (p.ecn) std::reverse(p.ecn->begin(), p.ecn->end());
      if (p.rdma) std::reverse(p.rdma->gids.begin(), p.rdma->gids.end());
    }
    CHECK(write_snapshot(permuted) == text);
  }
}

TEST_CASE("snapshot: parsed state equals the written state") {
  const DeviceObserved sw = parsed(write_snapshot(example_switch()));
  CHECK(sw.name == "leaf1");
  CHECK(sw.platform == Platform::sonic);
  CHECK(sw.collected_at == "2026-11-30T06:00:00Z");
  CHECK(sw.source == "fabricctl collect");
  REQUIRE(sw.ports.size() == 3);
  CHECK(sw.ports[0].name == "Ethernet0");  // natural order, whatever the input order
  CHECK(sw.ports[1].name == "Ethernet8");
  CHECK(sw.ports[2].name == "Ethernet16");
  const PortObserved& p = *sw.port("Ethernet8");
  CHECK(p.mtu == 9100);
  CHECK(p.speed_mbps == 400000);
  CHECK(p.oper_up == true);
  CHECK(p.trust == Trust::dscp);
  CHECK((*p.dscp_to_priority)[26] == 3);
  CHECK((*p.dscp_to_priority)[48] == 6);
  CHECK((*p.lossless) == std::array<bool, 8>{false, false, false, true, false, false, false, false});
  CHECK((*p.priority_to_tc)[6] == 6);
  CHECK((*p.tc)[0].used);
  CHECK_FALSE((*p.tc)[0].strict);
  CHECK((*p.tc)[0].bandwidth_pct == 50);
  CHECK_FALSE((*p.tc)[1].used);
  CHECK((*p.tc)[6].strict);
  REQUIRE(p.ecn->size() == 1);
  CHECK((*p.ecn)[0].tc == 3);
  CHECK((*p.ecn)[0].min_bytes == 153600);
  CHECK((*p.ecn)[0].max_bytes == 1536000);
  CHECK((*p.ecn)[0].probability_pct == 20);
  CHECK(p.watchdog->enabled);
  CHECK(p.watchdog->detection_ms == 200);
  CHECK(p.watchdog->action == WatchdogAction::drop);
  CHECK_FALSE(p.dcqcn);
  CHECK_FALSE(p.rdma);
  CHECK(p.lldp->system_name == "host1");
  CHECK(p.counters.at("ecn_marked_3") == 18446744073709551615ULL);

  const DeviceObserved host = parsed(write_snapshot(example_host()));
  const PortObserved& h = host.ports.at(1);
  CHECK(h.name == "ens2f0np0");
  CHECK(h.oper_up == false);
  CHECK(h.dcqcn->rp_enabled[3]);
  CHECK_FALSE(h.dcqcn->np_enabled[2]);
  CHECK(h.dcqcn->cnp_dscp == 48);
  CHECK(h.dcqcn->cnp_priority == 6);
  CHECK(h.dcqcn->rp == std::map<std::string, int, std::less<>>{{"rpg_ai_rate", 5}, {"rpg_time_reset", 300}});
  CHECK(h.dcqcn->min_time_between_cnps == 0);
  CHECK(host.ports.at(0).dcqcn->rp.empty());
  CHECK_FALSE(host.ports.at(0).dcqcn->min_time_between_cnps);
  CHECK(h.rdma->device == "mlx5_1");
  CHECK(h.rdma->active == false);
  CHECK(h.rdma->active_mtu == 4096);
  REQUIRE(h.rdma->gids.size() == 4);
  CHECK(h.rdma->gids[1].type == "RoCE v2");
  CHECK(h.rdma->cm_tos == 106);
  CHECK(h.rdma->tos_override == 106);
  REQUIRE(host.nccl);
  CHECK(host.nccl->traffic_class == 106);
  CHECK(host.nccl->gid_index == 3);
  CHECK_FALSE(sw.nccl);
  CHECK_FALSE(h.ecn);
  CHECK(h.counters.empty());
}

TEST_CASE("snapshot: the written text is pinned") {
  DeviceObserved d = observed_from_desired(test::example_switch(Platform::sonic, {"Ethernet0"}));
  d.collected_at = "2026-11-30T06:00:00Z";
  d.source = "fabricctl collect";
  d.ports[0].counters = {{"pfc_rx_pause_3", 0}, {"pfc_tx_pause_3", 7}};
  CHECK(write_snapshot(d) == R"({
  "schema": "fabricctl.snapshot/v1",
  "device": "leaf1",
  "platform": "sonic",
  "collected_at": "2026-11-30T06:00:00Z",
  "source": "fabricctl collect",
  "ports": {
    "Ethernet0": {
      "mtu": 9100,
      "speed_mbps": 400000,
      "oper_status": "up",
      "trust": "dscp",
      "dscp_to_priority": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      "pfc_enabled": [3],
      "priority_to_tc": [0, 0, 0, 3, 0, 0, 6, 0],
      "ets": [
        {"tc": 0, "tsa": "ets", "bandwidth_pct": 50},
        {"tc": 3, "tsa": "ets", "bandwidth_pct": 50},
        {"tc": 6, "tsa": "strict", "bandwidth_pct": 0}
      ],
      "ecn": [
        {"tc": 3, "min_bytes": 153600, "max_bytes": 1536000, "probability_pct": 20}
      ],
      "pfc_watchdog": {
        "enabled": true,
        "poll_interval_ms": 100,
        "detection_ms": 200,
        "restoration_ms": 200,
        "action": "drop"
      },
      "lldp": {
        "system_name": "host1",
        "port_id": "eth0"
      },
      "counters": {
        "pfc_rx_pause_3": 0,
        "pfc_tx_pause_3": 7
      }
    }
  }
}
)");
}

TEST_CASE("snapshot: absent means not collected, empty lists stay empty") {
  DeviceObserved d;
  d.name = "leaf9";
  PortObserved p;
  p.name = "Ethernet4";
  p.ecn = std::vector<EcnQueue>{};  // ECN collected: no queue marks
  p.lossless = std::array<bool, kPriorities>{};
  d.ports.push_back(p);
  const std::string text = write_snapshot(d);
  CHECK(text == R"({
  "schema": "fabricctl.snapshot/v1",
  "device": "leaf9",
  "ports": {
    "Ethernet4": {
      "pfc_enabled": [],
      "ecn": []
    }
  }
}
)");
  const DeviceObserved back = parsed(text);
  CHECK_FALSE(back.platform);
  CHECK_FALSE(back.ports[0].mtu);
  CHECK_FALSE(back.ports[0].trust);
  REQUIRE(back.ports[0].ecn);
  CHECK(back.ports[0].ecn->empty());
  CHECK(parsed(R"({"schema": "fabricctl.snapshot/v1", "device": "h", "ports": {}})").ports.empty());
  // Non-ASCII text is escaped, so the bytes are ASCII whatever the input.
  d.ports[0].lldp = LldpNeighbor{"h\xc3\xa9te", "p1"};
  CHECK(write_snapshot(d).find(R"("system_name": "h\u00e9te")") != std::string::npos);
  CHECK(parsed(write_snapshot(d)).ports[0].lldp->system_name == "h\xc3\xa9te");
}

TEST_CASE("snapshot: malformed input is rejected with an exact message") {
  const std::string deep = std::string(20, '[') + std::string(20, ']');
  std::string many_ports = R"({"schema": "fabricctl.snapshot/v1", "device": "leaf1", "ports": {)";
  for (int i = 0; i < 4097; ++i) many_ports += (i ? ", " : "") + ("\"Ethernet" + std::to_string(i) + "\": {}");
  many_ports += "}}";
  std::string many_counters;
  for (int i = 0; i < 1025; ++i) many_counters += (i ? ", " : "") + ("\"c" + std::to_string(i) + "\": 1");
  std::string many_gids;
  for (int i = 0; i < 257; ++i)
    many_gids += (i ? ", " : "") + ("{\"index\": " + std::to_string(i) + ", \"type\": \"IB\", \"gid\": \"fe80::1\"}");
  // n integers, all 0 but the one at index `at`, which is `value`.
  auto ints = [](int n, int at = -1, int value = 0) {
    std::string s;
    for (int i = 0; i < n; ++i) s += (i ? "," : "") + std::to_string(i == at ? value : 0);
    return s;
  };
  std::string oversize = doc(R"("mtu": 9100)");
  oversize += std::string(kMaxSnapshotBytes + 1 - oversize.size(), ' ');

  struct Case {
    std::string name;
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"empty text", "",
       "invalid JSON at line 1, column 1 (byte offset 0): syntax error while parsing value - unexpected end of input; "
       "expected '[', '{', or a literal"},
      {"trailing comma", R"({"schema": "fabricctl.snapshot/v1",})",
       "invalid JSON at line 1, column 36 (byte offset 35): syntax error while parsing object key - unexpected '}'; "
       "expected string literal"},
      {"bad literal on line 3", "{\n  \"schema\": \"fabricctl.snapshot/v1\",\n  \"device\": tru\n}",
       "invalid JSON at line 3, column 16 (byte offset 54): syntax error while parsing value - invalid literal"},
      {"trailing garbage", R"({"schema": "fabricctl.snapshot/v1"} x)",
       "invalid JSON at line 1, column 37 (byte offset 36): syntax error while parsing value - invalid literal; "
       "expected end of input"},
      {"invalid UTF-8", doc("\"trust\": \"d\xff\""),
       "invalid JSON at line 1, column 91 (byte offset 90): syntax error while parsing value - invalid string: "
       "ill-formed UTF-8 byte"},
      {"deep nesting", R"({"schema": "fabricctl.snapshot/v1", "x": )" + deep + "}",
       "x[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]: nesting deeper than 16 levels"},
      {"duplicate key", doc(R"("mtu": 9100, "mtu": 1500)"), "ports.Ethernet0.mtu: duplicate key"},
      {"oversize text", oversize, "snapshot is 16777217 bytes, more than the limit of 16777216 bytes (16 MiB)"},
      {"top level is an array", "[1]", "expected a JSON object at the top level, got an array"},
      {"missing schema", R"({"device": "leaf1", "ports": {}})",
       R"(missing required key "schema"; is this a fabricctl snapshot?)"},
      {"newer major version", R"({"schema": "fabricctl.snapshot/v2", "device": "leaf1", "ports": {}, "new": 1})",
       R"(schema: unsupported snapshot schema "fabricctl.snapshot/v2"; this fabricctl reads "fabricctl.snapshot/v1")"},
      {"not a snapshot schema", R"({"schema": "openconfig", "device": "leaf1", "ports": {}})",
       R"(schema: "openconfig" is not a fabricctl snapshot schema; expected "fabricctl.snapshot/v1")"},
      {"schema of the wrong type", R"({"schema": 1})", R"(schema: expected a string, got a number "1")"},
      {"missing device", R"({"schema": "fabricctl.snapshot/v1", "ports": {}})", R"(missing required key "device")"},
      {"missing ports", R"({"schema": "fabricctl.snapshot/v1", "device": "leaf1"})", R"(missing required key "ports")"},
      {"device name with a slash", R"({"schema": "fabricctl.snapshot/v1", "device": "../etc", "ports": {}})",
       R"(device: "../etc" is not a valid device name (1-63 characters: letters, digits, . _ -; starting with a letter or digit))"},
      {"unknown platform",
       R"({"schema": "fabricctl.snapshot/v1", "device": "leaf1", "platform": "test-nos", "ports": {}})",
       R"(platform: "test-nos" is not one of "sonic", "eos", "nvue", "linux", "nxos", "junos")"},
      {"bad collected_at",
       R"({"schema": "fabricctl.snapshot/v1", "device": "leaf1", "collected_at": "2026-02-30T06:00:00Z", "ports": {}})",
       R"(collected_at: "2026-02-30T06:00:00Z" is not an RFC 3339 UTC time such as "2026-11-30T06:00:00Z")"},
      {"port name with ';'", doc(R"("mtu": 9100)", "Ethernet0;reboot"),
       R"(ports: invalid port name "Ethernet0;reboot" (1-63 characters: letters, digits, / . _ : -))"},
      {"too many ports", many_ports, "ports: 4097 ports are more than the limit of 4096"},
      {"port is not an object", doc("").replace(doc("").find("{}"), 2, "9100"),
       R"(ports.Ethernet0: expected an object, got a number "9100")"},
      {"MTU as a string", doc(R"("mtu": "9100")"), R"(ports.Ethernet0.mtu: expected an integer, got a string "9100")"},
      {"MTU as a fraction", doc(R"("mtu": 9100.5)"),
       R"(ports.Ethernet0.mtu: expected an integer, got a number "9100.5")"},
      {"MTU out of range", doc(R"("mtu": 70000)"), R"(ports.Ethernet0.mtu: "70000" is out of range 1-65535)"},
      {"MTU zero", doc(R"("mtu": 0)"), R"(ports.Ethernet0.mtu: "0" is out of range 1-65535)"},
      {"negative speed", doc(R"("speed_mbps": -400000)"),
       R"(ports.Ethernet0.speed_mbps: "-400000" is out of range 1-10000000)"},
      {"oper_status typo", doc(R"("oper_status": "Up")"),
       R"(ports.Ethernet0.oper_status: "Up" is not one of "up", "down")"},
      {"trust null", doc(R"("trust": null)"), R"(ports.Ethernet0.trust: expected a string, got null)"},
      {"DSCP map of 63 entries", doc(R"("dscp_to_priority": [)" + ints(63) + "]"),
       R"(ports.Ethernet0.dscp_to_priority: expected 64 priorities, one per DSCP 0-63, got 63 entries)"},
      {"DSCP map entry out of range", doc(R"("dscp_to_priority": [)" + ints(64, 26, 9) + "]"),
       R"(ports.Ethernet0.dscp_to_priority[26]: "9" is out of range 0-7)"},
      {"lossless priority out of range", doc(R"("pfc_enabled": [3, 8])"),
       R"(ports.Ethernet0.pfc_enabled[1]: "8" is out of range 0-7)"},
      {"lossless priority twice", doc(R"("pfc_enabled": [3, 3])"),
       R"(ports.Ethernet0.pfc_enabled[1]: priority "3" is listed twice)"},
      {"lossless set as an object", doc(R"("pfc_enabled": {"3": true})"),
       R"(ports.Ethernet0.pfc_enabled: expected an array, got an object)"},
      {"priority_to_tc of 9 entries", doc(R"("priority_to_tc": [0, 0, 0, 3, 0, 0, 6, 0, 0])"),
       R"(ports.Ethernet0.priority_to_tc: expected 8 traffic classes, one per priority 0-7, got 9 entries)"},
      {"ETS class twice",
       doc(R"("ets": [{"tc": 3, "tsa": "ets", "bandwidth_pct": 50}, {"tc": 3, "tsa": "ets", "bandwidth_pct": 50}])"),
       R"(ports.Ethernet0.ets[1].tc: traffic class "3" is listed twice)"},
      {"ETS strict with a share", doc(R"("ets": [{"tc": 6, "tsa": "strict", "bandwidth_pct": 10}])"),
       R"(ports.Ethernet0.ets[0].bandwidth_pct: "10" must be 0 for a strict-priority class)"},
      {"ETS entry without tsa", doc(R"("ets": [{"tc": 6, "bandwidth_pct": 0}])"),
       R"(ports.Ethernet0.ets[0]: missing required key "tsa")"},
      {"ECN probability over 100", doc(R"("ecn": [{"tc": 3, "min_bytes": 1, "max_bytes": 2, "probability_pct": 101}])"),
       R"(ports.Ethernet0.ecn[0].probability_pct: "101" is out of range 0-100)"},
      {"ECN traffic class out of range",
       doc(R"("ecn": [{"tc": 8, "min_bytes": 1, "max_bytes": 2, "probability_pct": 5}])"),
       R"(ports.Ethernet0.ecn[0].tc: "8" is out of range 0-7)"},
      {"enabled watchdog without detection",
       doc(R"("pfc_watchdog": {"enabled": true, "poll_interval_ms": 100, "restoration_ms": 200, "action": "drop"})"),
       R"(ports.Ethernet0.pfc_watchdog: missing required key "detection_ms")"},
      {"watchdog enabled as a string", doc(R"("pfc_watchdog": {"enabled": "yes"})"),
       R"(ports.Ethernet0.pfc_watchdog.enabled: expected true or false, got a string "yes")"},
      {"watchdog action", doc(R"("pfc_watchdog": {"enabled": false, "action": "reboot"})"),
       R"(ports.Ethernet0.pfc_watchdog.action: "reboot" is not one of "drop", "forward", "alert")"},
      {"CNP DSCP out of range", doc(R"("dcqcn": {"rp_enabled": [3], "np_enabled": [3], "cnp_dscp": 64})"),
       R"(ports.Ethernet0.dcqcn.cnp_dscp: "64" is out of range 0-63)"},
      {"CNP priority out of range", doc(R"("dcqcn": {"rp_enabled": [3], "np_enabled": [3], "cnp_priority": -1})"),
       R"(ports.Ethernet0.dcqcn.cnp_priority: "-1" is out of range 0-7)"},
      {"DCQCN parameter negative", doc(R"("dcqcn": {"rp_enabled": [3], "np_enabled": [3], "rp": {"rpg_gd": -1}})"),
       R"(ports.Ethernet0.dcqcn.rp.rpg_gd: "-1" is out of range 0-2147483647)"},
      {"CNP spacing a string", doc(R"("dcqcn": {"rp_enabled": [3], "np_enabled": [3], "min_time_between_cnps": "4"})"),
       R"(ports.Ethernet0.dcqcn.min_time_between_cnps: expected an integer, got a string "4")"},
      {"RDMA MTU not a power of two", doc(R"("rdma": {"device": "mlx5_0", "port": 1, "active_mtu": 3000})"),
       R"(ports.Ethernet0.rdma.active_mtu: "3000" is not an RDMA MTU (256, 512, 1024, 2048, 4096))"},
      {"RDMA device with a space", doc(R"("rdma": {"device": "mlx5 0", "port": 1})"),
       R"(ports.Ethernet0.rdma.device: "mlx5 0" is not a valid RDMA device name (1-63 characters: letters, digits, . _ -))"},
      {"GID not an address",
       doc(R"("rdma": {"device": "mlx5_0", "port": 1, "gids": [{"index": 0, "type": "RoCE v2", "gid": "fe80::zz"}]})"),
       R"(ports.Ethernet0.rdma.gids[0].gid: "fe80::zz" is not a GID (IPv6 address notation))"},
      {"GID type",
       doc(R"("rdma": {"device": "mlx5_0", "port": 1, "gids": [{"index": 0, "type": "RoCEv2", "gid": "fe80::1"}]})"),
       R"(ports.Ethernet0.rdma.gids[0].type: "RoCEv2" is not one of "RoCE v2", "RoCE v1", "IB")"},
      {"too many GIDs", doc(R"("rdma": {"device": "mlx5_0", "port": 1, "gids": [)" + many_gids + "]}"),
       "ports.Ethernet0.rdma.gids: 257 GIDs are more than the limit of 256"},
      {"LLDP name with an escape", doc(R"("lldp": {"system_name": "host1\u001b]0;x\u0007"})"),
       R"(ports.Ethernet0.lldp.system_name: "host1\x1b]0;x\x07" is not 1-255 characters without control characters)"},
      {"negative counter", doc(R"("counters": {"pfc_rx_pause_3": -1})"),
       R"(ports.Ethernet0.counters.pfc_rx_pause_3: "-1" is negative; counters are non-negative integers)"},
      // Refused while parsing (the whole file, not only the port): simdjson keeps integers to 64 bits.
      {"counter beyond 64 bits", doc(R"("counters": {"pfc_rx_pause_3": 18446744073709551616})"),
       R"(ports.Ethernet0.counters.pfc_rx_pause_3: "18446744073709551616" is an integer beyond 64 bits )"
       "(-9223372036854775808 to 18446744073709551615)"},
      {"NUL byte after the document", std::string(doc(R"("mtu": 9100)")) + '\0',
       "invalid JSON at line 1, column 94 (byte offset 93): a NUL byte after the document; expected end of input"},
      {"counter name", doc(R"("counters": {"PFC Rx": 1})"),
       R"(ports.Ethernet0.counters: invalid counter name "PFC Rx" (1-63 characters: lowercase letters, digits, _))"},
      {"too many counters", doc(R"("counters": {)" + many_counters + "}"),
       "ports.Ethernet0.counters: 1025 counters are more than the limit of 1024"},
  };
  CHECK(cases.size() >= 15);
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CHECK(error_of(c.text) == c.message);
  }
}

TEST_CASE("snapshot: one bad port is unreadable, the device and its other ports are not") {
  const DeviceObserved d = parsed(R"({"schema": "fabricctl.snapshot/v1", "device": "leaf1", "ports": {
      "Ethernet0": {"mtu": "lots"}, "Ethernet4": {"mtu": 9100}, "Ether\u001bnet8;reboot": {"mtu": 9100}}})");
  REQUIRE(d.ports.size() == 1);
  CHECK(d.ports[0].name == "Ethernet4");
  CHECK(*d.ports[0].mtu == 9100);
  REQUIRE(d.unreadable_ports.size() == 2);
  CHECK(*d.port_unreadable("Ethernet0") == R"(ports.Ethernet0.mtu: expected an integer, got a string "lots")");
  CHECK(d.port_unreadable("Ethernet4") == nullptr);
  // A name outside the character set is kept only quoted, so it can never reach a terminal raw.
  const auto& [bad, why] = *d.unreadable_ports.begin();
  CHECK(bad.find('\x1b') == std::string::npos);
  CHECK(why.starts_with("ports: invalid port name "));
}

TEST_CASE("snapshot: the first problem in key order is the one reported") {
  // Values are checked in schema order, whatever their order in the file; unknown keys are no error.
  CHECK(error_of(doc(R"("trust": "x", "mtu": 0, "zzz": 1)")) == R"(ports.Ethernet0.mtu: "0" is out of range 1-65535)");
  CHECK(error_of(doc(R"("trust": "x", "mtu": 9100)")) == R"(ports.Ethernet0.trust: "x" is not one of "dscp", "pcp")");
  // Every port name is checked before any port is read.
  CHECK(error_of(R"({"schema": "fabricctl.snapshot/v1", "device": "leaf1", "ports": {"A": {"mtu": 0}, "b c": {}}})") ==
        R"(ports: invalid port name "b c" (1-63 characters: letters, digits, / . _ : -))");
}

TEST_CASE("snapshot: the order of members in the file changes nothing") {
  // Objects are read in document order now (they were std::maps, sorted by key): ports are sorted
  // after reading, and of several problems in one object the first in key order is still reported.
  const std::string a = R"({"schema": "fabricctl.snapshot/v1", "device": "leaf1", "ports": {
      "Ethernet8": {"mtu": 9100, "counters": {"b": 2, "a": 1}}, "Ethernet0": {"trust": "dscp", "mtu": 1500}}})";
  const std::string b = R"({"ports": {"Ethernet0": {"mtu": 1500, "trust": "dscp"},
      "Ethernet8": {"counters": {"a": 1, "b": 2}, "mtu": 9100}}, "device": "leaf1", "schema": "fabricctl.snapshot/v1"})";
  CHECK(write_snapshot(parsed(a)) == write_snapshot(parsed(b)));
  CHECK(parsed(a).ports[0].name == "Ethernet0");
  CHECK(error_of(doc(R"("counters": {"zz": -1, "b b": 1, "aa": "x"})")) ==
        R"(ports.Ethernet0.counters.aa: expected a non-negative integer, got a string "x")");
  CHECK(error_of(doc(R"("counters": {"zz": -1, "aa": 1})")) ==
        R"(ports.Ethernet0.counters.zz: "-1" is negative; counters are non-negative integers)");
}

TEST_CASE("snapshot: a disabled watchdog may leave its settings out") {
  const DeviceObserved d = parsed(doc(R"("pfc_watchdog": {"enabled": false})"));
  CHECK_FALSE(d.ports[0].watchdog->enabled);
}

TEST_CASE("snapshot: read_snapshot_dir reads, refuses and warns") {
  TempDir tmp;
  const fs::path dir = tmp.path;
  DeviceObserved leaf1 = example_switch();
  spit(dir / "leaf1.json", write_snapshot(leaf1));
  spit(dir / "leaf3.json", "{");
  spit(dir / "leaf4.json", write_snapshot(leaf1));  // says it is leaf1
  spit(dir / "spine9.json", write_snapshot(leaf1));
  spit(dir / "README.md", "not a snapshot");
  spit(dir / ".leaf1.json.123.tmp", "");
  REQUIRE(::symlink("leaf1.json", (dir / "host1.json").c_str()) == 0);
  REQUIRE(::symlink("nowhere.json", (dir / "host4.json").c_str()) == 0);
  fs::create_directory(dir / "host2.json");
  REQUIRE(::mkfifo((dir / "host3.json").c_str(), 0600) == 0);
  const std::string d = dir.string();

  const SnapshotSet set = read_snapshot_dir(
      dir, {"leaf1", "leaf2", "leaf3", "leaf4", "host1", "host2", "host3", "host4", "leaf1", "bad/name"});
  REQUIRE(set.observed.devices.size() == 1);
  CHECK(write_snapshot(set.observed.devices.at("leaf1")) == write_snapshot(leaf1));
  const std::map<std::string, std::string> expected = {
      {"leaf2", "no snapshot file " + d + "/leaf2.json"},
      {"leaf3", d + "/leaf3.json: invalid JSON at line 1, column 2 (byte offset 1): syntax error while parsing object "
                    "key - unexpected end of input; expected string literal"},
      {"leaf4", d + "/leaf4.json: device \"leaf1\" does not match the file name; expected \"leaf4\""},
      {"host1", d + "/host1.json: is a symbolic link; snapshot files are not read through links"},
      {"host2", d + "/host2.json: is a directory, not a regular file"},
      {"host3", d + "/host3.json: is a FIFO, not a regular file"},
      {"host4", d + "/host4.json: is a symbolic link; snapshot files are not read through links"},
      {"bad/name", "invalid device name \"bad/name\"; no snapshot file can hold it"},
  };
  CHECK(set.observed.unreadable == expected);
  REQUIRE(set.observed.failures.size() == expected.size());
  for (const auto& entry : expected) {  // not a structured binding: CAPTURE is a lambda
    const std::string& device = entry.first;
    const auto& why = entry.second;
    CAPTURE(device);
    CHECK(set.observed.failures.at(device) == DeviceFailure{device, FailureStage::snapshot, why});
  }
  CHECK(set.warnings == std::vector<std::string>{"ignoring " + d + "/spine9.json: device not in the inventory"});
}

TEST_CASE("snapshot: stray files of devices not in the inventory are one warning, however many") {
  TempDir tmp;
  const fs::path dir = tmp.path;
  spit(dir / "leaf1.json", write_snapshot(example_switch()));
  constexpr size_t kStray = 3000;  // a warning per file would be 3000 lines; quick to create
  for (size_t i = 0; i < kStray; ++i) spit(dir / ("stray" + std::to_string(i) + ".json"), "");
  const SnapshotSet set = read_snapshot_dir(dir, {"leaf1"});
  CHECK(set.observed.devices.size() == 1);
  const std::string d = dir.string();
  REQUIRE(set.warnings.size() == 1);
  CHECK(
      set.warnings[0] ==
      "ignoring 3000 snapshot files in " + d +
          " of devices not in the inventory: stray0.json, stray1.json, stray2.json, stray3.json, stray4.json, ... (2995 more)");

  // A few are all listed, in natural order.
  TempDir few;
  for (const char* name : {"spine10.json", "spine9.json"}) spit(few.path / name, "");
  CHECK(read_snapshot_dir(few.path, {}).warnings ==
        std::vector<std::string>{"ignoring 2 snapshot files in " + few.path.string() +
                                 " of devices not in the inventory: spine9.json, spine10.json"});
}

TEST_CASE("snapshot: names follow util/names.h, as the inventory does: 63 characters, not 64") {
  const std::string ok(63, 'a'), too_long(64, 'a');
  auto device_doc = [](const std::string& name) {
    return R"({"schema": "fabricctl.snapshot/v1", "device": ")" + name + R"(", "ports": {}})";
  };
  CHECK(parsed(device_doc(ok)).name == ok);
  CHECK(error_of(device_doc(too_long)) ==
        "device: \"" + too_long +
            "\" is not a valid device name "
            "(1-63 characters: letters, digits, . _ -; starting with a letter or digit)");
  CHECK(parsed(doc(R"("mtu": 9100)", ok)).ports.at(0).name == ok);
  CHECK(error_of(doc(R"("mtu": 9100)", too_long)).starts_with("ports: invalid port name"));
  const std::string rdma = R"("rdma": {"device": ")";
  CHECK(parsed(doc(rdma + ok + R"(", "port": 1})")).ports.at(0).rdma->device == ok);
  CHECK(error_of(doc(rdma + too_long + R"(", "port": 1})"))
            .starts_with("ports.Ethernet0.rdma.device: \"" + too_long + "\" is not a valid RDMA device name"));
  CHECK(parsed(doc(R"("counters": {")" + ok + R"(": 1})")).ports.at(0).counters.count(ok) == 1);
  CHECK(error_of(doc(R"("counters": {")" + too_long + R"(": 1})"))
            .starts_with("ports.Ethernet0.counters: invalid counter name"));
}

TEST_CASE("snapshot: read_snapshot_dir rejects an oversize file before reading it") {
  TempDir tmp;
  {
    std::ofstream out(tmp.path / "leaf1.json", std::ios::binary);
    out.seekp(static_cast<std::streamoff>(kMaxSnapshotBytes));
    out.put('\n');
  }
  const SnapshotSet set = read_snapshot_dir(tmp.path, {"leaf1"});
  CHECK(set.observed.unreadable.at("leaf1") ==
        tmp.path.string() + "/leaf1.json: snapshot is 16777217 bytes, more than the limit of 16777216 bytes (16 MiB)");
}

TEST_CASE("snapshot: a missing directory makes every device unreadable and warns") {
  TempDir tmp;
  const fs::path dir = tmp.path / "absent";
  const SnapshotSet set = read_snapshot_dir(dir, {"leaf1"});
  CHECK(set.observed.unreadable.at("leaf1") == "no snapshot file " + dir.string() + "/leaf1.json");
  CHECK(set.warnings == std::vector<std::string>{"cannot list " + dir.string() + ": no such file or directory"});
}

TEST_CASE("snapshot: write_snapshot_dir writes what read_snapshot_dir reads") {
  TempDir tmp;
  const fs::path dir = tmp.path / "snapshots";
  FabricObserved fabric;
  fabric.devices["leaf1"] = example_switch();
  fabric.devices["host1"] = example_host();
  fabric.record_failure({"leaf2", FailureStage::connect, "ssh: timeout"});
  CHECK(write_snapshot_dir(fabric, dir).has_value());
  CHECK(slurp(dir / "leaf1.json") == write_snapshot(fabric.devices["leaf1"]));
  CHECK(slurp(dir / "host1.json") == write_snapshot(fabric.devices["host1"]));
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
  CHECK(files == 2);  // no temporary files left, nothing for unreadable devices

  // Overwrites in place, also when the old file is a link: the link is replaced, not followed.
  fs::remove(dir / "host1.json");
  spit(tmp.path / "victim", "keep");
  fs::create_symlink(tmp.path / "victim", dir / "host1.json");
  CHECK(write_snapshot_dir(fabric, dir).has_value());
  CHECK(slurp(tmp.path / "victim") == "keep");
  CHECK_FALSE(fs::is_symlink(dir / "host1.json"));

  const SnapshotSet set = read_snapshot_dir(dir, {"leaf1", "host1"});
  CHECK(set.observed.unreadable.empty());
  CHECK(set.warnings.empty());
  CHECK(write_snapshot(set.observed.devices.at("host1")) == write_snapshot(fabric.devices["host1"]));
}

TEST_CASE("snapshot: write_snapshot_dir writes nothing for state that would not read back") {
  TempDir tmp;
  const fs::path dir = tmp.path / "out";
  FabricObserved fabric;
  fabric.devices["host1"] = example_host();
  fabric.devices["leaf1"] = example_switch();
  fabric.devices["leaf1"].ports[1].mtu = 70000;
  CHECK(write_snapshot_dir(fabric, dir).error() ==
        R"(device "leaf1": the snapshot would not read back: ports.Ethernet0.mtu: "70000" is out of range 1-65535)");
  CHECK_FALSE(fs::exists(dir));

  fabric.devices["leaf1"] = example_switch();
  fabric.devices["leaf1"].ports.push_back(fabric.devices["leaf1"].ports[0]);
  CHECK(write_snapshot_dir(fabric, dir).error() == R"(device "leaf1": port "Ethernet8" appears twice)");

  fabric.devices.clear();
  fabric.devices["x/../../etc"] = example_host();
  fabric.devices["x/../../etc"].name = "x/../../etc";
  CHECK(write_snapshot_dir(fabric, dir).error() ==
        R"(cannot write a snapshot for device "x/../../etc": not a valid device name (1-63 characters: letters, )"
        "digits, . _ -; starting with a letter or digit)");

  fabric.devices.clear();
  fabric.devices["leaf1"] = example_host();
  CHECK(write_snapshot_dir(fabric, dir).error() == R"(device "leaf1" holds the state of a device named "host1")");
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("snapshot: the examples in docs/snapshots.md are valid and canonical") {
  const std::string text = slurp(fs::path(FABRICCTL_SOURCE_DIR) / "docs" / "snapshots.md");
  REQUIRE_FALSE(text.empty());
  size_t examples = 0;
  for (size_t at = text.find("```json\n"); at != std::string::npos; at = text.find("```json\n", at)) {
    at += 8;
    const size_t end = text.find("```", at);
    REQUIRE(end != std::string::npos);
    const std::string block = text.substr(at, end - at);
    if (block.find(kSnapshotSchema) == std::string::npos) continue;  // a fragment, not a whole snapshot
    CAPTURE(block);
    CHECK(write_snapshot(parsed(block)) == block);
    ++examples;
  }
  CHECK(examples >= 1);
}

TEST_CASE("snapshot: collected_at as a time, fractions to the nanosecond, only real UTC dates") {
  const auto t0 = parse_utc_time("2026-12-05T12:00:00Z");
  const auto t1 = parse_utc_time("2026-12-05T12:01:00.5Z");
  REQUIRE(t0);
  REQUIRE(t1);
  CHECK(std::chrono::duration<double>(*t1 - *t0).count() == doctest::Approx(60.5));
  CHECK(std::chrono::duration_cast<std::chrono::seconds>(t0->time_since_epoch()).count() == 1796472000);
  CHECK(parse_utc_time("2024-02-29T00:00:00.123456789Z"));
  for (const char* bad : {"2026-02-29T00:00:00Z", "2026-12-05T12:00:00", "2026-12-05T12:00:00+01:00",
                          "2026-12-05 12:00:00Z", "2026-12-05T24:00:00Z", "2026-12-05T12:00:00.Z"})
    CHECK_FALSE(parse_utc_time(bad));
}

#include <doctest/doctest.h>

#include "model/fabric.h"
#include "model/intent.h"
#include "render/render.h"
#include "source_dir.h"

using namespace fabricctl;

namespace {

struct Loaded {
  Diags diags;
  Fabric fabric;
};

Loaded load(const std::string& inventory) {
  Loaded l;
  auto profiles = load_profiles(test::kSourceDir + "/profiles", l.diags);
  auto inv = load_inventory(test::kSourceDir + "/inventory/" + inventory, l.diags);
  REQUIRE(profiles);
  REQUIRE(inv);
  l.fabric = resolve_fabric(*inv, *profiles, l.diags);
  return l;
}

const DeviceDesired& device(const Fabric& f, const std::string& name) {
  for (const auto& d : f.desired.devices)
    if (d.name == name) return d;
  FAIL("no device " << name);
  throw;
}

const PortDesired& port(const DeviceDesired& d, const std::string& name) {
  for (const auto& p : d.ports)
    if (p.name == name) return p;
  FAIL("no port " << name);
  throw;
}

// Resolves an inventory and profiles given as text (one profile "p" plus the shipped ones).
Loaded load_text(const std::string& inventory, const std::string& profile = "") {
  Loaded l;
  std::vector<YamlDoc> docs;
  Diags& d = l.diags;
  auto base = load_yaml(test::kSourceDir + "/profiles/roce-lossless.yaml", "profiles/roce-lossless.yaml", d);
  REQUIRE(base);
  docs.push_back(*base);
  if (!profile.empty()) {
    auto p = parse_yaml(profile, "profiles/p.yaml", d);
    REQUIRE(p);
    docs.push_back(*p);
  }
  ProfileSet set = profiles_from_docs(docs, d);
  auto doc = parse_yaml(inventory, "inv.yaml", d);
  REQUIRE(doc);
  Inventory inv;
  read_inventory_doc(*doc, inv, d);
  l.fabric = resolve_fabric(inv, set, d);
  return l;
}

const char* kSmall = R"(
defaults:
  profile: roce-lossless
  mgmt: {user: u, agent: true}
groups:
  g: {overrides: {pfc_watchdog: {detection_ms: 400}}}
devices:
  sw:
    role: switch
    platform: sonic
    groups: [g]
    mgmt: {address: 192.0.2.1}
    ports:
      Ethernet8: {speed: 100G}
      Ethernet0:
        overrides: {mtu: {switch: 9216}, cable_length_m: 40}
  sw2:
    role: switch
    platform: sonic
    mgmt: {address: 192.0.2.3}
    overrides: {pfc_watchdog: {enabled: false}}
    ports:
      Ethernet0:
  h:
    role: host
    platform: linux
    mgmt: {address: 192.0.2.2}
    ports:
      eth0: {rdma_device: mlx5_0}
links:
  - {a: h:eth0, b: sw:Ethernet8, cable_length_m: 2}
)";

// kSmall's one warning: sw2 is on no link.
const char* kSmallWarning =
    "inv.yaml:17:3: warning: on no link: device \"sw2\"; verify compares both ends of links only\n";

}  // namespace

TEST_CASE("the mixed lab resolves: every switch platform, the Junos leaf's ECN buffer from its mapping") {
  Loaded l = load("lab-mixed");
  REQUIRE_MESSAGE(l.diags.empty(), l.diags.str());
  CHECK(l.fabric.links == 12);
  REQUIRE(l.fabric.desired.devices.size() == 7);
  CHECK(device(l.fabric, "leaf3").platform == Platform::nxos);
  CHECK(device(l.fabric, "leaf4").platform == Platform::junos);
  CHECK(device(l.fabric, "leaf4").hardware.ecn_buffer_bytes == uint64_t{15000} * 1024);
  CHECK(device(l.fabric, "leaf1").hardware.ecn_buffer_bytes == 0);
}

TEST_CASE("the lab inventory resolves with both ends of every link") {
  Loaded l = load("lab");
  REQUIRE_MESSAGE(l.diags.empty(), l.diags.str());
  const Fabric& f = l.fabric;
  CHECK(f.links == 6);
  REQUIRE(f.desired.devices.size() == 5);
  CHECK(f.desired.devices[0].name == "host1");  // sorted by name
  const DeviceDesired& leaf1 = device(f, "leaf1");
  CHECK(leaf1.platform == Platform::sonic);
  CHECK(leaf1.role == Role::switch_);
  REQUIRE(leaf1.ports.size() == 3);
  CHECK(leaf1.ports[0].name == "Ethernet0");
  CHECK(leaf1.ports[1].name == "Ethernet8");  // natural order: 8 before 48
  CHECK(leaf1.ports[2].name == "Ethernet48");
  const PortDesired& e0 = port(leaf1, "Ethernet0");
  CHECK(e0.mtu == 9100);
  CHECK(e0.speed_mbps == 400000);
  CHECK(e0.cable_length_m == 3);
  CHECK(e0.peer_device == "host1");
  CHECK(e0.peer_port == "ens1f0np0");
  CHECK(e0.headroom_bytes > 0);
  CHECK(port(leaf1, "Ethernet48").cable_length_m == 10);
  const PortDesired& nic = port(device(f, "host2"), "ens2f0np0");
  CHECK(nic.mtu == 9000);
  CHECK(nic.rdma_mtu == 4096);
  CHECK(nic.rdma_device == "mlx5_1");
  CHECK(nic.rail == 1);
  CHECK(nic.peer_device == "leaf2");
  CHECK(nic.peer_port == "Ethernet2/1");
  const QosIntent& q = leaf1.qos;
  CHECK(q.lossless_priorities() == std::vector<int>{3});
  CHECK(q.dscp_to_priority[26] == 3);
  CHECK(q.dscp_to_priority[48] == 6);
  CHECK(q.dscp_to_priority[0] == 0);
  CHECK(q.ecn_enabled);
  REQUIRE(q.ecn.size() == 1);
  CHECK(q.ecn[0].min_bytes == 153600);
  CHECK(q.dcqcn.enabled);
  CHECK(q.tc[6].strict);
  CHECK(q.tc[3].bandwidth_pct == 50);
  CHECK(q.watchdog.detection_ms == 200);
  CHECK(f.mgmt.size() == f.desired.devices.size());
  CHECK(f.mgmt[0].device == "host1");
  CHECK(f.mgmt[0].user == "fabricctl");
}

TEST_CASE("rail-optimized runs PFC only, with group overrides on the spines") {
  Loaded l = load("rail-optimized");
  REQUIRE_MESSAGE(l.diags.empty(), l.diags.str());
  CHECK(l.fabric.desired.devices.size() == 26);
  CHECK(l.fabric.links == 192);
  const DeviceDesired& leaf = device(l.fabric, "rail6-leaf");
  CHECK(leaf.platform == Platform::nvue);
  CHECK_FALSE(leaf.qos.ecn_enabled);
  CHECK_FALSE(leaf.qos.dcqcn.enabled);
  CHECK(leaf.qos.lossless_priorities() == std::vector<int>{3});
  CHECK(leaf.qos.watchdog.detection_ms == 200);
  CHECK(device(l.fabric, "spine1").qos.watchdog.detection_ms == 400);
  // NIC i of every server lands on the rail-i leaf.
  for (const auto& d : l.fabric.desired.devices) {
    if (d.role != Role::host) continue;
    for (const auto& p : d.ports) CHECK(p.peer_device == "rail" + std::to_string(*p.rail) + "-leaf");
  }
}

TEST_CASE("overrides stack: profile, then groups, then device, then port, and links set cable length") {
  Loaded l = load_text(kSmall);
  REQUIRE(l.diags.str() == kSmallWarning);
  const DeviceDesired& sw = device(l.fabric, "sw");
  CHECK(sw.qos.watchdog.detection_ms == 400);  // group
  CHECK(sw.qos.watchdog.enabled);
  CHECK_FALSE(device(l.fabric, "sw2").qos.watchdog.enabled);  // device, not leaking to others
  CHECK(port(sw, "Ethernet0").mtu == 9216);                   // port
  CHECK(port(sw, "Ethernet0").cable_length_m == 40);
  CHECK(port(sw, "Ethernet8").mtu == 9100);          // profile
  CHECK(port(sw, "Ethernet8").cable_length_m == 2);  // link
  CHECK(port(device(l.fabric, "h"), "eth0").cable_length_m == 2);
  CHECK(port(device(l.fabric, "h"), "eth0").speed_mbps == 100000);  // from the switch end
  CHECK_FALSE(port(sw, "Ethernet0").speed_mbps.has_value());        // uncabled, no speed given
}

TEST_CASE("a child profile overrides its parent per key") {
  const std::string child = R"(
extends: roce-lossless
dscp_to_priority: {10: 1}
ecn:
  tc:
    3: {probability: 50}
)";
  Loaded l = load_text(
      std::string(kSmall).replace(std::string(kSmall).find("profile: roce-lossless"), 22, "profile: p"), child);
  REQUIRE(l.diags.str() == kSmallWarning);
  const QosIntent& q = device(l.fabric, "sw").qos;
  CHECK(q.dscp_to_priority[10] == 1);  // added
  CHECK(q.dscp_to_priority[26] == 3);  // inherited
  REQUIRE(q.ecn.size() == 1);
  CHECK(q.ecn[0].probability_pct == 50);  // overridden
  CHECK(q.ecn[0].min_bytes == 153600);    // inherited field of the same queue
  CHECK(device(l.fabric, "sw").profile == "p");
}

TEST_CASE("fabric: group and device overrides remove inherited map entries; a null with nothing below is an error") {
  const std::string profile = "extends: roce-lossless\ndcqcn: {rp: {rpg_gd: 9}}\n";
  const std::string inventory = R"(
defaults: {profile: p}
groups:
  moved: {overrides: {roce: {dscp: 24}, dscp_to_priority: {26: null}}}
devices:
  a: {role: switch, platform: sonic, groups: [moved], ports: {Ethernet0: {speed: 400G}}}
  b: {role: switch, platform: sonic, ports: {Ethernet0: {speed: 400G}}}
  c: {role: switch, platform: sonic, overrides: {dcqcn: {rp: {rpg_gd: ~}}}, ports: {Ethernet0: {speed: 400G}}}
  d: {role: switch, platform: sonic, ports: {Ethernet0: {speed: 400G}}}
links:
  - {a: a:Ethernet0, b: b:Ethernet0}
  - {a: c:Ethernet0, b: d:Ethernet0}
)";
  Loaded l = load_text(inventory, profile);
  CHECK(l.diags.str() == "");
  const QosIntent& a = device(l.fabric, "a").qos;
  CHECK(a.roce_dscp == 24);
  CHECK(a.dscp_to_priority[24] == 3);
  CHECK(a.dscp_to_priority[26] == 0);  // removed by the group: no warning
  CHECK(device(l.fabric, "b").qos.dscp_to_priority[26] == 3);
  // A device whose only override is a removal is not shared with the plain devices around it.
  CHECK(device(l.fabric, "c").qos.dcqcn.rp.empty());
  CHECK(device(l.fabric, "b").qos.dcqcn.rp.size() == 1);
  CHECK(device(l.fabric, "d").qos.dcqcn.rp.size() == 1);

  std::string stray = inventory;
  stray.replace(stray.find("{26: null}"), 10, "{25: null}");
  Loaded bad = load_text(stray, profile);
  CHECK(bad.diags.str() ==
        "inv.yaml:4:60: dscp_to_priority: null for DSCP \"25\" removes nothing: neither profile \"p\" nor earlier "
        "overrides set it\n"
        "profiles/roce-lossless.yaml:11:7: warning: dscp_to_priority.26: DSCP 26 maps to lossless priority 3, but the "
        "RoCE DSCP is 24; to make it lossy, delete the entry, or write \"26: null\" where it is inherited\n");
}

TEST_CASE("fabric: a device whose only override is nccl.gid_index gets it, and only it") {
  std::string inventory = kSmall;
  const std::string watchdog_off = "overrides: {pfc_watchdog: {enabled: false}}";
  inventory.replace(inventory.find(watchdog_off), watchdog_off.size(), "overrides: {nccl: {gid_index: 5}}");
  Loaded l = load_text(inventory);
  REQUIRE(l.diags.str() == kSmallWarning);
  CHECK(device(l.fabric, "sw").qos.nccl_gid_index == kNcclGidAuto);  // NCCL picks the GID unless pinned
  CHECK(device(l.fabric, "sw2").qos.nccl_gid_index == 5);
  CHECK(device(l.fabric, "h").qos.nccl_gid_index == kNcclGidAuto);
}

TEST_CASE("errors from inline inventories carry their location") {
  std::string bad = kSmall;
  bad.replace(bad.find("speed: 100G"), 11, "speed: fast");
  Loaded l = load_text(bad);
  CHECK(l.diags.str() ==
        "inv.yaml:14:26: devices.sw.ports.Ethernet8.speed: \"fast\" is not a link speed such as "
        "\"100G\" or \"400G\"\n" +
            std::string(kSmallWarning));  // not "no speed" for its link: the cause is above
}

TEST_CASE("fabric: switch hardware from defaults, groups and the device, in the platform's defaults otherwise") {
  const std::string inventory = R"(
defaults:
  profile: roce-lossless
  mgmt: {user: u, key: k}
  sonic: {cable_lengths_m: [300, 5, 40, 100]}
groups:
  voq: {eos: {chip: jericho}}
  dyn: {sonic: {buffer_model: dynamic}}
devices:
  s1: {role: switch, platform: sonic, mgmt: {address: 192.0.2.1}, ports: {Ethernet0: {}}}
  s2: {role: switch, platform: sonic, groups: [dyn], mgmt: {address: 192.0.2.2}, ports: {Ethernet0: {}}}
  s3: {role: switch, platform: sonic, groups: [dyn], sonic: {buffer_model: traditional},
       mgmt: {address: 192.0.2.3}, ports: {Ethernet0: {}}}
  e1: {role: switch, platform: eos, mgmt: {address: 192.0.2.4}, ports: {Ethernet1/1: {}}}
  e2: {role: switch, platform: eos, groups: [voq], mgmt: {address: 192.0.2.5}, ports: {Ethernet1/1: {}}}
  e3: {role: switch, platform: eos, groups: [voq], eos: {chip: trident}, mgmt: {address: 192.0.2.6},
       ports: {Ethernet1/1: {}}}
  n1: {role: switch, platform: nvue, groups: [dyn, voq], mgmt: {address: 192.0.2.7}, ports: {swp1: {}}}
)";
  const Loaded l = load_text(inventory);
  INFO(l.diags.str());
  REQUIRE_FALSE(l.diags.has_errors());
  CHECK(device(l.fabric, "s1").hardware.headroom_cable_rows_m == std::vector<int>{5, 40, 100, 300});  // sorted
  CHECK(device(l.fabric, "s2").hardware.headroom_cable_rows_m.empty());  // the group's dynamic
  CHECK(device(l.fabric, "s3").hardware.headroom_cable_rows_m == std::vector<int>{5, 40, 100, 300});  // device wins
  CHECK_FALSE(device(l.fabric, "e1").hardware.voq);  // the default chip: Tomahawk
  CHECK(device(l.fabric, "e2").hardware.voq);
  CHECK_FALSE(device(l.fabric, "e3").hardware.voq);
  // Another platform's mapping on a group or defaults concerns only that platform's members.
  CHECK(device(l.fabric, "n1").hardware.headroom_cable_rows_m.empty());
  CHECK_FALSE(device(l.fabric, "n1").hardware.voq);

  const Loaded defaults = load_text(R"(
defaults: {profile: roce-lossless, mgmt: {user: u, key: k}}
devices:
  s1: {role: switch, platform: sonic, mgmt: {address: 192.0.2.1}, ports: {Ethernet0: {}}}
)");
  REQUIRE_FALSE(defaults.diags.has_errors());
  // SONiC's traditional model with the rows most SKUs have.
  CHECK(device(defaults.fabric, "s1").hardware.headroom_cable_rows_m == std::vector<int>{5, 40, 300});
}

TEST_CASE("fabric: the shipped roce-nvidia profile is NVIDIA's RoCE mode, best-effort ECN included") {
  Loaded l;
  auto profiles = load_profiles(test::kSourceDir + "/profiles", l.diags);
  REQUIRE(profiles);
  REQUIRE(profiles->merged.count("roce-nvidia"));
  const auto in = make_intent(profiles->merged.at("roce-nvidia"), {}, "profile \"roce-nvidia\"", l.diags);
  REQUIRE(in);
  CHECK(in->qos.ecn.size() == 2);
  DeviceDesired spine;
  spine.name = "spine1";
  spine.platform = Platform::nvue;
  spine.profile = "roce-nvidia";
  spine.qos = in->qos;
  TemplateCache templates({test::kSourceDir + "/templates"});
  const auto rendered = render_device(spine, templates, l.diags);
  REQUIRE(rendered);
  REQUIRE(rendered->artifacts.size() == 1);
  CHECK(rendered->artifacts[0].content.find("\nnv set qos roce mode lossless\n") != std::string::npos);
}

// A rail-optimized fabric laid out from its spec (design/rail_layout.h, design/rail_spec.h): where every
// NIC and uplink lands, the numbers the report gives, growth that renames nothing, and every way a spec
// cannot be built, each at the value that decides it.
#include "design/rail_layout.h"

#include <doctest/doctest.h>

#include <map>

using namespace fabricctl;
using namespace fabricctl::design;

namespace {

/// The spec of the shipped example, with `extra` lines appended under the given top-level keys.
std::string spec_text(const std::map<std::string, std::string>& over = {}) {
  std::map<std::string, std::string> parts = {
      {"design", "design: rail-optimized\nprofile: roce-pfc-only\n"},
      {"groups", "groups:\n  rails:\n  spines:\n  gpu:\n"},
      {"rails", "rails: 8\n"},
      {"hosts", "hosts:\n  count: 16\n  nics: 8\n  name: \"gpu{host:02}\"\n  groups: [gpu]\n  address: 198.51.100.1\n"},
      {"leaves",
       "leaves:\n  radix: 24\n  pod_hosts: 16\n  platforms: [sonic, sonic, sonic, eos, eos, eos, nvue, nvue]\n"
       "  name: \"rail{rail}-leaf\"\n  groups: [rails]\n  address: 192.0.2.10\n"},
      {"spines",
       "spines:\n  count: 2\n  platforms: [nvue, sonic]\n  name: \"spine{spine}\"\n  groups: [spines]\n"
       "  address: 192.0.2.1\n"},
      {"cables", "cables:\n  host: {speed: 400G, length_m: 3}\n  uplink: {speed: 400G, length_m: 30}\n"},
  };
  for (const auto& [k, v] : over) parts[k] = v;
  std::string out;
  for (const char* k : {"design", "groups", "rails", "hosts", "leaves", "spines", "cables", "devices"})
    if (parts.contains(k)) out += parts[k];
  return out;
}

struct Designed {
  Diags diags;
  std::optional<RailSpec> spec;
  std::optional<Layout> layout;
};

Designed designed(const std::string& text, int64_t hosts = 0) {
  Designed d;
  auto doc = parse_yaml(text, "design.yaml", d.diags);
  REQUIRE_MESSAGE(doc.has_value(), d.diags.str());
  d.spec = read_rail_spec(*doc, d.diags);
  if (d.spec) d.layout = lay_out(*d.spec, hosts > 0 ? hosts : *d.spec->hosts.count, d.diags);
  return d;
}

Layout layout_of(const std::string& text, int64_t hosts = 0) {
  Designed d = designed(text, hosts);
  REQUIRE_MESSAGE(d.layout.has_value(), d.diags.str());
  return std::move(*d.layout);
}

/// The only error a spec gets, as printed ("design.yaml:L:C: message").
std::string error_of(const std::string& text, int64_t hosts = 0) {
  Designed d = designed(text, hosts);
  CHECK_FALSE(d.layout.has_value());
  REQUIRE_MESSAGE(d.diags.count(DiagSeverity::error) == 1, d.diags.str());
  return d.diags.sorted().front().str();
}

const DesignedDevice& device(const Layout& l, std::string_view name) {
  for (const DesignedDevice& d : l.devices)
    if (d.name == name) return d;
  FAIL("no device " << name);
  return l.devices.front();
}

bool has_link(const Layout& l, std::string_view a, std::string_view b) {
  for (const DesignedLink& k : l.links)
    if (k.a == a && k.b == b) return true;
  return false;
}

}  // namespace

TEST_CASE("the shipped example: NIC i on the rail-i leaf, four uplinks to each spine") {
  const Layout l = layout_of(spec_text());
  const Sizes& z = l.sizes;
  CHECK(z.pods == 1);
  CHECK(z.leaves == 8);
  CHECK(z.leaf_down == 16);
  CHECK(z.leaf_up == 8);
  CHECK(z.up_per_spine == 4);
  CHECK(z.leaf_spare == 0);
  CHECK(z.spine_ports == 32);
  CHECK(z.host_links == 128);
  CHECK(z.uplinks == 64);
  CHECK(z.down_mbps == 2 * z.up_mbps);  // 2:1
  CHECK(z.dac_cables == 128);
  CHECK(z.optical_links == 64);
  CHECK(z.optics == 128);
  CHECK(l.devices.size() == 2 + 8 + 16);
  CHECK(l.devices.front().name == "spine1");
  // gpu02's NIC 3 on rail3-leaf (EOS) port 2; rail7-leaf (NVUE) uplink 2 to spine2 (SONiC) lands on
  // that spine's port 7 * 4 + 2.
  CHECK(has_link(l, "gpu02:ens4f0np0", "rail3-leaf:Ethernet2/1"));
  CHECK(has_link(l, "rail7-leaf:swp23", "spine2:Ethernet240"));
  CHECK(has_link(l, "rail0-leaf:Ethernet128", "spine1:swp1"));
  const DesignedDevice& leaf = device(l, "rail5-leaf");
  CHECK(leaf.platform == "eos");
  CHECK(leaf.rail == 5);
  CHECK(leaf.address == "192.0.2.15");
  CHECK(leaf.ports.size() == 24);
  const DesignedDevice& host = device(l, "gpu16");
  CHECK(host.address == "198.51.100.16");
  CHECK(host.ports[7].name == "ens8f0np0");
  CHECK(host.ports[7].rdma_device == "mlx5_7");
  CHECK(host.ports[7].rail == 7);
}

TEST_CASE("two NICs a rail: NIC r and NIC r+R of a server on the same leaf, side by side") {
  const Layout l = layout_of(spec_text({{"hosts", "hosts:\n  count: 4\n  nics: 16\n  name: \"gpu{host}\"\n"},
                                        {"leaves", "leaves:\n  radix: 16\n  platforms: nvue\n  name: \"r{rail}\"\n"}}));
  CHECK(l.sizes.pod_hosts == 4);  // half of 16 ports, two a server
  CHECK(has_link(l, "gpu1:ens2f0np0", "r1:swp1"));
  CHECK(has_link(l, "gpu1:ens10f0np0", "r1:swp2"));
  CHECK(has_link(l, "gpu2:ens10f0np0", "r1:swp4"));
  CHECK(device(l, "gpu1").ports[9].rail == 1);
}

TEST_CASE("pods: names, addresses and spine ports by position, so that growing adds only") {
  const std::string text = spec_text(
      {{"hosts", "hosts:\n  count: 64\n  nics: 8\n  name: \"p{pod:02}-gpu{pod_host:02}\"\n  address: 10.0.0.1\n"},
       {"leaves",
        "leaves:\n  radix: 64\n  platforms: [sonic, eos, nvue]\n  name: \"p{pod:02}-rail{rail}\"\n"
        "  address: 10.1.0.1\n"},
       {"spines",
        "spines:\n  count: 8\n  radix: 128\n  platforms: sonic\n  name: \"spine{spine:02}\"\n"
        "  address: \"{name}.mgmt\"\n"}});
  const Layout two = layout_of(text);
  CHECK(two.sizes.pods == 2);
  CHECK(two.sizes.pod_hosts == 32);
  CHECK(two.sizes.up_per_spine == 4);
  CHECK(two.sizes.max_pods == 4);  // 128 ports / (8 leaves x 4 uplinks)
  CHECK(device(two, "p02-rail7").address == "10.1.0.16");
  CHECK(device(two, "p02-gpu01").address == "10.0.0.33");
  CHECK(device(two, "spine08").address == "spine08.mgmt");
  CHECK(has_link(two, "p02-rail0:Ethernet256", "spine01:Ethernet256"));  // leaf 8, uplink 0: port 32
  const Layout grown = layout_of(text, 80);                              // half a pod more
  CHECK(grown.sizes.pods == 3);
  CHECK(growth_changes(two, grown, 10).empty());
  CHECK(device(grown, "p03-gpu16").name == "p03-gpu16");
  CHECK(growth_changes(grown, layout_of(text, 96), 10).empty());
  // Shrinking is a change, and says what would go.
  const auto shrink = growth_changes(grown, two, 3);
  REQUIRE(shrink.size() == 3);
  CHECK(shrink.front().find("would be gone") != std::string::npos);
}

TEST_CASE("platforms by pod: every leaf of a pod on one platform, the list in turn") {
  const Layout l = layout_of(spec_text(
      {{"hosts", "hosts:\n  count: 48\n  nics: 8\n  name: \"p{pod}-h{pod_host}\"\n"},
       {"leaves",
        "leaves:\n  radix: 32\n  platforms: [sonic, eos]\n  platforms_by: pod\n  name: \"p{pod}-r{rail}\"\n"}}));
  CHECK(l.sizes.pods == 3);
  CHECK(device(l, "p1-r0").platform == "sonic");
  CHECK(device(l, "p1-r7").platform == "sonic");
  CHECK(device(l, "p2-r3").platform == "eos");
  CHECK(device(l, "p3-r5").platform == "sonic");
  CHECK(error_of(spec_text({{"leaves",
                             "leaves:\n  radix: 24\n  pod_hosts: 16\n  platforms: sonic\n"
                             "  platforms_by: spine\n  name: \"l{rail}\"\n"}})) ==
        "design.yaml:18:17: leaves.platforms_by: \"spine\" is not one of rail, pod");
}

TEST_CASE("a pod size left to the radix changes when the radix does: growth says what would move") {
  const std::string narrow =
      spec_text({{"leaves", "leaves:\n  radix: 24\n  platforms: sonic\n  name: \"p{pod}-r{rail}\"\n"},
                 {"hosts", "hosts:\n  count: 24\n  nics: 8\n  name: \"h{host}\"\n"}});
  const std::string wide =
      spec_text({{"leaves", "leaves:\n  radix: 32\n  platforms: sonic\n  name: \"p{pod}-r{rail}\"\n"},
                 {"hosts", "hosts:\n  count: 24\n  nics: 8\n  name: \"h{host}\"\n"}});
  const auto changes = growth_changes(layout_of(narrow), layout_of(wide), 100);
  CHECK_FALSE(changes.empty());
  bool moved = false;
  for (const std::string& c : changes) moved = moved || c.find("would be moved") != std::string::npos;
  CHECK(moved);
}

TEST_CASE("IPv6 runs carry across bytes; a run that ends is refused at the address") {
  const Layout l = layout_of(spec_text({{"spines",
                                         "spines:\n  count: 2\n  platforms: sonic\n  name: \"s{spine}\"\n"
                                         "  address: \"2001:db8::ff\"\n"}}));
  CHECK(device(l, "s2").address == "2001:db8::100");
  CHECK(error_of(spec_text({{"spines",
                             "spines:\n  count: 2\n  platforms: sonic\n  name: \"s{spine}\"\n"
                             "  address: 255.255.255.255\n"}})) ==
        "design.yaml:25:12: spines.address: \"255.255.255.255\" has no 2th address after it, for \"s2\"");
}

TEST_CASE("every way a spec cannot be built is one error at the value that decides it") {
  // Leaves named without {pod} collide in the second pod.
  CHECK(error_of(spec_text(), 17) ==
        "design.yaml:18:9: leaves.name: \"rail{rail}-leaf\" names \"rail0-leaf\" twice (also a device of leaves): "
        "add {pod} to it");
  // A leaf of 24 ports cannot take 20 servers and an uplink to each of 8 spines.
  CHECK(error_of(
            spec_text({{"leaves", "leaves:\n  radix: 24\n  pod_hosts: 20\n  platforms: sonic\n  name: \"l{rail}\"\n"},
                       {"spines", "spines:\n  count: 8\n  platforms: sonic\n  name: \"s{spine}\"\n"}})) ==
        "design.yaml:16:14: leaves: a leaf of 24 ports cannot take 20 servers of 1 NIC(s) on its rail and an uplink "
        "to each of 8 spines");
  // Spines too small for the pods.
  CHECK(error_of(
            spec_text({{"spines", "spines:\n  count: 2\n  radix: 16\n  platforms: sonic\n  name: \"s{spine}\"\n"}})) ==
        "design.yaml:23:10: spines.radix: 1 pods of 8 leaves, each with 4 uplink(s) to every spine, need 32 ports "
        "on each spine; 16 ports take at most 0 pods (0 servers)");
  CHECK(
      error_of(spec_text({{"rails", "rails: 3\n"}})) ==
      "design.yaml:7:8: rails: 3 does not divide hosts.nics (8) evenly: each rail takes the same NICs of every server");
  CHECK(error_of(spec_text({{"devices", "devices:\n  rail9-leaf: {groups: [rails]}\n"}})) ==
        "design.yaml:31:3: devices: \"rail9-leaf\" is not a device of this design (at 16 hosts)");
  CHECK(error_of(spec_text({{"devices", "devices:\n  rail1-leaf: {groups: [jericho]}\n"}})) ==
        "design.yaml:31:25: devices.rail1-leaf.groups: group \"jericho\" is not defined in groups");
  CHECK(error_of(spec_text({{"spines", "spines:\n  count: 2\n  platforms: [linux]\n  name: \"s{spine}\"\n"}})) ==
        "design.yaml:23:15: spines.platforms: \"linux\" is a host platform");
  CHECK(error_of(spec_text({{"spines", "spines:\n  count: 2\n  platforms: [sonc]\n  name: \"s{spine}\"\n"}})) ==
        "design.yaml:23:15: spines.platforms: unknown platform \"sonc\"");
  CHECK(error_of(spec_text({{"spines",
                             "spines:\n  count: 2\n  platforms: sonic\n  name: \"s{spine}\"\n"
                             "  ports: [Ethernet0, Ethernet4]\n"}})) ==
        "design.yaml:25:22: spines.ports: lists 2 ports; the design needs at least 3");
  CHECK(error_of(spec_text({{"hosts", "hosts:\n  count: 16\n  nics: 8\n  name: \"gpu {host}\"\n"}})) ==
        "design.yaml:11:9: hosts.name: makes \"gpu 1\", which is not a device name ([A-Za-z0-9][A-Za-z0-9._-]{0,62})");
  CHECK(error_of(
            spec_text({{"hosts", "hosts:\n  count: 16\n  nics: 8\n  name: \"gpu{host}\"\n  address: 192.0.2.1\n"}})) ==
        "design.yaml:12:12: hosts.address: gives \"192.0.2.1\" to \"gpu1\" and to \"spine1\"");
}

TEST_CASE("a fabric beyond what an inventory file holds is refused before it is laid out") {
  CHECK(error_of(spec_text({{"hosts", "hosts:\n  count: 1000000\n  nics: 8\n  name: \"gpu{host}\"\n"},
                            {"leaves", "leaves:\n  radix: 64\n  platforms: sonic\n  name: \"p{pod}-r{rail}\"\n"}})) ==
        "design.yaml:9:10: hosts: 1000000 servers make 16000000 cables, more than the 600000 one inventory file holds");
}

TEST_CASE("a section left out is one error") {
  Designed d = designed(
      "profile: roce-pfc-only\nleaves: {radix: 8, platforms: sonic, name: \"l{rail}\"}\n"
      "spines: {count: 1, platforms: sonic, name: s}\n"
      "cables: {host: {speed: 400G, length_m: 1}, uplink: {speed: 400G, length_m: 1}}\n");
  CHECK(d.diags.str() ==
        "design.yaml:1:1: design: hosts is required\n"
        "design.yaml:1:1: design: the kind is required (design: rail-optimized)\n");
}

TEST_CASE("the spec's own mistakes are located and quoted") {
  Designed d = designed(
      "design: rail-optimised\nprofile: x\nhosts: {count: 0, nics: 8, name: \"h{nic}\"}\n"
      "leaves: {radix: 24, platforms: sonic, name: \"l{rail}\", colour: red}\n"
      "spines: {count: 2, platforms: sonic, name: s}\ncables: {host: {speed: 400g, length_m: 3}}\n");
  const std::string text = d.diags.str();
  CHECK_FALSE(d.spec.has_value());
  CHECK(text.find("design.yaml:1:9: design: \"rail-optimised\" is not one of rail-optimized") != std::string::npos);
  CHECK(text.find("design.yaml:3:16: hosts.count: \"0\" is out of range 1-1000000") != std::string::npos);
  CHECK(text.find("design.yaml:3:34: hosts.name: \"h{nic}\": unknown placeholder {nic}") != std::string::npos);
  CHECK(text.find("design.yaml:4:56: unknown key \"colour\" in leaves") != std::string::npos);
  CHECK(text.find("design.yaml:6:24: cables.host.speed: \"400g\" is not a speed") != std::string::npos);
  CHECK(text.find("design.yaml:6:9: cables.uplink is required ({speed: 400G, length_m: 3})") != std::string::npos);
}

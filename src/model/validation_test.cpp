// Root cause first: what validation drops as a consequence, folds, and only warns about.
#include <doctest/doctest.h>

#include "model/fabric.h"
#include "source_dir.h"

using namespace fabricctl;

namespace {

struct Resolved {
  Diags diags;
  Fabric fabric;
};

// The inventory text as one file "inv.yaml", against the shipped roce-lossless profile.
Resolved resolve(const std::string& inventory) {
  Resolved l;
  auto base = load_yaml(test::kSourceDir + "/profiles/roce-lossless.yaml", "profiles/roce-lossless.yaml", l.diags);
  REQUIRE(base);
  ProfileSet set = profiles_from_docs({*base}, l.diags);
  Inventory inv;
  if (auto doc = parse_yaml(inventory, "inv.yaml", l.diags)) read_inventory_doc(*doc, inv, l.diags);
  l.fabric = resolve_fabric(inv, set, l.diags);
  return l;
}

}  // namespace

TEST_CASE("a tab in indentation is named, at the tab") {
  Diags d;
  CHECK_FALSE(parse_yaml("devices:\n  a:\n\trole: host\n", "inv.yaml", d));
  CHECK(d.str() == "inv.yaml:3:1: tab character in indentation; YAML indents with spaces\n");
  Diags mid;
  CHECK_FALSE(parse_yaml("devices:\n  a:\n    role: host\n  \t  platform: linux\n", "inv.yaml", mid));
  CHECK(mid.str() == "inv.yaml:4:3: tab character in indentation; YAML indents with spaces\n");
  CHECK(mid.failed(file_entity("inv.yaml")));
  Diags fine;  // a tab inside a value is text, not indentation
  CHECK(parse_yaml("description: \"a\tb\"\n", "inv.yaml", fine));
  CHECK(fine.empty());
}

TEST_CASE("validate does not require mgmt; commands that connect do") {
  const Resolved l = resolve(R"(
defaults: {profile: roce-lossless}
devices:
  sw: {role: switch, platform: sonic, ports: {Ethernet0: {speed: 400G}}}
  h: {role: host, platform: linux, ports: {eth0: {rdma_device: mlx5_0}}}
links:
  - {a: h:eth0, b: sw:Ethernet0}
)");
  CHECK_MESSAGE(l.diags.empty(), l.diags.str());
  Diags connect;
  require_connect_settings(l.fabric, connect);
  CHECK(connect.str() ==
        "inv.yaml:4:3: devices.sw: missing mgmt.address\n"
        "inv.yaml:4:3: devices.sw: missing mgmt.user\n"
        "inv.yaml:4:3: devices.sw: no SSH authentication (set mgmt.key, mgmt.agent: true or mgmt.password_env)\n"
        "inv.yaml:5:3: devices.h: missing mgmt.address\n"
        "inv.yaml:5:3: devices.h: missing mgmt.user\n"
        "inv.yaml:5:3: devices.h: no SSH authentication (set mgmt.key, mgmt.agent: true or mgmt.password_env)\n");
  // What is written is still checked.
  const Resolved bad = resolve(R"(
defaults: {profile: roce-lossless}
devices:
  sw: {role: switch, platform: sonic, mgmt: {address: "a b"}, ports: {Ethernet0: {speed: 400G}}}
)");
  CHECK(bad.diags.str().find("mgmt.address: \"a b\" is not an IP address or host name") != std::string::npos);
}

TEST_CASE("warnings: a link without a speed, devices on no link; they do not fail the run") {
  const Resolved l = resolve(R"(
defaults: {profile: roce-lossless}
devices:
  sw: {role: switch, platform: sonic, ports: {Ethernet0: {}, Ethernet8: {}}}
  h: {role: host, platform: linux, ports: {eth0: {rdma_device: mlx5_0}}}
  spare1: {role: switch, platform: sonic, ports: {Ethernet0: {}}}
  spare2: {role: switch, platform: sonic, ports: {Ethernet0: {}}}
links:
  - {a: h:eth0, b: sw:Ethernet0}
)");
  CHECK_FALSE(l.diags.has_errors());
  CHECK(l.diags.str() ==
        "inv.yaml:6:3: warning: on no link: devices spare1 and spare2; verify compares both ends of links only\n"
        "inv.yaml:9:5: warning: link: no speed (set speed on the link or on a port); verify cannot check it\n");
  CHECK(l.diags.count(DiagSeverity::warning) == 2);
}

TEST_CASE("a device defined twice: links to the ports of the lost definition are not errors of their own") {
  const Resolved l = resolve(R"(
defaults: {profile: roce-lossless}
devices:
  leaf1: {role: switch, platform: sonic, ports: {Ethernet0: {speed: 400G}}}
  leaf1: {role: switch, platform: eos, ports: {Ethernet1/1: {speed: 400G}}}
  h: {role: host, platform: linux, ports: {eth0: {rdma_device: mlx5_0}, eth1: {rdma_device: mlx5_1}}}
links:
  - {a: h:eth0, b: leaf1:Ethernet0}
  - {a: h:eth1, b: leaf1:Ethernet9/1}
)");
  CHECK(l.diags.str() == "inv.yaml:5:3: duplicate key \"leaf1\" in devices\n");
}

TEST_CASE("one mistake on many devices is one line; platform aliases and port abbreviations are suggested") {
  const Resolved l = resolve(R"(
devices:
  a1: {role: switch, platform: eos, profile: roce-losless, ports: {Et1/1: {speed: 400G}}}
  a2: {role: switch, platform: eos, profile: roce-losless, ports: {Ethernet1/1: {speed: 400G}}}
  a3: {role: switch, platform: eos, profile: roce-losless, ports: {Ethernet1/1: {speed: 400G}}}
  c1: {role: switch, platform: cumulus, profile: roce-lossless, ports: {swp1: {speed: 400G}}}
links:
  - {a: a1:Ethernet1/1, b: a2:Ethernet1/1}
  - {a: a3:Et1/1, b: c1:swp1}
)");
  CHECK(
      l.diags.str() ==
      "inv.yaml:6:32: devices.c1.platform: \"cumulus\" is not one of sonic, eos, nvue, linux, nxos, junos; did you mean \"nvue\"?\n"
      "inv.yaml:3:46: profile: unknown profile \"roce-losless\" (devices a1, a2 and a3); did you mean "
      "\"roce-lossless\"?\n"
      "inv.yaml:3:68: devices.a1.ports: \"Et1/1\" is not a valid eos port name (like \"Ethernet1/1\"); did you mean "
      "\"Ethernet1/1\"?\n"
      "inv.yaml:9:9: link.a: device \"a3\" has no port \"Et1/1\"; did you mean \"Ethernet1/1\"?\n");
}

// The inventory and the snapshots share one definition of names (util/names.h): a device or RDMA
// device name of 63 characters is accepted by both, one of 64 by neither.
#include <doctest/doctest.h>

#include "model/fabric.h"

using namespace fabricctl;

namespace {

std::string resolve_errors(const std::string& host, const std::string& rdma_device) {
  const std::string inventory = R"(
defaults:
  profile: roce-lossless
  mgmt: {user: u, agent: true}
devices:
  sw:
    role: switch
    platform: sonic
    mgmt: {address: 192.0.2.1}
    ports:
      Ethernet0:
  )" + host + R"(:
    role: host
    platform: linux
    mgmt: {address: 192.0.2.2}
    ports:
      eth0: {rdma_device: )" + rdma_device +
                                R"(}
links:
  - {a: )" + host + R"(:eth0, b: sw:Ethernet0, speed: 400G}
)";
  Diags d;
  std::vector<YamlDoc> docs;
  auto base =
      load_yaml(std::string(FABRICCTL_SOURCE_DIR) + "/profiles/roce-lossless.yaml", "profiles/roce-lossless.yaml", d);
  REQUIRE(base);
  docs.push_back(*base);
  ProfileSet set = profiles_from_docs(docs, d);
  auto doc = parse_yaml(inventory, "inv.yaml", d);
  REQUIRE(doc);
  Inventory inv;
  read_inventory_doc(*doc, inv, d);
  (void)resolve_fabric(inv, set, d);
  return d.str();
}

}  // namespace

TEST_CASE("inventory names: 63 characters accepted, 64 rejected, as in snapshots") {
  const std::string ok(63, 'h'), too_long(64, 'h');
  CHECK(resolve_errors(ok, "mlx5_0") == "");
  CHECK(resolve_errors(too_long, "mlx5_0").find("devices: \"" + too_long + "\" is not a valid device name") !=
        std::string::npos);
  const std::string rdma_ok(63, 'm'), rdma_long(64, 'm');
  CHECK(resolve_errors("h", rdma_ok) == "");
  CHECK(resolve_errors("h", rdma_long).find(".rdma_device: \"" + rdma_long + "\" is not an RDMA device name") !=
        std::string::npos);
}

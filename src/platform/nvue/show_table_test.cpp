// NVUE text tables: NVIDIA's documented LLDP view, the LLDP neighbour table of shared/reference/outputs
// (trailing padding, empty cells), and tables that are not what the reader needs.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "platform/nvue/show_table.h"
#include "shared_dir.h"

using namespace fabricctl;
using namespace fabricctl::nvue;

namespace {

// As NVIDIA's NVUE reference prints `nv show interface lldp` (Show-Commands/LLDP), one row with no
// neighbour added.
const std::string kView =
    "Interface  Speed  Type  Remote Host      Remote Port      \n"
    "---------  -----  ----  ---------------  -----------------\n"
    "eth0       1G     eth   oob-mgmt-switch  swp10            \n"
    "swp1       1G     swp   server01         48:b0:2d:76:ee:8e\n"
    "swp2       1G     swp                                     \n"
    "swp51      1G     swp   spine01          swp1             \n";

}  // namespace

TEST_CASE("nvue lldp view: the neighbour of each port; a port without one is left out") {
  const auto got = lldp_view(kView);
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->ports.size() == 3);
  CHECK(got->ports.at("swp1").system_name == "server01");
  CHECK(got->ports.at("swp1").port_id == "48:b0:2d:76:ee:8e");
  CHECK(got->ports.at("swp51").port_id == "swp1");
  CHECK(got->ports.at("eth0").system_name == "oob-mgmt-switch");
  CHECK(got->ports.count("swp2") == 0);
}

TEST_CASE("nvue lldp view: not a table, a table without the columns, too large") {
  CHECK(lldp_view("Error: unknown view\n").error() ==
        "nv show interface --view=lldp: no table: no header line followed by a line of dashes");
  CHECK(lldp_view("Interface  Speed\n---------  -----\nswp1       1G\n").error() ==
        "nv show interface --view=lldp: the table has no column \"Remote Host\" (columns: Interface, Speed)");
  CHECK(lldp_view(std::string(9 << 20, ' ')).error().find("bytes is more than the limit") != std::string::npos);
  // A hostile interface name is no port: left out, the other rows read.
  const auto got = lldp_view(
      "Interface     Remote Host  Remote Port\n"
      "------------  -----------  -----------\n"
      "swp1;reboot   evil         x\n"
      "swp2          leaf2        swp2\n");
  REQUIRE(got);
  CHECK(got->ports.size() == 1);
  CHECK(got->ports.count("swp2") == 1);
}

TEST_CASE("nvue lldp view: a neighbour's name with a control character makes its port unreadable, not the switch") {
  const auto got = lldp_view(
      "Interface  Remote Host  Remote Port\n"
      "---------  -----------  -----------\n"
      "swp1       host\x1b[2J     eth0\n"
      "swp2       leaf2        swp2\n");
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ports.size() == 1);
  CHECK(got->ports.count("swp2") == 1);
  REQUIRE(got->unreadable.count("swp1"));
  CHECK(got->unreadable.at("swp1") ==
        "nv show interface --view=lldp: swp1: Remote Host: \"host\\x1b[2J\" is not 1-255 "
        "characters without control characters");
}

TEST_CASE("nvue table: the reference LLDP neighbour table (shared/reference/outputs/nvue)" *
          doctest::test_suite("external")) {
  const auto path = test::shared_path("reference/outputs/nvue/nv-show-interface-swp51-lldp-neighbor.txt");
  FABRICCTL_REQUIRE_SHARED_OR_SKIP(path);
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  const auto rows = parse_table(s.str(), {"Neighbor", "Remote IP", "Model", "SW Version", "Remote Port"});
  REQUIRE_MESSAGE(rows, rows.error());
  REQUIRE(rows->size() == 1);
  CHECK(rows->front().at("Neighbor") == "spine01");
  CHECK(rows->front().at("Remote IP") == "10.10.10.101");
  CHECK(rows->front().at("Model").empty());
  CHECK(rows->front().at("Remote Port") == "swp1");
}

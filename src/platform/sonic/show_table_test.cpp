// SONiC's show tables: the Command Reference's own outputs (shared, required in CI), tables as
// sonic-utilities prints them today (FEC and Vlan columns, right-aligned numbers), and hostile ones.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "platform/sonic/show_table.h"
#include "shared_dir.h"
#include "text_lines.h"

using namespace fabricctl;
using namespace fabricctl::sonic;

TEST_CASE("show interfaces status: the Command Reference's table" * doctest::test_suite("external")) {
  const auto path = test::shared_path("reference/outputs/sonic/show-interfaces-status_cmdref.txt");
  if (!test::shared_available(path)) return;
  std::string text = test::file_text(path);
  text = text.substr(0, text.rfind("<contiues"));  // the documentation's own closing line (SOURCES.md)
  const auto got = interfaces_status(text);
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->size() == 3);
  CHECK(got->at("Ethernet0").speed_mbps == 100000);
  CHECK(got->at("Ethernet0").mtu == 9100);
  CHECK(got->at("Ethernet0").oper_up == false);
  CHECK(got->at("Ethernet8").oper_up == false);
}

TEST_CASE("show lldp table: the Command Reference's table, a port ID with a space, the footer skipped" *
          doctest::test_suite("external")) {
  const auto path = test::shared_path("reference/outputs/sonic/show-lldp-table_cmdref.txt");
  if (!test::shared_available(path)) return;
  const auto got = lldp_table(test::file_text(path));
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->ports.size() == 3);
  CHECK(got->ports.at("Ethernet112").system_name == "T1-1");
  CHECK(got->ports.at("Ethernet112").port_id == "hundredGigE1/2");
  CHECK(got->ports.at("eth0").port_id == "GigabitEthernet 0/2");
}

TEST_CASE("show lldp table: a neighbour's name over 255 bytes makes its port unreadable, not the switch") {
  // As tabulate lays it out: the column as wide as its widest cell.
  const std::string name(300, 'h');
  const auto cell = [](const std::string& s, size_t width) { return s + std::string(width - s.size() + 2, ' '); };
  const auto got =
      lldp_table(cell("LocalPort", 9) + cell("RemoteDevice", 300) + "RemotePortID\n" + cell(std::string(9, '-'), 9) +
                 cell(std::string(300, '-'), 300) + "------------\n" + cell("Ethernet0", 9) + cell(name, 300) +
                 "Ethernet1\n" + cell("Ethernet4", 9) + cell("spine1", 300) + "Ethernet5\n");
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ports.size() == 1);
  CHECK(got->ports.at("Ethernet4").system_name == "spine1");
  REQUIRE(got->unreadable.count("Ethernet0"));
  CHECK(got->unreadable.at("Ethernet0").starts_with("show lldp table: Ethernet0: RemoteDevice: \"hhh"));
}

TEST_CASE("show interfaces status: today's columns, in any order, speeds in G and M, up and down") {
  // As tabulate lays it out: every column as wide as its widest cell, values right-aligned.
  const std::string text =
      "  Interface            Lanes  Speed   MTU  FEC  Alias    Vlan  Oper  Admin                                             Type  Asym PFC\n"
      "-----------  ---------------  -----  ----  ---  -----  ------  ----  -----  -----------------------------------------------  --------\n"
      "  Ethernet0      49,50,51,52   400G  9100   rs   etp1  routed    up     up  QSFP-DD Double Density 8X Pluggable Transceiver       off\n"
      "  Ethernet4      53,54,55,56   100M  9100  N/A   etp2  routed  down     up                                              N/A       off\n"
      "Ethernet120  121,122,123,124    N/A  1500  N/A  etp31  routed  down   down                                              N/A       off\n";
  const auto got = interfaces_status(text);
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->size() == 3);
  CHECK(got->at("Ethernet0").speed_mbps == 400000);
  CHECK(got->at("Ethernet0").oper_up == true);
  CHECK(got->at("Ethernet4").speed_mbps == 100);
  CHECK_FALSE(got->at("Ethernet120").speed_mbps);
  CHECK(got->at("Ethernet120").mtu == 1500);
}

TEST_CASE("show tables: not a table, a missing column, a hostile port name, an oversized output") {
  CHECK(interfaces_status("").error() ==
        "show interfaces status: no table: no header line followed by a line of dashes");
  CHECK(interfaces_status("% Error: unknown command\n").error().find("no table") != std::string::npos);
  CHECK(interfaces_status("Interface  Speed\n---------  -----\nEthernet0  100G\n").error() ==
        "show interfaces status: the table has no column \"MTU\" (columns: Interface, Speed)");
  // A row whose port name is not one the inventory could have is left out, never trusted.
  const std::string hostile =
      "Interface        Speed    MTU  Oper\n"
      "---------------  -------  ---  ----\n"
      "Ethernet0;id     100G     9100 up\n"
      "Ethernet4        100G     9100 up\n";
  const auto some = interfaces_status(hostile);
  REQUIRE_MESSAGE(some, some.error());
  CHECK(some->size() == 1);
  CHECK(some->count("Ethernet4") == 1);
  const auto lldp =
      lldp_table("LocalPort  RemoteDevice  RemotePortID\n---------  ------------  ------------\n$(reboot)  x  y\n");
  REQUIRE(lldp);
  CHECK(lldp->ports.empty());
  CHECK_FALSE(interfaces_status(std::string(9u << 20, ' ')));
  // Truncated anywhere: an error or fewer rows, never a crash.
  const std::string good =
      "Interface    Lanes    Speed    MTU  Alias  Oper  Admin\n"
      "-----------  -------  -------  ---  -----  ----  -----\n"
      "Ethernet0    1,2      100G     9100 e1     up    up\n"
      "Ethernet4    3,4      100G     9100 e2     up    up\n";
  for (size_t cut = 0; cut <= good.size(); ++cut) {
    const auto got = interfaces_status(good.substr(0, cut));
    if (got) CHECK(got->size() <= 2);
  }
}

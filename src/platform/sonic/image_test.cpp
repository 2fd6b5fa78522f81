// `show version` as sonic-utilities prints it (show/main.py `version`), and what a hostile or
// truncated output gets.
#include "platform/sonic/image.h"

#include <doctest/doctest.h>

using namespace fabricctl::sonic;

namespace {

// The line order of 202205 to 202511; the values of a 202305 Broadcom image.
constexpr const char* kShown = R"(
SONiC Software Version: SONiC.20230531.22
SONiC OS Version: 11
Distribution: Debian 11.7
Kernel: 5.10.0-18-2-amd64
Build commit: 8c08d87
Build date: Wed May 31 08:03:42 UTC 2023
Built by: sonicbld@jenkins-slave-phx-2

Platform: x86_64-accton_as9726_32d-r0
HwSKU: Accton-AS9726-32D
ASIC: broadcom
ASIC Count: 1
Serial Number: AB12345
Model Number: FN-9726
Hardware Revision: N/A
Uptime: 08:00:00 up 1 day,  1 user,  load average: 0.10, 0.20, 0.30
Date: Thu 01 Jun 2023 08:00:00

Docker images:
REPOSITORY                 TAG           IMAGE ID       SIZE
docker-orchagent           20230531.22   0123456789ab   340MB
)";

}  // namespace

TEST_CASE("sonic show version: the image, its branch, HWSKU and ASIC") {
  const auto image = parse_show_version(kShown);
  REQUIRE_MESSAGE(image, image.error());
  CHECK(image->build_version == "20230531.22");
  CHECK(image->branch == "202305");
  CHECK(image->hwsku == "Accton-AS9726-32D");
  CHECK(image->asic == "broadcom");
  CHECK(image->asic_count == 1);
  CHECK(describe(*image) == "SONiC.20230531.22 (202305), HwSKU Accton-AS9726-32D, ASIC broadcom");
  // What collect keeps: the lines read, without the uptime, date, serial number or images.
  CHECK(keep_version_lines(kShown) ==
        "SONiC Software Version: SONiC.20230531.22\nPlatform: x86_64-accton_as9726_32d-r0\n"
        "HwSKU: Accton-AS9726-32D\nASIC: broadcom\nASIC Count: 1\n");
  CHECK(parse_show_version(keep_version_lines(kShown))->hwsku == "Accton-AS9726-32D");
}

TEST_CASE("sonic show version: branches of official, branch and master builds") {
  CHECK(branch_of("20230531.22") == "202305");
  CHECK(branch_of("202311.4-1a2b3c4d") == "202311");
  CHECK(branch_of("master.1234-abcdef") == "master");
  CHECK(branch_of("SONiC-OS-4.2.0") == "");  // a vendor's own numbering: no branch known
  CHECK(branch_of("2023") == "");
}

TEST_CASE("sonic show version: a missing, repeated or hostile line is an error") {
  CHECK(parse_show_version("HwSKU: x\nASIC: broadcom\n").error() == "show version: no SONiC Software Version line");
  CHECK(parse_show_version("SONiC Software Version: SONiC.1\nASIC: broadcom\n").error() ==
        "show version: no HwSKU line");
  CHECK(parse_show_version("SONiC Software Version: 4.2\nHwSKU: x\nASIC: y\n").error() ==
        "show version: software version \"4.2\" is not SONiC.<build version>");
  CHECK(parse_show_version("SONiC Software Version: SONiC.1\nHwSKU: x\nHwSKU: y\nASIC: z\n").error() ==
        "show version: two HwSKU lines");
  CHECK(parse_show_version("SONiC Software Version: SONiC.1\nHwSKU: x\x1b[2J\nASIC: z\n").error() ==
        "show version: the HwSKU line is not printable text of at most 128 characters");
  CHECK(parse_show_version("SONiC Software Version: SONiC.1\nHwSKU: " + std::string(129, 'a') + "\nASIC: z\n")
            .error()
            .find("at most 128") != std::string::npos);
  CHECK(parse_show_version("SONiC Software Version: SONiC.1\nHwSKU: x\nASIC: z\nASIC Count: 0\n").error() ==
        "show version: ASIC Count \"0\" is not 1 to 64");
  const auto multi = parse_show_version("SONiC Software Version: SONiC.1\nHwSKU: x\nASIC: z\nASIC Count: 6\n");
  REQUIRE(multi);
  CHECK(multi->asic_count == 6);
}

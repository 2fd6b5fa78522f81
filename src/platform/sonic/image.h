// The SONiC image a switch runs, as `show version` prints it: what decides which of the generic config
// updater's field validators apply (docs/sonic-gcu.md), so that a plan can say how each part of the
// change goes and why.
#pragma once

#include <string>
#include <string_view>

#include "util/expected.h"

namespace fabricctl::sonic {

struct Image {
  std::string build_version;  // "20230531.22", "202311.4-1a2b3c4d": sonic_version.yml's build_version
  std::string branch;         // "202305", "master"; "" when the build version names none
  std::string hwsku;          // "Force10-S6000"
  std::string asic;           // "broadcom", "mellanox": sonic_version.yml's asic_type
  int asic_count = 1;         // more than 1: a multi-ASIC switch
};

/// Reads `show version` (sonic-utilities show/main.py `version`: "Key: value" lines, then the docker
/// images table, which is not read). Strict: the software version, HwSKU and ASIC lines must be there
/// once, printable and at most 128 characters; device output is untrusted.
Expected<Image> parse_show_version(std::string_view text);

/// The release branch a build version names: the first 6 digits of an official build ("20230531.22":
/// "202305") or of a branch build ("202311.4-1a2b3c4d": "202311"), or its leading word ("master.123-ab":
/// "master"); "" when it names none.
std::string branch_of(std::string_view build_version);

/// The lines of `show version` fabricctl reads, and nothing else (uptime and date change on every read,
/// the serial number is not fabricctl's business): what collect keeps as version.txt.
std::string keep_version_lines(std::string_view text);

/// One line for the plan: "SONiC.20230531.22 (202305), HwSKU Force10-S6000, ASIC broadcom".
std::string describe(const Image& image);

}  // namespace fabricctl::sonic

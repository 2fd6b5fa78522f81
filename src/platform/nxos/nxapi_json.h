// What every NX-OS JSON reader needs (show_json.cpp, queuing_json.cpp): NX-OS prints tables as
// TABLE_<x>.ROW_<x>, where a table of one row holds that row as an object instead of a list, and prints
// numbers as strings or as integers depending on the release (docs/reference-nxos.md, section D). Paths
// in messages are kept as text: `where` is the path of the value read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/json_reader.h"

namespace fabricctl::nxos {

/// An Ethernet port: Ethernet1/1, breakouts Ethernet1/1/1 (NX-OS never prints Ethernet1 alone).
bool ethernet(std::string_view name);

/// A number NX-OS prints as a JSON integer or as a string of decimal digits, in [lo, hi]; fails with the
/// path and the value quoted.
int64_t nxapi_number(jsonr::Value v, const jsonr::Path& path, int64_t lo, int64_t hi);

/// A counter NX-OS prints as a JSON integer or as a string of decimal digits, of up to 64 bits.
uint64_t nxapi_count(jsonr::Value v, const jsonr::Path& path);

/// A QoS group as `show queuing` prints it in `eq-qosgrp`: an integer, or a string holding the group as
/// its one number, alone or after `QOS GROUP ` and before a space and text without digits ("3", "3 ",
/// "QOS GROUP 3", "3 [Active]"); 0-7. A string without any digit (`CONTROL QOS GROUP`, `SPAN QOS
/// GROUP`: the switch's own queues, which no profile sets) is no group: nothing. Fails on anything else
/// ("-1", "x3", "3 and 4").
std::optional<int> nxapi_qos_group(jsonr::Value v, const jsonr::Path& path);

/// A row of an NX-OS table, and its path for messages (`TABLE_x.ROW_x[2]`, under its parent's).
struct NxapiRow {
  std::string at;
  jsonr::Value value;
};

/// The rows of TABLE_<name>.ROW_<name> in `root` (at `where`): a list, or one row as an object; each an
/// object. No table: no rows. Fails on a table that is not an object, rows that are neither, or a row
/// that is not an object.
std::vector<NxapiRow> nxapi_rows(jsonr::Value root, std::string_view name, const std::string& where = "");

/// The string at `key` of a row (at `where`), or nothing when the row lacks it; fails on another type.
std::optional<std::string_view> nxapi_text(jsonr::Value row, const std::string& where, std::string_view key);

}  // namespace fabricctl::nxos

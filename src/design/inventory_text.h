// The inventory files of a designed fabric, as text: fabric.yaml (defaults and groups), switches.yaml,
// hosts.yaml and links.yaml, in the layout of the inventory docs (docs/inventory.md), one line a port
// and a cable. Each starts with the header design_header() writes, which `--grow` reads back.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "design/rail_layout.h"

namespace fabricctl::design {

/// File name -> text, for every file the design writes.
using InventoryFiles = std::map<std::string, std::string, std::less<>>;

InventoryFiles inventory_files(const RailSpec& spec, const Layout& layout);

/// The first line of every file: which design made it, at how many servers.
std::string design_header(const RailSpec& spec, int64_t hosts);
/// The server count a file's first line names, if it is a design header.
std::optional<int64_t> hosts_in_header(std::string_view text);

}  // namespace fabricctl::design

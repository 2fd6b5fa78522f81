// Cisco NX-OS write side: what `configure terminal` must be given for the running configuration to hold
// the desired blocks (config.h). docs/transactions-nxos.md gives the rules with examples.
#pragma once

#include <string>
#include <vector>

#include "platform/nxos/config.h"

namespace fabricctl::nxos {

/// The lines that make `running` hold `desired`, as blocks in NX-OS's layout: a block's line where one of
/// its children differs, the desired lines running lacks, `no <line>` for a line of what fabricctl owns
/// (its class maps and policies) that the intent no longer has, and last the removal of its class maps
/// no policy names any more. Empty: running holds the desired configuration.
Config difference(const Config& desired, const Config& running);

/// The change as one `configure terminal` exec: its lines joined by " ; " (NX-OS's CLI separator), with an
/// `exit` after each block's children so that every line is entered in its block's mode.
std::string exec_lines(const Config& change);

/// Running, canonical for a plan's base: blocks sorted by their line, children in order.
std::string canonical(const Config& running);

}  // namespace fabricctl::nxos

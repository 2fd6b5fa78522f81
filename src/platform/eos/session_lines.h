// EOS write side: session.cfg as its template lays it out (built from eos_context(), so that change()
// needs no template directory; a test holds the two equal), and which of its lines a running-config does
// not hold yet, block by block (global lines, `interface X` blocks, their `uc-tx-queue N`/`tx-queue N`
// blocks), so that apply sends only what differs.
#pragma once

#include <string>
#include <string_view>

#include "state/desired.h"
#include "util/expected.h"

namespace fabricctl::eos {

/// session.cfg for `device`, character for character what templates/eos/session.cfg.mustache renders.
std::string session_text(const DeviceDesired& device);

/// The lines of `session` that `running` (the kept `show running-config`) does not hold yet, under their
/// block headers in running-config layout ("!" closing each block); "" when nothing differs. A plain
/// line is held when the same block of running has it, or when it states what EOS prints no line for
/// (its default: `priority strict`, `priority-flow-control pause watchdog`, ...); a `no X` line when the
/// block has no line X (nor X followed by more words). `qos map` lines are compared value by value with
/// EOS's default maps and narrowed to the DSCPs / traffic-classes that differ. The error: `running` is not
/// a running-config fabricctl can read (size, NUL, a malformed global line, no `end`).
Expected<std::string> unsatisfied(std::string_view session, std::string_view running);

/// `running` (kept running-config text) as canonical text: comments and separators dropped, global lines
/// sorted, blocks sorted by header and their lines sorted, so that EOS's block order does not matter.
Expected<std::string> canonical(std::string_view running);

}  // namespace fabricctl::eos

// The layout of EOS's `show running-config`: top-level lines at column 0, a block's lines (`interface X`,
// `qos profile X`) indented 3 spaces, a queue block's lines (`uc-tx-queue N` inside an interface)
// indented 6, `!` closing a block and `!!` a comment. One walk over the text for the parser and for the
// filter that decides what is saved (running_config.cpp), so that both see the same structure.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.h"

namespace fabricctl::eos {

/// Where a line sits.
enum class Scope {
  top,        // column 0: a global line, or a block header
  block,      // directly in an `interface` or `qos profile` block
  queue,      // in a `uc-tx-queue N` / `tx-queue N` block of one of them
  elsewhere,  // in any other block (class-map, policy-map, mc-tx-queue, ...): never read
};

/// One line of the text, with what the walk knows of it.
struct ConfigLine {
  size_t number;                        // 1-based
  std::string_view text;                // without indentation and trailing '\r'
  std::vector<std::string_view> words;  // split on spaces
  Scope scope;
  bool separator;  // `!` or an `!!` comment
};

// Bounds on one running-config: a 512-port switch with QoS on every port prints about a megabyte.
inline constexpr size_t kMaxConfigBytes = size_t{32} << 20;
inline constexpr size_t kMaxLineBytes = size_t{64} * 1024;

/// Calls `visit` on every line of `text` in order. The error: the text is over kMaxConfigBytes, a line
/// is over kMaxLineBytes, or the text holds a NUL byte (no EOS configuration does).
Expected<bool> walk_config(std::string_view text, const std::function<void(const ConfigLine&)>& visit);

/// True for `tx-queue N` and `uc-tx-queue N`: the queue block headers fabricctl reads.
bool queue_header(const std::vector<std::string_view>& words);

}  // namespace fabricctl::eos

// The report of an nccl-tests collective (all_reduce_perf and its siblings), as NVIDIA/nccl-tests
// src/util.cu prints it: the ranks (`#  Rank  0 Group  0 Pid ... on <host> device 0 [...] <GPU>`), a
// result table whose header names its columns (`size count type redop root time algbw busbw #wrong`, out
// of place then in place; releases before the root column, and with `error` for `#wrong`, read too), and
// the footer (`# Out of bounds values : 0 OK`, `# Avg bus bandwidth : 26.2`). Bandwidths are GB/s (10^9
// bytes a second; nccl-tests' PERFORMANCE.md). The output is untrusted: bounded, every number checked,
// errors name the line.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "util/expected.h"

namespace fabricctl::acceptance {

struct CollectiveRun {
  int ranks = 0;
  std::set<std::string> hosts;   // where the ranks ran
  uint64_t largest_bytes = 0;    // the table's last (largest) message size
  double largest_busbw_gbs = 0;  // its bus bandwidth, the better of out of place and in place
  double average_busbw_gbs = 0;  // the footer's average over every size
  uint64_t out_of_bounds = 0;    // wrong results the footer counts: not 0 is a failed run
};

/// The run `text` reports. The error (with the line number): no result table or footer, a row whose
/// numbers do not read, or more than 4 MiB of text.
Expected<CollectiveRun> parse_nccl_tests(std::string_view text);

}  // namespace fabricctl::acceptance

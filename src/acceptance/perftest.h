// The report perftest's bandwidth tools print (ib_write_bw, ib_read_bw, ib_send_bw): the test's
// parameters (`Device : mlx5_0`, `Link type : Ethernet`, `GID index : 3`, `Mtu : 4096[B]`) and its result
// table under a header naming the units, `BW average[Gb/sec]` with --report_gbits (Gb/s: 10^9 bits),
// else `[MiB/sec]` (`[MB/sec]` before perftest 4.5-0.20; both 2^20 bytes: perftest_parameters.c's
// format_factor). Columns are found by the header's names, so the QoS (`#sl`) and per-port layouts read
// too. The output is untrusted: bounded, every number checked, errors name the line.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "util/expected.h"

namespace fabricctl::acceptance {

struct BandwidthRun {
  std::string test;       // "RDMA_Write BW Test"
  std::string device;     // "mlx5_0"
  std::string link_type;  // "Ethernet" (RoCE) or "IB"
  std::optional<int> gid_index;
  uint64_t message_bytes = 0;  // the last row's message size: the largest with -a
  double average_gbps = 0;     // that row's average bandwidth, Gb/s (10^9 bits a second)
  double peak_gbps = 0;
};

/// The run `text` reports. The error (with the line number): no result table, a row whose numbers do not
/// read, units it does not know, or more than 1 MiB of text.
Expected<BandwidthRun> parse_perftest(std::string_view text);

}  // namespace fabricctl::acceptance

// `fabricctl acceptance` run live: each pair's ib_write_bw (perftest) over SSH, a rail at a time. The
// server starts on the pair's second host, then the client on the first, pointed at the server's
// management address (perftest's out-of-band exchange is TCP; the test itself runs on the RDMA device
// the inventory gives each port, with the profile's RoCE traffic class). perftest's client does not wait
// for its server: it tries again, a second apart, while the server runs. Its report is what
// acceptance::judge reads.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "acceptance/acceptance.h"
#include "model/fabric.h"
#include "ops/context.h"
#include "util/expected.h"

namespace fabricctl::ops {

struct AcceptanceRunOptions {
  int seconds = 10;        // each test's duration (-D), seconds
  int tcp_port = 18515;    // perftest's out-of-band port (-p), its default
  int connect_tries = 10;  // the client's tries while its server starts, a second apart
  size_t jobs = 8;         // pairs of a rail at once (two SSH sessions each)
};

/// Waits `d`, or less when the run is asked to stop; false when it was.
using PauseFor = std::function<bool(std::chrono::milliseconds d)>;

/// The command line of one end of `pair` (the server's without an address), every value checked and
/// quoted; the error names what the inventory lacks for it (an RDMA device on the port).
Expected<std::string> ib_write_bw_command(const Fabric& fabric, const acceptance::Pair& pair, bool client,
                                          const AcceptanceRunOptions& o);

/// Each pair's client report by pair name, or why the pair has none (the server's or the client's
/// failure, named). Rails one after another; the pairs of a rail `jobs` at a time.
std::map<std::string, Expected<std::string>> run_acceptance(const Fabric& fabric,
                                                            const std::vector<acceptance::Pair>& pairs,
                                                            const AcceptanceRunOptions& o, Context& ctx,
                                                            const PauseFor& pause);

/// The reports kept in `dir` (REPORT.txt each), by name without .txt; none when `dir` is not there. The
/// error names a file that is not a report, or cannot be read (at most 4 MiB each, no links).
Expected<std::map<std::string, std::string>> read_reports(const std::filesystem::path& dir);

/// Writes `text` to `file` atomically, its directory made first.
Expected<void> save_text(const std::filesystem::path& file, std::string_view text);

}  // namespace fabricctl::ops

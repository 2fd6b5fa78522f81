// nccl-tests' report in the layout NVIDIA/nccl-tests src/util.cu prints (writeResultHeader, the row
// format of common.cu, writeResultFooter): the current one with the root column and #wrong, and the
// older one without root and with `error`. The numbers and hosts are this test's own. Then malformed
// variants.
#include "acceptance/nccl_tests.h"

#include <doctest/doctest.h>

using namespace fabricctl;
using namespace fabricctl::acceptance;

namespace {

constexpr std::string_view kRanks =
    "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
    "validation: 1 graph: 0\n"
    "#\n"
    "# Using devices\n"
    "#  Rank  0 Group  0 Pid   4101 on    gpu01 device  0 [0000:18:00] NVIDIA H100 80GB HBM3\n"
    "#  Rank  1 Group  0 Pid   4102 on    gpu01 device  1 [0000:2a:00] NVIDIA H100 80GB HBM3\n"
    "#  Rank  2 Group  0 Pid   3977 on    gpu02 device  0 [0000:18:00] NVIDIA H100 80GB HBM3\n"
    "#  Rank  3 Group  0 Pid   3978 on    gpu02 device  1 [0000:2a:00] NVIDIA H100 80GB HBM3\n";

constexpr std::string_view kTable =
    "#\n"
    "#                                                              out-of-place                       in-place          \n"
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
    "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       \n"
    "           8             2     float     sum      -1    40.12    0.00    0.00      0    39.87    0.00    0.00      0\n"
    "  4294967296    1073741824     float     sum      -1  47012.3   91.36  171.30      0  46990.1   91.40  171.38      0\n"
    "  8589934592    2147483648     float     sum      -1  93880.5   91.50  171.56      0  93900.2   91.48  171.52      0\n";

constexpr std::string_view kFooter =
    "# Out of bounds values : 0 OK\n"
    "# Avg bus bandwidth    : 98.4521 \n"
    "#\n"
    "# Collective test concluded: all_reduce_perf\n";

std::string whole() { return std::string(kRanks) + std::string(kTable) + std::string(kFooter); }

}  // namespace

TEST_CASE("nccl-tests: all_reduce_perf's report, its ranks, largest size and average bus bandwidth") {
  const auto got = parse_nccl_tests(whole());
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ranks == 4);
  CHECK(got->hosts == std::set<std::string>{"gpu01", "gpu02"});
  CHECK(got->largest_bytes == 8589934592U);
  CHECK(got->largest_busbw_gbs == doctest::Approx(171.56));  // out of place beat in place here
  CHECK(got->average_busbw_gbs == doctest::Approx(98.4521));
  CHECK(got->out_of_bounds == 0);
}

TEST_CASE("nccl-tests: the layout before the root column, `error` for #wrong; wrong values counted") {
  std::string old =
      std::string(kRanks) +
      "#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error\n"
      "#        (B)    (elements)                     (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n"
      "   134217728      33554432   float     sum   1801.2   74.52  139.72  0e+00   1800.9   74.53  139.74  0e+00\n"
      "# Out of bounds values : 3 FAILED\n"
      "# Avg bus bandwidth    : 139.73 \n";
  const auto got = parse_nccl_tests(old);
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->largest_busbw_gbs == doctest::Approx(139.74));
  CHECK(got->out_of_bounds == 3);
}

TEST_CASE("nccl-tests: no table, a cut-off run or a bad number is an error naming the line") {
  CHECK(parse_nccl_tests("mpirun was unable to launch the specified application\n").error() ==
        "no result table (size ... busbw)");
  CHECK(parse_nccl_tests(std::string(kRanks) + std::string(kTable)).error() ==
        "no footer (# Out of bounds values, # Avg bus bandwidth): the run did not finish");
  std::string bad = whole();
  bad.replace(bad.find("171.56"), 6, "171,56");
  CHECK(parse_nccl_tests(bad).error() == "line 14: \"171,56\" is not a bandwidth");
  bad = whole();
  bad.replace(bad.find("98.4521"), 7, "fast");
  CHECK(parse_nccl_tests(bad).error() == "line 16: \"fast\" is not a bandwidth");
  bad = whole();
  bad.replace(bad.find("  8589934592    2147483648     float"), 36, "  8589934592");
  CHECK(parse_nccl_tests(bad).error().find("line 14: a result row of") == 0);
  CHECK(parse_nccl_tests(std::string(size_t{5} << 20, '#')).error() == "more than 4 MiB: not an nccl-tests report");
}

// perftest's bandwidth report in its documented shapes: the layout of perftest_parameters.h (RESULT_LINE,
// RESULT_FMT_G, RESULT_FMT, RESULT_FMT_G_QOS, REPORT_FMT) as ib_write_bw prints it over RoCE (the shape of
// the reports quoted in linux-rdma/perftest issues #273 and #234: parameters two to a line apart by tabs);
// the numbers are this test's own. Then malformed and hostile variants.
#include "acceptance/perftest.h"

#include <doctest/doctest.h>

using namespace fabricctl;
using namespace fabricctl::acceptance;

namespace {

std::string report(std::string_view header, std::string_view row) {
  return std::string(
             "---------------------------------------------------------------------------------------\n"
             "                    RDMA_Write BW Test\n"
             " Dual-port       : OFF\t\tDevice         : mlx5_0\n"
             " Number of qps   : 1\t\tTransport type : IB\n"
             " Connection type : RC\t\tUsing SRQ      : OFF\n"
             " PCIe relax order: ON\n"
             " TX depth        : 128\n"
             " CQ Moderation   : 1\n"
             " Mtu             : 4096[B]\n"
             " Link type       : Ethernet\n"
             " GID index       : 3\n"
             " Max inline data : 0[B]\n"
             " rdma_cm QPs\t : OFF\n"
             " Data ex. method : Ethernet\n"
             "---------------------------------------------------------------------------------------\n"
             " local address: LID 0000 QPN 0x0108 PSN 0x63ad7d RKey 0x17eedf VAddr 0x007f760c947000\n"
             " GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:05\n"
             "---------------------------------------------------------------------------------------\n") +
         std::string(header) + "\n" + std::string(row) + "\n" +
         "---------------------------------------------------------------------------------------\n";
}

constexpr std::string_view kGbits = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]";

}  // namespace

TEST_CASE("perftest: an ib_write_bw report with --report_gbits") {
  const auto got =
      parse_perftest(report(kGbits, " 65536      5000             372.41             371.87\t\t     0.709280"));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->test == "RDMA_Write BW Test");
  CHECK(got->device == "mlx5_0");
  CHECK(got->link_type == "Ethernet");
  CHECK(got->gid_index == 3);
  CHECK(got->message_bytes == 65536);
  CHECK(got->average_gbps == doctest::Approx(371.87));
  CHECK(got->peak_gbps == doctest::Approx(372.41));
}

TEST_CASE("perftest: MiB/sec (and MB/sec before 4.5-0.20) are 2^20 bytes; -a's last row is the largest") {
  const std::string rows =
      " 65536      5000             44000.00            43000.00\t\t     0.688000\n"
      " 8388608    5000             45000.00            44330.50\t\t     0.005541";
  for (const char* unit : {"MiB/sec", "MB/sec"}) {
    CAPTURE(unit);
    const std::string header =
        std::string(" #bytes     #iterations    BW peak[") + unit + "]    BW average[" + unit + "]   MsgRate[Mpps]";
    const auto got = parse_perftest(report(header, rows));
    REQUIRE_MESSAGE(got, got.error());
    CHECK(got->message_bytes == 8388608);
    CHECK(got->average_gbps == doctest::Approx(44330.50 * 1048576 * 8 / 1e9));  // 371.87 Gb/s
  }
}

TEST_CASE("perftest: columns by the header's names (the QoS layout has #sl)") {
  const auto got =
      parse_perftest(report(" #bytes    #sl      #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]",
                            " 65536      3        5000           380.00             360.25\t\t     0.687"));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->average_gbps == doctest::Approx(360.25));
}

TEST_CASE("perftest: what is not a report, or a row that does not read, is an error naming the line") {
  CHECK(parse_perftest("").error() == "no result table (#bytes ... BW average)");
  CHECK(parse_perftest(" Couldn't connect to 10.0.0.5:18515\nUnable to init the socket connection\n").error() ==
        "no result table (#bytes ... BW average)");
  CHECK(parse_perftest(report(kGbits, "")).error() == "a result table without rows");
  CHECK(parse_perftest(report(kGbits, " 65536      5000             372.41"))
            .error()
            .find("line 20: a result row of 3 values") == 0);
  CHECK(parse_perftest(report(kGbits, " 65536      5000             372.41             -1\t 0.7")).error() ==
        "line 20: \"-1\" is not a bandwidth");
  CHECK(parse_perftest(report(kGbits, " 65536      5000             nan             1e9\t 0.7")).error() ==
        "line 20: \"nan\" is not a bandwidth");
  CHECK(parse_perftest(report(kGbits, " 9x      5000             1             1\t 0.7")).error() ==
        "line 20: \"9x\" is not a message size");
  CHECK(parse_perftest(
            report(" #bytes     #iterations    BW peak[Tb/sec]    BW average[Tb/sec]   MsgRate[Mpps]", " 1 1 1 1 1"))
            .error()
            .find("line 19: a result header without BW peak and BW average in Gb/sec or MiB/sec") == 0);
  CHECK(parse_perftest(std::string(size_t{2} << 20, ' ')).error() == "more than 1 MiB: not a perftest report");
  // A hostile device name is kept printable, never raw.
  std::string hostile = report(kGbits, " 65536 5000 1.00 1.00 0.1");
  hostile.replace(hostile.find("mlx5_0"), 6, "mlx5\x1b[2J");
  CHECK(parse_perftest(hostile)->device.find('\x1b') == std::string::npos);
}

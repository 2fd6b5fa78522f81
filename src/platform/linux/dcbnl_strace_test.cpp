// The codec's IEEE get request against what iproute2's own `dcb` sends: strace records the bytes of
// `dcb pfc|ets|app show dev X` on a veth in a namespace of the test's own, and the first RTM_GETDCB must
// equal encode_ieee_get(X) byte for byte, nlmsg_seq and nlmsg_pid aside (dcb takes time(NULL) as its seq;
// the transport sets ours). On a veth the kernel answers that first GET with EOPNOTSUPP and dcb stops, so
// that first request is what there is to compare. Needs root, strace and dcb; skips without them.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "netns_fixture.h"
#include "platform/linux/dcbnl.h"
#include "shared_dir.h"
#include "util/subprocess.h"

using namespace fabricctl;

namespace {

bool have_tool(const std::string& tool) {
  return run_command({"sh", "-c", "command -v \"$1\"", "sh", tool}) ||
         test::unavailable(tool + " is not installed (scripts/install-deps installs it)");
}

/// The bytes of every sendto/sendmsg in an strace log written with `-e write=all`: each call's line is
/// followed by hex dump lines " | 00000  1c 00 ...  ....  |" (16 bytes a line, 5-digit offset).
std::vector<NetlinkBytes> sent_buffers(const std::string& log) {
  std::vector<NetlinkBytes> out;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("sendto(") != std::string::npos || line.find("sendmsg(") != std::string::npos) {
      out.emplace_back();
      continue;
    }
    const size_t bar = line.find(" | ");
    if (bar == std::string::npos || out.empty()) continue;
    // " | " then the offset (5 hex digits) and two spaces, then 16 "xx " groups with one extra space.
    const std::string hex = line.substr(bar + 3 + 7, 16 * 3 + 1);
    std::istringstream words(hex);
    for (std::string w; words >> w;) out.back().push_back(static_cast<uint8_t>(std::stoul(w, nullptr, 16)));
  }
  return out;
}

}  // namespace

TEST_CASE("dcbnl: the IEEE get request is byte for byte what iproute2 dcb sends" * doctest::test_suite("external")) {
  test::Netns ns("dcbstrace");
  if (!ns.available() || !have_tool("strace") || !have_tool("dcb")) return;
  const std::string log = "/tmp/" + ns.name() + ".strace";
  for (const std::string object : {"pfc", "ets", "app"}) {
    CAPTURE(object);
    // dcb exits 1 after the EOPNOTSUPP: the script's own status is what matters.
    auto r = run_command({"sh", "-c",
                          "strace -f -qq -e trace=sendmsg,sendto -e write=all -xx -s 4096 -o \"$1\" "
                          "ip netns exec \"$2\" dcb \"$3\" show dev \"$4\" 2>/dev/null; test -s \"$1\"",
                          "sh", log, ns.name(), object, ns.a});
    REQUIRE_MESSAGE(r.has_value(), r.error());
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    std::remove(log.c_str());
    NetlinkBytes sent;
    for (NetlinkBytes& b : sent_buffers(text.str())) {
      if (b.size() >= 20 && b[4] == 78 && b[5] == 0) {  // nlmsg_type RTM_GETDCB (78), host order
        sent = std::move(b);
        break;
      }
    }
    REQUIRE_MESSAGE(!sent.empty(), "no RTM_GETDCB in the strace log:\n" << text.str());
    std::fill(sent.begin() + 8, sent.begin() + 16, uint8_t{0});  // nlmsg_seq, nlmsg_pid
    auto ours = encode_ieee_get(ns.a);
    REQUIRE(ours.has_value());
    CHECK(sent == *ours);
  }
}

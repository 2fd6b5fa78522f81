// Fuzzes the snapshot reader (untrusted files written by fleets of hosts) through its public
// API, and checks the documented round trip: a snapshot that parses writes back to text that
// parses to the same bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.h"
#include "state/snapshot.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fabricctl;
  const auto parsed = parse_snapshot(std::string_view(reinterpret_cast<const char*>(data), size));
  if (parsed) {
    const std::string once = write_snapshot(*parsed);
    const auto again = parse_snapshot(once);
    if (!again || write_snapshot(*again) != once) fuzz::fail("snapshot does not round-trip");
    for (const auto& [port, why] : parsed->unreadable_ports)
      if (why.empty()) fuzz::fail("unreadable port without a reason");
  } else if (parsed.error().empty()) {
    fuzz::fail("snapshot error without a message");
  }
  return 0;
}

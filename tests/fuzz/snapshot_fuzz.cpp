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
  if (const auto* device = std::get_if<DeviceObserved>(&parsed)) {
    const std::string once = write_snapshot(*device);
    const auto again = parse_snapshot(once);
    const auto* device2 = std::get_if<DeviceObserved>(&again);
    if (!device2 || write_snapshot(*device2) != once) fuzz::fail("snapshot does not round-trip");
  } else if (std::get<SnapshotError>(parsed).message.empty()) {
    fuzz::fail("snapshot error without a message");
  }
  return 0;
}

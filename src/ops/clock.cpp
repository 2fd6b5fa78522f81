#include "ops/clock.h"

#include <cstdio>
#include <ctime>

namespace fabricctl::ops {
namespace {

class SystemClock final : public Clock {
 public:
  [[nodiscard]] std::chrono::system_clock::time_point now() const override { return std::chrono::system_clock::now(); }
};

std::string format(std::chrono::system_clock::time_point t, const char* pattern) {
  const std::time_t s = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&s, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, pattern, &tm);
  return buf;
}

}  // namespace

const Clock& system_clock() {
  static const SystemClock clock;
  return clock;
}

std::string utc_text(std::chrono::system_clock::time_point t) { return format(t, "%Y-%m-%dT%H:%M:%SZ"); }
std::string utc_text_ms(std::chrono::system_clock::time_point t) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count() % 1000;
  char frac[8];
  std::snprintf(frac, sizeof frac, ".%03dZ", static_cast<int>(ms));
  std::string s = format(std::chrono::time_point_cast<std::chrono::seconds>(t), "%Y-%m-%dT%H:%M:%S");
  return s + frac;
}
std::string utc_stamp(std::chrono::system_clock::time_point t) { return format(t, "%Y%m%dT%H%M%S"); }

}  // namespace fabricctl::ops

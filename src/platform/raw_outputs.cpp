#include "platform/raw_outputs.h"

namespace fabricctl {

const std::string* raw_file(const RawOutputs& raw, std::string_view file) {
  const auto it = raw.find(file);
  return it == raw.end() ? nullptr : &it->second;
}

Expected<void> add_counters(const RawOutputs& raw, std::string_view file, std::string_view command,
                            Expected<PortCounters> (*read)(std::string_view), PortCounters& into) {
  const std::string* text = raw_file(raw, file);
  if (text == nullptr) return {};
  auto got = read(*text);
  if (!got) return unexpected(std::string(command) + ": " + got.error());
  for (auto& [port, values] : *got) into[port].merge(values);
  return {};
}

}  // namespace fabricctl

#include "platform/raw_outputs.h"

#include <algorithm>

#include "util/escape.h"

namespace fabricctl {
namespace {

constexpr std::string_view kPort = "{port}";

/// `text` with "{port}" replaced by `value`.
std::string with_port(std::string_view text, std::string_view value) {
  std::string out(text);
  if (const size_t at = out.find(kPort); at != std::string::npos) out.replace(at, kPort.size(), value);
  return out;
}

}  // namespace

std::vector<CommandRun> command_runs(const Collector& collector, const CollectCommand& command,
                                     const DeviceDesired& device, std::string_view fabricctl) {
  if (!command.per_port) {
    return {{std::string(command.file), collector.command_line ? collector.command_line(command, device, fabricctl)
                                                               : std::string(command.command)}};
  }
  std::vector<CommandRun> runs;
  for (const PortDesired& p : device.ports) {
    std::string file = p.name;
    std::replace(file.begin(), file.end(), '/', '_');
    runs.push_back({with_port(command.file, file), with_port(command.command, shell_quote(p.name))});
  }
  return runs;
}

std::vector<std::pair<std::string, const std::string*>> per_port_files(const RawOutputs& raw, std::string_view file) {
  const size_t at = file.find(kPort);
  const std::string_view prefix = file.substr(0, at), suffix = file.substr(at + kPort.size());
  std::vector<std::pair<std::string, const std::string*>> out;
  for (auto it = raw.lower_bound(prefix); it != raw.end() && it->first.starts_with(prefix); ++it) {
    const std::string& name = it->first;
    if (name.size() > prefix.size() + suffix.size() && name.ends_with(suffix))
      out.emplace_back(name.substr(prefix.size(), name.size() - prefix.size() - suffix.size()), &it->second);
  }
  return out;
}

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

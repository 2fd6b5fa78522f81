#include "platform/raw_outputs.h"

#include <algorithm>

#include "util/escape.h"

namespace fabricctl {
namespace {

constexpr std::string_view kPort = "{port}";

/// A command as an error names it: without its output filter ("show lldp neighbors | json").
std::string_view named(std::string_view command) { return command.substr(0, command.find(" | ")); }

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

const std::string* raw_file(const RawOutputs& raw, std::string_view file) {
  const auto it = raw.find(file);
  return it == raw.end() ? nullptr : &it->second;
}

CollectCommand collect_command(const CounterSource& source) { return counter_command(source.file, source.command); }

CollectCommand collect_command(const PortCounterSource& source) {
  return per_port_counter_command(source.file, source.command);
}

CollectCommand collect_command(const PortTableSource& source) { return counter_command(source.file, source.command); }

Expected<void> add_counters(const RawOutputs& raw, const PortTableSource& source, PortTable<PortObserved>& into) {
  const std::string* text = raw_file(raw, source.file);
  if (text == nullptr) return {};
  auto got = source.read(*text);
  if (!got) return unexpected(got.error());
  for (auto& [port, why] : got->unreadable) into.unreadable.emplace(port, std::move(why));
  for (auto& [port, p] : got->ports) into.ports[port].counters.merge(p.counters);
  return {};
}

Expected<void> add_counters(const RawOutputs& raw, const CounterSource& source, PortCounters& into) {
  const std::string* text = raw_file(raw, source.file);
  if (text == nullptr) return {};
  auto got = source.read(*text);
  if (!got) return unexpected(std::string(named(source.command)) + ": " + got.error());
  for (auto& [port, values] : *got) into[port].merge(values);
  return {};
}

Expected<void> add_counters(const RawOutputs& raw, const PortCounterSource& source, PortCounters& into) {
  // The outputs of the per-port command in `raw`, by port name as the file names it ('_' for '/').
  const size_t at = source.file.find(kPort);
  const std::string_view prefix = source.file.substr(0, at), suffix = source.file.substr(at + kPort.size());
  for (auto it = raw.lower_bound(prefix); it != raw.end() && it->first.starts_with(prefix); ++it) {
    const std::string& name = it->first;
    if (name.size() <= prefix.size() + suffix.size() || !name.ends_with(suffix)) continue;
    const std::string port = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    auto got = source.read(it->second);
    if (!got) return unexpected(with_port(named(source.command), port) + ": " + got.error());
    into[port].merge(*got);
  }
  return {};
}

}  // namespace fabricctl

#include "cli/device_scope.h"

#include "ops/shard.h"
#include "verify/engine.h"

namespace fabricctl {

void add_shard_option(boost::program_options::options_description& desc, std::string& shard) {
  desc.add_options()("shard", boost::program_options::value(&shard)->value_name("K/N"),
                     "only part K (0 to N-1) of N of the devices (of --limit's, else of all): N runs share "
                     "the fleet, and their snapshot directories verify as one (docs/fleet.md)");
}

Expected<std::set<std::string>> device_scope(const FabricDesired& desired, const std::vector<std::string>& limit,
                                             const std::string& shard) {
  std::set<std::string> scope = devices_in_scope(desired, limit);
  if (scope.empty()) return unexpected(std::string("--limit matches no device or group"));
  if (shard.empty()) return scope;
  const auto s = ops::parse_shard(shard);
  if (!s) return unexpected(s.error());
  std::set<std::string> part = ops::shard_devices(desired, *s, &scope);
  if (part.empty())
    return unexpected("--shard " + shard + " holds none of the " + std::to_string(scope.size()) +
                      (scope.size() == 1 ? " device" : " devices") + " in scope: fewer shards would do");
  return part;
}

}  // namespace fabricctl

#include "platform/platform.h"

#include <stdexcept>

namespace fabricctl {
namespace {

/// A template context that needs no Document (EOS, NVUE: their CLI text is the whole configuration).
template <nlohmann::json (*Context)(const DeviceDesired&)>
nlohmann::json without_document(const DeviceDesired& device, const Document& /*document*/) {
  return Context(device);
}

}  // namespace

const std::vector<PlatformAdapter>& platforms() {
  using A = WatchdogAction;
  using T = ArtifactSpec;
  // MTU ranges are L3 MTU: SONiC PORT.mtu 68-9216 (sonic-port.yang); EOS L3 MTU up to 9214;
  // NVUE `link mtu` 552-9216; Linux hosts up to the mlx5 max_mtu of 9978.
  static const std::vector<PlatformAdapter> table = {
      {Platform::sonic,
       Role::switch_,
       68,
       9216,
       R"(Ethernet[0-9]{1,4})",
       "Ethernet0",
       {A::drop, A::forward, A::alert},
       {Trust::dscp},
       sonic_config_db,
       {T::from_data("config_db.json", sonic_config_db_json),
        T::from_data("config_db.patch.json", sonic_config_db_patch_json)},
       nullptr,
       sonic_fix,
       sonic_collector(),
       sonic_applier()},
      {Platform::eos,
       Role::switch_,
       68,
       9214,
       R"(Ethernet[0-9]{1,3}(/[0-9]{1,2}){0,2})",
       "Ethernet1/1",
       {A::drop},
       {Trust::dscp, Trust::pcp},
       nullptr,
       {T::from_template("session.cfg.mustache", "session.cfg")},
       without_document<eos_context>,
       eos_fix,
       eos_collector(),
       eos_applier()},
      {Platform::nvue,
       Role::switch_,
       552,
       9216,
       R"(swp[0-9]{1,3}(s[0-9]{1,2})?)",
       "swp1s0",
       {A::drop},
       {Trust::dscp, Trust::pcp},
       nullptr,
       {T::from_template("commands.nvue.mustache", "commands.nvue")},
       without_document<nvue_context>,
       nvue_fix,
       nvue_collector(),
       nvue_applier(),
       false},
      {Platform::linux_host,
       Role::host,
       68,
       9978,
       R"([A-Za-z0-9_.-]{1,15})",
       "ens1f0np0",
       {},
       {Trust::dscp, Trust::pcp},
       linux_nic_state,
       {T::from_data("nic-state.json", linux_nic_state_json), T::from_data("nccl.conf", linux_nccl_conf),
        T::from_template("apply.sh.mustache", "apply.sh")},
       linux_context,
       linux_fix,
       linux_collector(),
       linux_applier()},
  };
  return table;
}

const PlatformAdapter& adapter(Platform p) {
  for (const PlatformAdapter& a : platforms())
    if (a.platform == p) return a;
  throw std::logic_error("no adapter for platform");
}

const PlatformAdapter* find_platform(std::string_view name) {
  const std::optional<Platform> p = parse_platform(name);
  return p ? &adapter(*p) : nullptr;
}

Document document_of(const PlatformAdapter& a, const DeviceDesired& device) {
  return a.document ? a.document(device) : Document();
}

std::string fix_text(const Fix& fix) { return adapter(fix.device->platform).fix(fix); }

nlohmann::json common_context(const DeviceDesired& device) {
  nlohmann::json c;
  c["device"] = device.name;
  c["profile"] = device.profile;
  c["platform"] = std::string(to_string(device.platform));
  return c;
}

void mark_last(nlohmann::json& array) {
  for (size_t i = 0; i < array.size(); ++i) array[i]["last"] = (i + 1 == array.size());
}

}  // namespace fabricctl

#include "platform/linux/nic_state.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "platform/linux/nic.h"
#include "platform/platform.h"

namespace fabricctl::linux_host {
namespace {

using nlohmann::ordered_json;

ordered_json int_list(const std::vector<int>& v) {
  ordered_json a = ordered_json::array();
  for (int x : v) a.push_back(x);
  return a;
}

/// Whether a TC is ETS-scheduled on the NIC. TCs no priority maps to are strict with 0 %: they carry
/// nothing, and the ETS bandwidths of the used TCs then sum to 100 as mlx5 requires.
bool tc_is_ets(const TcSchedule& t) { return t.used && !t.strict; }

ordered_json port_state(const QosIntent& q, const PortDesired& port) {
  ordered_json s = ordered_json::object();
  s["netdev"] = port.name;
  s["mtu"] = port.mtu;  // L3, bytes
  s["speed_mbps"] = port.speed_mbps ? ordered_json(*port.speed_mbps) : ordered_json(nullptr);
  s["rail"] = port.rail ? ordered_json(*port.rail) : ordered_json(nullptr);
  s["peer"] = port.peer_device.empty() ? ordered_json(nullptr)
                                       : ordered_json{{"device", port.peer_device}, {"port", port.peer_port}};
  if (port.rdma_device.empty()) {
    s["rdma"] = nullptr;
  } else {
    s["rdma"] = {
        {"device", port.rdma_device},       {"port", port.rdma_port}, {"mtu", port.rdma_mtu},  // RoCE path MTU, bytes
        {"gid_type", std::string(kRoceV2)},  // rdma_cm default_roce_mode
        {"roce_tos", roce_tos(q)},           // rdma_cm default_roce_tos: DSCP << 2 | ECN bits
    };
  }
  s["trust"] = std::string(to_string(q.trust));
  // Trust DSCP: an app entry for each of the 64 DSCP values; trust PCP: none.
  ordered_json app = ordered_json::array();
  if (q.trust == Trust::dscp)
    for (int d = 0; d < kDscpValues; ++d) app.push_back({d, q.dscp_to_priority[static_cast<size_t>(d)]});
  s["app_dscp_prio"] = std::move(app);
  s["pfc"] = {{"enabled_priorities", int_list(q.lossless_priorities())}, {"cable_length_m", port.cable_length_m}};

  std::vector<int> prio_tc(q.priority_to_tc.begin(), q.priority_to_tc.end());
  ordered_json tcs = ordered_json::array();
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    const TcSchedule& t = q.tc[static_cast<size_t>(tc)];
    tcs.push_back({{"tc", tc}, {"tsa", tc_is_ets(t) ? "ets" : "strict"}, {"bw", tc_is_ets(t) ? t.bandwidth_pct : 0}});
  }
  s["ets"] = {{"prio_tc", int_list(prio_tc)}, {"tc", std::move(tcs)}};

  std::vector<int> dcqcn_prios;
  const auto on = q.dcqcn_priorities();
  for (int p = 0; p < kPriorities; ++p)
    if (on[static_cast<size_t>(p)]) dcqcn_prios.push_back(p);
  ordered_json rp = ordered_json::object();
  for (const auto& [name, value] : dcqcn_rp_files(q.dcqcn.rp)) rp[std::string(name)] = value;
  s["dcqcn"] = {
      {"enabled", q.dcqcn.enabled},
      {"rp_enabled_priorities", int_list(dcqcn_prios)},
      {"np_enabled_priorities", int_list(dcqcn_prios)},
      {"cnp_dscp", q.cnp_dscp},
      {"cnp_802p_prio", q.cnp_priority},
      {"min_time_between_cnps", q.dcqcn.np.min_time_between_cnps},  // microseconds
      {"rp", std::move(rp)},
  };
  s["headroom_bytes"] = port.headroom_bytes;
  return s;
}

bool is_flat(const ordered_json& j) {
  for (const auto& v : j)
    if (v.is_structured()) return false;
  return true;
}

/// Whether `s` is printable ASCII with no quote or backslash: JSON text is then "s" as it is.
bool needs_no_escape(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
  });
}

/// A plain value as JSON text. Integers and strings that need no escape (names, modes: nearly all)
/// skip nlohmann's serializer: a host's document has ~1,500 values, a fabric 12,800 hosts.
std::string scalar(const ordered_json& j) {
  if (j.is_number_unsigned()) return std::to_string(j.get<uint64_t>());
  if (j.is_number_integer()) return std::to_string(j.get<int64_t>());
  if (j.is_string() && needs_no_escape(j.get_ref<const std::string&>()))
    return '"' + j.get_ref<const std::string&>() + '"';
  return j.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

/// A member name as JSON text.
std::string key_text(const std::string& key) {
  return needs_no_escape(key) ? '"' + key + '"' : scalar(ordered_json(key));
}

/// One line: [1, 2] or {"a": 1, "b": 2} (nlohmann's compact form has no spaces).
std::string one_line(const ordered_json& j) {
  if (!j.is_structured()) return scalar(j);
  std::string out(1, j.is_array() ? '[' : '{');
  bool first = true;
  for (const auto& [key, value] : j.items()) {
    if (!first) out += ", ";
    first = false;
    if (j.is_object()) out += key_text(key) + ": ";
    out += one_line(value);
  }
  return out + (j.is_array() ? ']' : '}');
}

/// Layout rule: a flat array (numbers), a flat item of an array (a DSCP/priority pair, an ETS class)
/// and the link peer stay on one line; every other object or array spreads over lines.
bool inline_value(const ordered_json& j, bool in_array, std::string_view key) {
  if (!j.is_structured() || j.empty()) return true;
  if (!is_flat(j)) return false;
  return j.is_array() || in_array || key == "peer";
}

void pretty(const ordered_json& j, int indent, std::string& out) {
  const std::string pad(static_cast<size_t>(indent + 2), ' ');
  out += j.is_array() ? '[' : '{';
  bool first = true;
  for (const auto& [key, value] : j.items()) {
    out += first ? "\n" : ",\n";
    first = false;
    out += pad;
    if (j.is_object()) out += key_text(key) + ": ";
    if (inline_value(value, j.is_array(), j.is_object() ? std::string_view(key) : std::string_view()))
      out += one_line(value);
    else pretty(value, indent + 2, out);
  }
  if (!first) out += "\n" + std::string(static_cast<size_t>(indent), ' ');
  out += j.is_array() ? ']' : '}';
}

}  // namespace

nlohmann::ordered_json nic_state(const DeviceDesired& device) {
  ordered_json doc = ordered_json::object();
  doc["schema"] = std::string(kNicStateSchema);
  doc["device"] = device.name;
  doc["profile"] = device.profile;
  ordered_json ports = ordered_json::array();
  for (const PortDesired& p : device.ports) ports.push_back(port_state(device.qos, p));
  doc["ports"] = std::move(ports);
  return doc;
}

std::string dump_nic_state(const nlohmann::ordered_json& doc) {
  std::string out;
  if (doc.is_structured()) pretty(doc, 0, out);
  else out = scalar(doc);
  return out + "\n";
}

}  // namespace fabricctl::linux_host

namespace fabricctl {

Document linux_nic_state(const DeviceDesired& device) { return linux_host::nic_state(device); }

std::string linux_nic_state_json(const DeviceDesired& /*device*/, const Document& nic_state) {
  return linux_host::dump_nic_state(nic_state);
}

}  // namespace fabricctl

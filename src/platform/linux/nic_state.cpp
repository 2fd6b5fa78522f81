#include "platform/linux/nic_state.h"

#include <algorithm>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "platform/json_text.h"
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

/// The parts of a port's state that come from the device's QoS alone: the same for every port, so
/// built once per host and copied into each port.
struct QosState {
  ordered_json trust, app_dscp_prio, pfc_enabled, ets, dcqcn;
  int roce_tos = 0;

  explicit QosState(const QosIntent& q) : trust(std::string(to_string(q.trust))), roce_tos(linux_host::roce_tos(q)) {
    // Trust DSCP: an app entry for each of the 64 DSCP values; trust PCP: none.
    app_dscp_prio = ordered_json::array();
    if (q.trust == Trust::dscp)
      for (int d = 0; d < kDscpValues; ++d) app_dscp_prio.push_back({d, q.dscp_to_priority[static_cast<size_t>(d)]});
    pfc_enabled = int_list(q.lossless_priorities());

    std::vector<int> prio_tc(q.priority_to_tc.begin(), q.priority_to_tc.end());
    ordered_json tcs = ordered_json::array();
    for (int tc = 0; tc < kTrafficClasses; ++tc) {
      const TcSchedule& t = q.tc[static_cast<size_t>(tc)];
      tcs.push_back({{"tc", tc}, {"tsa", tc_is_ets(t) ? "ets" : "strict"}, {"bw", tc_is_ets(t) ? t.bandwidth_pct : 0}});
    }
    ets = {{"prio_tc", int_list(prio_tc)}, {"tc", std::move(tcs)}};

    std::vector<int> dcqcn_prios;
    const auto on = q.dcqcn_priorities();
    for (int p = 0; p < kPriorities; ++p)
      if (on[static_cast<size_t>(p)]) dcqcn_prios.push_back(p);
    ordered_json rp = ordered_json::object();
    for (const auto& [name, value] : q.dcqcn.rp) rp[name] = value;
    dcqcn = {
        {"enabled", q.dcqcn.enabled},
        {"rp_enabled_priorities", int_list(dcqcn_prios)},
        {"np_enabled_priorities", int_list(dcqcn_prios)},
        {"cnp_dscp", q.cnp_dscp},
        {"cnp_802p_prio", q.cnp_priority},
        {"min_time_between_cnps",  // microseconds; null: the firmware's
         q.dcqcn.np_min_time_between_cnps ? ordered_json(*q.dcqcn.np_min_time_between_cnps) : ordered_json(nullptr)},
        {"rp", std::move(rp)},
    };
  }
};

ordered_json port_state(const QosState& q, const PortDesired& port) {
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
        {"roce_tos", q.roce_tos},            // rdma_cm default_roce_tos: DSCP << 2 | ECN bits
        {"traffic_class", q.roce_tos},       // MLNX_OFED tc/<port>/traffic_class: every QP, NCCL's too
    };
  }
  s["trust"] = q.trust;
  s["app_dscp_prio"] = q.app_dscp_prio;
  s["pfc"] = {{"enabled_priorities", q.pfc_enabled}, {"cable_length_m", port.cable_length_m}};
  s["ets"] = q.ets;
  s["dcqcn"] = q.dcqcn;
  s["headroom_bytes"] = port.headroom_bytes;
  return s;
}

bool is_flat(const ordered_json& j) {
  for (const auto& v : j)
    if (v.is_structured()) return false;
  return true;
}

/// Appends one line: [1, 2] or {"a": 1, "b": 2} (nlohmann's compact form has no spaces).
void one_line(const ordered_json& j, std::string& out) {
  if (!j.is_structured()) return append_json_scalar(j, out);
  out += j.is_array() ? '[' : '{';
  // Iterators, not items(): items() spells every array index as a string.
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it != j.begin()) out += ", ";
    if (j.is_object()) append_json_key(it.key(), out);
    one_line(it.value(), out);
  }
  out += j.is_array() ? ']' : '}';
}

/// Layout rule: a flat array (numbers), a flat item of an array (a DSCP/priority pair, an ETS class)
/// and the link peer stay on one line; every other object or array spreads over lines.
bool inline_value(const ordered_json& j, bool in_array, std::string_view key) {
  if (!j.is_structured() || j.empty()) return true;
  if (!is_flat(j)) return false;
  return j.is_array() || in_array || key == "peer";
}

void pretty(const ordered_json& j, size_t indent, std::string& out) {
  out += j.is_array() ? '[' : '{';
  for (auto it = j.begin(); it != j.end(); ++it) {
    out += it == j.begin() ? "\n" : ",\n";
    out.append(indent + 2, ' ');
    const std::string_view key = j.is_object() ? std::string_view(it.key()) : std::string_view();
    if (j.is_object()) append_json_key(it.key(), out);
    if (inline_value(it.value(), j.is_array(), key)) one_line(it.value(), out);
    else pretty(it.value(), indent + 2, out);
  }
  if (!j.empty()) {
    out += '\n';
    out.append(indent, ' ');
  }
  out += j.is_array() ? ']' : '}';
}

/// NCCL's defaults for the host: its RoCE devices in rail order (ports without a rail last, in
/// inventory order), the ToS byte of its RoCE traffic and the GID index (null: NCCL picks one).
ordered_json nccl_state(const DeviceDesired& device, int roce_tos) {
  std::vector<const PortDesired*> rdma;
  for (const PortDesired& p : device.ports)
    if (!p.rdma_device.empty()) rdma.push_back(&p);
  std::stable_sort(rdma.begin(), rdma.end(), [](const PortDesired* a, const PortDesired* b) {
    return a->rail.value_or(std::numeric_limits<int>::max()) < b->rail.value_or(std::numeric_limits<int>::max());
  });
  ordered_json hca = ordered_json::array();
  for (const PortDesired* p : rdma) hca.push_back({{"device", p->rdma_device}, {"port", p->rdma_port}});
  const int gid = device.qos.nccl_gid_index;
  return {
      {"ib_hca", std::move(hca)},
      {"ib_tc", roce_tos},
      {"ib_gid_index", gid == kNcclGidAuto ? ordered_json(nullptr) : ordered_json(gid)},
  };
}

}  // namespace

nlohmann::ordered_json nic_state(const DeviceDesired& device) {
  ordered_json doc = ordered_json::object();
  doc["schema"] = std::string(kNicStateSchema);
  doc["device"] = device.name;
  doc["profile"] = device.profile;
  const QosState qos(device.qos);
  ordered_json ports = ordered_json::array();
  for (const PortDesired& p : device.ports) ports.push_back(port_state(qos, p));
  doc["ports"] = std::move(ports);
  doc["nccl"] = nccl_state(device, qos.roce_tos);
  return doc;
}

std::string dump_nic_state(const nlohmann::ordered_json& doc) {
  std::string out;
  if (doc.is_structured()) pretty(doc, 0, out);
  else append_json_scalar(doc, out);
  out += '\n';
  return out;
}

}  // namespace fabricctl::linux_host

namespace fabricctl {

Document linux_nic_state(const DeviceDesired& device) { return linux_host::nic_state(device); }

std::string linux_nic_state_json(const DeviceDesired& /*device*/, const Document& nic_state) {
  return linux_host::dump_nic_state(nic_state);
}

}  // namespace fabricctl

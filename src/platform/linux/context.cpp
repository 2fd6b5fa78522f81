// Linux host NIC adapter: the template context for nic-state.json (the desired NIC state as data) and
// apply.sh (the same state as a reviewable POSIX sh script using ip, dcb, mlx5 ecn sysfs and rdma_cm
// configfs). Every value is final text here: JSON literals already encoded, shell words already quoted.
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "platform/linux/nic.h"
#include "platform/platform.h"
#include "util/escape.h"

namespace fabricctl {
namespace linux_host {

int roce_tos(const QosIntent& qos) { return (qos.roce_dscp << 2) | (qos.dcqcn.enabled ? kEct0 : 0); }

std::string sh_quote(std::string_view s) { return shell_quote(s); }

std::array<std::pair<std::string_view, int>, 16> dcqcn_rp_files(const DcqcnRp& rp) {
  return {{
      {"clamp_tgt_rate", rp.clamp_tgt_rate},
      {"clamp_tgt_rate_after_time_inc", rp.clamp_tgt_rate_after_time_inc},
      {"rpg_time_reset", rp.rpg_time_reset},
      {"rpg_byte_reset", rp.rpg_byte_reset},
      {"rpg_threshold", rp.rpg_threshold},
      {"rpg_max_rate", rp.rpg_max_rate},
      {"rpg_ai_rate", rp.rpg_ai_rate},
      {"rpg_hai_rate", rp.rpg_hai_rate},
      {"rpg_gd", rp.rpg_gd},
      {"rpg_min_dec_fac", rp.rpg_min_dec_fac},
      {"rpg_min_rate", rp.rpg_min_rate},
      {"rate_to_set_on_first_cnp", rp.rate_to_set_on_first_cnp},
      {"dce_tcp_g", rp.dce_tcp_g},
      {"dce_tcp_rtt", rp.dce_tcp_rtt},
      {"rate_reduce_monitor_period", rp.rate_reduce_monitor_period},
      {"initial_alpha_value", rp.initial_alpha_value},
  }};
}

std::string comment_safe(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) out += (c >= 0x20 && c <= 0x7e) ? c : '?';
  return out;
}

}  // namespace linux_host

namespace {

using nlohmann::json;
using namespace linux_host;

constexpr std::string_view kSysNet = "/sys/class/net/";
constexpr std::string_view kRdmaCm = "/sys/kernel/config/rdma_cm";

std::string json_string(std::string_view s) { return json(std::string(s)).dump(); }

std::string json_int_list(const std::vector<int>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(v[i]);
  }
  return out + "]";
}

/// "3", "3 and 4", "3, 4 and 5"
std::string english_list(const std::vector<int>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += (i + 1 == v.size()) ? " and " : ", ";
    out += std::to_string(v[i]);
  }
  return out;
}

std::string priorities_phrase(const std::vector<int>& v) {
  return (v.size() == 1 ? "priority " : "priorities ") + english_list(v);
}

/// One dcb array argument: "0:a 1:b ... 7:h" (every key explicit, the form `dcb ... show` prints).
template <typename F>
std::string dcb_map(int n, F value) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    if (i) out += ' ';
    out += std::to_string(i) + ":" + value(i);
  }
  return out;
}

/// One `set_sysfs PATH VALUE` line of apply.sh, optionally preceded by a one-line comment.
json sysfs_write(const std::string& path, const std::string& value, const std::string& note = {}) {
  json w{{"path", sh_quote(path)}, {"value", value}};
  w["note"] = note.empty() ? json(nullptr) : json(comment_safe(note));
  return w;
}

json lines(const std::vector<std::string>& text) {
  json out = json::array();
  for (const std::string& t : text) out.push_back({{"line", comment_safe(t)}});
  return out;
}

/// Whether a TC is ETS-scheduled on the NIC. TCs no priority maps to are strict with 0 %: they carry
/// nothing, and the ETS bandwidths of the used TCs then sum to 100 as mlx5 requires.
bool tc_is_ets(const TcSchedule& t) { return t.used && !t.strict; }

int tc_bw(const TcSchedule& t) { return tc_is_ets(t) ? t.bandwidth_pct : 0; }

std::string ets_summary(const QosIntent& q) {
  std::vector<std::string> parts;
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    const TcSchedule& t = q.tc[static_cast<size_t>(tc)];
    if (!t.used) continue;
    std::vector<int> prios;
    for (int p = 0; p < kPriorities; ++p)
      if (q.priority_to_tc[static_cast<size_t>(p)] == tc) prios.push_back(p);
    std::string s = "TC " + std::to_string(tc) + " ";
    if (!prios.empty()) s += "(" + priorities_phrase(prios) + ") ";
    s += tc_is_ets(t) ? "ets " + std::to_string(t.bandwidth_pct) + "%" : std::string("strict");
    parts.push_back(std::move(s));
  }
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out.empty() ? "no TC in use" : out;
}

json port_context(const DeviceDesired& device, const PortDesired& port) {
  const QosIntent& q = device.qos;
  const std::vector<int> lossless = q.lossless_priorities();
  const std::vector<int> dcqcn_prios = q.dcqcn.enabled ? lossless : std::vector<int>{};
  const std::string ecn = std::string(kSysNet) + port.name + "/ecn";
  json c;

  // ---- identity and link
  c["netdev_json"] = json_string(port.name);
  c["netdev_sh"] = sh_quote(port.name);
  c["mtu"] = port.mtu;
  c["speed_mbps_json"] = port.speed_mbps ? std::to_string(*port.speed_mbps) : "null";
  c["rail_json"] = port.rail ? std::to_string(*port.rail) : "null";
  c["peer_json"] = port.peer_device.empty()
                       ? std::string("null")
                       : "{\"device\": " + json_string(port.peer_device) +
                             ", \"port\": " + json_string(port.peer_port) + "}";
  c["headroom_bytes"] = port.headroom_bytes;

  std::string title = port.name;
  std::vector<std::string> facts;
  if (port.rail) facts.push_back("rail " + std::to_string(*port.rail));
  if (!port.peer_device.empty()) facts.push_back("cabled to " + port.peer_device + " " + port.peer_port);
  if (port.speed_mbps) facts.push_back(std::to_string(*port.speed_mbps) + " Mb/s expected");
  if (!port.rdma_device.empty())
    facts.push_back("RDMA " + port.rdma_device + " port " + std::to_string(port.rdma_port));
  for (size_t i = 0; i < facts.size(); ++i) title += (i ? ", " : ": ") + facts[i];
  c["title"] = comment_safe(title);

  // ---- RDMA (rdma_cm configfs)
  if (port.rdma_device.empty()) {
    c["rdma"] = nullptr;
  } else {
    const std::string dir = std::string(kRdmaCm) + "/" + port.rdma_device;
    const std::string port_dir = dir + "/ports/" + std::to_string(port.rdma_port);
    std::string tos_meaning = "DSCP " + std::to_string(q.roce_dscp) + " << 2";
    if (q.dcqcn.enabled) tos_meaning += " | ECT(0)";
    c["rdma"] = json{
        {"rdma_device_json", json_string(port.rdma_device)},
        {"rdma_port", port.rdma_port},
        {"rdma_mtu", port.rdma_mtu},
        {"gid_type_json", json_string(kRoceV2)},
        {"roce_tos", roce_tos(q)},
        {"rdma_comment", comment_safe(port.rdma_device + " port " + std::to_string(port.rdma_port))},
        {"tos_meaning", tos_meaning},
        {"rdma_dir_sh", sh_quote(dir)},
        {"mode_path_sh", sh_quote(port_dir + "/default_roce_mode")},
        {"mode_sh", sh_quote(kRoceV2)},
        {"tos_path_sh", sh_quote(port_dir + "/default_roce_tos")},
    };
  }

  // ---- trust and the DSCP app table
  c["trust_json"] = json_string(to_string(q.trust));
  json app = json::array();
  json app_rows = json::array();
  if (q.trust == Trust::dscp) {
    for (int d = 0; d < kDscpValues; ++d)
      app.push_back({{"dscp", d}, {"prio", q.dscp_to_priority[static_cast<size_t>(d)]}});
    // Eight "DSCP:PRIO" pairs per line of the dcb command.
    for (int row = 0; row < kDscpValues / 8; ++row) {
      std::string s;
      for (int i = 0; i < 8; ++i) {
        const int d = row * 8 + i;
        if (i) s += ' ';
        s += std::to_string(d) + ":" + std::to_string(q.dscp_to_priority[static_cast<size_t>(d)]);
      }
      app_rows.push_back({{"row", s}});
    }
    const auto prio_of = [&](int d) { return std::to_string(q.dscp_to_priority[static_cast<size_t>(d)]); };
    c["app_verb"] = "replace";
    c["app_notes"] = lines({
        "Trust DSCP: an app entry for each of the 64 DSCP values, as mlnx_qos --trust dscp makes;",
        "RoCE DSCP " + std::to_string(q.roce_dscp) + " -> priority " + prio_of(q.roce_dscp) + ", CNP DSCP " +
            std::to_string(q.cnp_dscp) + " -> priority " + prio_of(q.cnp_dscp) +
            ". mlx5 trusts DSCP from the first entry on.",
    });
  } else {
    c["app_verb"] = "flush";
    c["app_notes"] = lines({"Trust PCP: no DSCP app entries (mlx5 trusts PCP again once the last one is gone)."});
  }
  mark_last(app);
  c["has_app"] = !app.empty();
  c["app"] = std::move(app);
  c["app_rows"] = std::move(app_rows);

  // ---- PFC
  c["pfc_enabled_json"] = json_int_list(lossless);
  c["prio_pfc"] = dcb_map(kPriorities, [&](int p) {
    return std::string(q.lossless[static_cast<size_t>(p)] ? "on" : "off");
  });
  c["cable_length_m"] = port.cable_length_m;
  std::vector<std::string> pfc_notes = {
      (lossless.empty() ? std::string("PFC off on every priority")
                        : "PFC (lossless) on " + priorities_phrase(lossless)) +
      ". mlx5 flaps the link when the PFC priorities change."};
  if (port.cable_length_m > 0 && port.cable_length_m < kMlx5MaxCableLengthM) {
    c["pfc_delay"] = std::to_string(port.cable_length_m);
    pfc_notes.push_back("On mlx5, delay is the cable length in metres (" + std::to_string(port.cable_length_m) +
                        " m), from which the driver sizes the PFC");
    pfc_notes.push_back("headroom (fabricctl expects " + std::to_string(port.headroom_bytes) +
                        " bytes); dcb-pfc(8) documents delay in bits.");
  } else {
    c["pfc_delay"] = nullptr;
    pfc_notes.push_back("Cable length unknown: delay (the mlx5 cable length) is left as it is.");
  }
  c["pfc_notes"] = lines(pfc_notes);

  // ---- ETS
  std::vector<int> prio_tc(q.priority_to_tc.begin(), q.priority_to_tc.end());
  c["prio_tc_json"] = json_int_list(prio_tc);
  json tcs = json::array();
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    const TcSchedule& t = q.tc[static_cast<size_t>(tc)];
    tcs.push_back({{"tc", tc}, {"tsa_json", json_string(tc_is_ets(t) ? "ets" : "strict")}, {"bw", tc_bw(t)}});
  }
  mark_last(tcs);
  c["ets_tc"] = std::move(tcs);
  c["prio_tc"] = dcb_map(kPriorities, [&](int p) {
    return std::to_string(q.priority_to_tc[static_cast<size_t>(p)]);
  });
  c["tc_tsa"] = dcb_map(kTrafficClasses, [&](int tc) {
    return std::string(tc_is_ets(q.tc[static_cast<size_t>(tc)]) ? "ets" : "strict");
  });
  c["tc_bw"] = dcb_map(kTrafficClasses, [&](int tc) {
    return std::to_string(tc_bw(q.tc[static_cast<size_t>(tc)]));
  });
  c["ets_summary"] = ets_summary(q);

  // ---- DCQCN (mlx5 ecn sysfs)
  const auto rp_params = dcqcn_rp_files(q.dcqcn.rp);
  json rp_json = json::array();
  for (const auto& [name, value] : rp_params)
    rp_json.push_back({{"name_json", json_string(name)}, {"value", value}});
  mark_last(rp_json);

  // Parameters first, then the per-priority enables; with DCQCN off, only the enables (all 0).
  json writes = json::array();
  if (q.dcqcn.enabled) {
    writes.push_back(sysfs_write(ecn + "/roce_np/cnp_dscp", std::to_string(q.cnp_dscp),
                                 "Notification point: CNPs leave with DSCP " + std::to_string(q.cnp_dscp) +
                                     " and priority " + std::to_string(q.cnp_priority) + "."));
    writes.push_back(sysfs_write(ecn + "/roce_np/cnp_802p_prio", std::to_string(q.cnp_priority)));
    writes.push_back(
        sysfs_write(ecn + "/roce_np/min_time_between_cnps", std::to_string(q.dcqcn.np.min_time_between_cnps)));
    bool first = true;
    for (const auto& [name, value] : rp_params) {
      writes.push_back(
          sysfs_write(ecn + "/roce_rp/" + std::string(name), std::to_string(value),
                      first ? "Reaction point parameters, in firmware units (rates Mb/s, times us)." : ""));
      first = false;
    }
  }
  const std::array<bool, kPriorities> dcqcn_on = q.dcqcn_priorities();
  for (std::string_view point : {"roce_rp", "roce_np"})
    for (int p = 0; p < kPriorities; ++p) {
      const bool on = dcqcn_on[static_cast<size_t>(p)];
      std::string note;
      if (p == 0)
        note = point == "roce_rp" ? "Reaction point (sender) per priority."
                                  : "Notification point (receiver) per priority.";
      writes.push_back(
          sysfs_write(ecn + "/" + std::string(point) + "/enable/" + std::to_string(p), on ? "1" : "0", note));
    }
  c["dcqcn_enabled_json"] = q.dcqcn.enabled ? "true" : "false";
  c["dcqcn_prios_json"] = json_int_list(dcqcn_prios);
  c["cnp_dscp"] = q.cnp_dscp;
  c["cnp_prio"] = q.cnp_priority;
  c["min_time_between_cnps"] = q.dcqcn.np.min_time_between_cnps;
  c["rp"] = std::move(rp_json);
  c["dcqcn_writes"] = std::move(writes);
  c["dcqcn_summary"] = !q.dcqcn.enabled
                           ? std::string("DCQCN off: reaction and notification point disabled on every priority")
                       : dcqcn_prios.empty()
                           ? std::string("DCQCN on, but no priority is lossless: disabled on every priority")
                           : "DCQCN on " + priorities_phrase(dcqcn_prios) + ", off on the others";
  return c;
}

}  // namespace

nlohmann::json linux_context(const DeviceDesired& device) {
  json c = common_context(device);
  c["schema_json"] = json_string(kNicStateSchema);
  c["device_json"] = json_string(device.name);
  c["profile_json"] = json_string(device.profile);
  c["device_comment"] = comment_safe(device.name);
  c["profile_comment"] = comment_safe(device.profile);
  c["port_count"] = device.ports.size();

  json ports = json::array();
  json preflight = json::array();
  bool rdma = false;
  for (const PortDesired& p : device.ports) {
    ports.push_back(port_context(device, p));
    const std::string dir = std::string(kSysNet) + p.name;
    preflight.push_back({{"dir_sh", sh_quote(dir)}, {"why_sh", sh_quote("no such network interface")}});
    preflight.push_back({{"dir_sh", sh_quote(dir + "/ecn")},
                         {"why_sh", sh_quote("no mlx5 ecn sysfs: needs the MLNX_OFED/DOCA-OFED mlx5 driver")}});
    rdma = rdma || !p.rdma_device.empty();
  }
  if (rdma)
    preflight.push_back({{"dir_sh", sh_quote(kRdmaCm)},
                         {"why_sh", sh_quote("run: modprobe rdma_cm; mount -t configfs none /sys/kernel/config")}});
  mark_last(ports);
  c["has_ports"] = !ports.empty();
  c["ports"] = std::move(ports);
  c["preflight"] = std::move(preflight);
  c["done_message_sh"] =
      sh_quote("apply.sh: " + device.name + ": RoCE NIC state applied to " + std::to_string(device.ports.size()) +
               " port(s)");
  return c;
}

}  // namespace fabricctl

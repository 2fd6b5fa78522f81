// Linux host NIC adapter: the template context of apply.sh, a view of the nic-state document
// (nic_state.h). Every value a command of apply.sh sets is read from that document, never from
// DeviceDesired, so the script and nic-state.json (and the netlink apply that will read it) cannot
// disagree. Every value is final text here: shell words already quoted, comments made safe.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "platform/linux/nic.h"
#include "platform/linux/nic_state.h"
#include "platform/platform.h"
#include "util/escape.h"

namespace fabricctl {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;
using namespace linux_host;

constexpr std::string_view kSysNet = "/sys/class/net/";
constexpr std::string_view kRdmaCm = "/sys/kernel/config/rdma_cm";

std::vector<int> ints(const ordered_json& a) {
  std::vector<int> v;
  for (const auto& x : a) v.push_back(x.get<int>());
  return v;
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
json sysfs_write(const std::string& path, std::string value, const std::string& note = {}) {
  json w = json::object();
  w["path"] = shell_quote(path);
  w["value"] = std::move(value);
  w["note"] = note.empty() ? json(nullptr) : json(comment_safe(note));
  return w;
}

json lines(const std::vector<std::string>& text) {
  json out = json::array();
  for (const std::string& t : text) out.push_back({{"line", comment_safe(t)}});
  return out;
}

/// "TC 0 (priorities 0, 1 and 2) ets 50%, TC 6 (priority 6) strict": the TCs some priority maps to.
std::string ets_summary(const ordered_json& ets) {
  const std::vector<int> prio_tc = ints(ets.at("prio_tc"));
  std::string out;
  for (const auto& t : ets.at("tc")) {
    const int tc = t.at("tc").get<int>();
    std::vector<int> prios;
    for (size_t p = 0; p < prio_tc.size(); ++p)
      if (prio_tc[p] == tc) prios.push_back(static_cast<int>(p));
    if (prios.empty()) continue;  // unused: strict with 0 %, carries nothing
    std::string s = "TC " + std::to_string(tc) + " (" + priorities_phrase(prios) + ") ";
    s += t.at("tsa") == "ets" ? "ets " + std::to_string(t.at("bw").get<int>()) + "%" : std::string("strict");
    out += (out.empty() ? "" : ", ") + s;
  }
  return out.empty() ? "no TC in use" : out;
}

/// The parts of a port's context made from its QoS alone (trust, DSCP map, PFC, ETS, DCQCN): the
/// same for every port of a host with one profile.
json qos_context(const ordered_json& ps, int roce_dscp) {
  const ordered_json& ets = ps.at("ets");
  const ordered_json& dcqcn = ps.at("dcqcn");
  const std::vector<int> lossless = ints(ps.at("pfc").at("enabled_priorities"));
  json c;

  // ---- trust and the DSCP app table
  const ordered_json& app = ps.at("app_dscp_prio");
  json app_rows = json::array();
  if (ps.at("trust") == "dscp") {
    // Eight "DSCP:PRIO" pairs per line of the dcb command.
    std::string row;
    int in_row = 0;
    std::vector<int> prio_of(static_cast<size_t>(kDscpValues), 0);
    for (const auto& pair : app) {
      const int d = pair.at(0).get<int>();
      const int p = pair.at(1).get<int>();
      if (d >= 0 && d < kDscpValues) prio_of[static_cast<size_t>(d)] = p;
      row += (in_row ? " " : "") + std::to_string(d) + ":" + std::to_string(p);
      if (++in_row == 8) {
        app_rows.push_back({{"row", row}});
        row.clear();
        in_row = 0;
      }
    }
    if (in_row) app_rows.push_back({{"row", row}});
    const int cnp_dscp = dcqcn.at("cnp_dscp").get<int>();
    const auto prio = [&](int d) {
      return d >= 0 && d < kDscpValues ? std::to_string(prio_of[static_cast<size_t>(d)]) : std::string("?");
    };
    c["app_verb"] = "replace";
    c["app_notes"] = lines({
        "Trust DSCP: an app entry for each of the 64 DSCP values, as mlnx_qos --trust dscp makes;",
        "RoCE DSCP " + std::to_string(roce_dscp) + " -> priority " + prio(roce_dscp) + ", CNP DSCP " +
            std::to_string(cnp_dscp) + " -> priority " + prio(cnp_dscp) + ". mlx5 trusts DSCP from the first entry on.",
    });
  } else {
    c["app_verb"] = "flush";
    c["app_notes"] = lines({"Trust PCP: no DSCP app entries (mlx5 trusts PCP again once the last one is gone)."});
  }
  c["app_rows"] = std::move(app_rows);

  // ---- PFC
  std::vector<bool> pfc_on(static_cast<size_t>(kPriorities), false);
  for (int p : lossless)
    if (p >= 0 && p < kPriorities) pfc_on[static_cast<size_t>(p)] = true;
  c["prio_pfc"] =
      dcb_map(kPriorities, [&](int p) { return std::string(pfc_on[static_cast<size_t>(p)] ? "on" : "off"); });

  // ---- ETS
  const std::vector<int> prio_tc = ints(ets.at("prio_tc"));
  c["prio_tc"] =
      dcb_map(static_cast<int>(prio_tc.size()), [&](int p) { return std::to_string(prio_tc[static_cast<size_t>(p)]); });
  const ordered_json& tcs = ets.at("tc");
  c["tc_tsa"] = dcb_map(static_cast<int>(tcs.size()),
                        [&](int i) { return tcs[static_cast<size_t>(i)].at("tsa").get<std::string>(); });
  c["tc_bw"] = dcb_map(static_cast<int>(tcs.size()),
                       [&](int i) { return std::to_string(tcs[static_cast<size_t>(i)].at("bw").get<int>()); });
  c["ets_summary"] = ets_summary(ets);

  // ---- DCQCN
  const std::vector<int> rp_prios = ints(dcqcn.at("rp_enabled_priorities"));
  const bool dcqcn_enabled = dcqcn.at("enabled").get<bool>();
  std::vector<std::string> dcqcn_notes = {
      !dcqcn_enabled     ? std::string("DCQCN off: reaction and notification point disabled on every priority.")
      : rp_prios.empty() ? std::string("DCQCN on, but no priority is lossless: disabled on every priority.")
                         : "DCQCN on " + priorities_phrase(rp_prios) + ", off on the others."};
  // The firmware's defaults differ by NIC generation and firmware release: only what the profile sets is
  // written (and judged by verify).
  if (dcqcn_enabled && dcqcn.at("rp").empty() && dcqcn.at("min_time_between_cnps").is_null())
    dcqcn_notes.emplace_back("The profile sets no DCQCN parameter: the NIC firmware's values stay.");
  else if (dcqcn_enabled)
    dcqcn_notes.emplace_back("DCQCN parameters the profile does not set keep the NIC firmware's values.");
  c["dcqcn_notes"] = lines(dcqcn_notes);
  return c;
}

/// Whether two ports' documents have the same QoS, so that qos_context() of one serves the other.
bool same_qos(const ordered_json& a, const ordered_json& b) {
  for (const char* key : {"trust", "app_dscp_prio", "ets", "dcqcn"})
    if (a.at(key) != b.at(key)) return false;
  return a.at("pfc").at("enabled_priorities") == b.at("pfc").at("enabled_priorities");
}

/// The parts of a port's context that are its own: names, paths, MTU, cable length, sysfs writes.
json port_context(const ordered_json& ps) {
  const std::string netdev = ps.at("netdev").get<std::string>();
  const std::string ecn = std::string(kSysNet) + netdev + "/ecn";
  const ordered_json& pfc = ps.at("pfc");
  const ordered_json& dcqcn = ps.at("dcqcn");
  const ordered_json& rdma = ps.at("rdma");
  const std::vector<int> lossless = ints(pfc.at("enabled_priorities"));
  const int cable_length_m = pfc.at("cable_length_m").get<int>();
  const auto headroom = ps.at("headroom_bytes").get<uint32_t>();
  json c;

  // ---- identity and link
  c["netdev_sh"] = shell_quote(netdev);
  c["mtu"] = ps.at("mtu").get<int>();
  std::string title = netdev;
  std::vector<std::string> facts;
  if (!ps.at("rail").is_null()) facts.push_back("rail " + std::to_string(ps["rail"].get<int>()));
  if (!ps.at("peer").is_null())
    facts.push_back("cabled to " + ps["peer"].at("device").get<std::string>() + " " +
                    ps["peer"].at("port").get<std::string>());
  if (!ps.at("speed_mbps").is_null()) facts.push_back(std::to_string(ps["speed_mbps"].get<int>()) + " Mb/s expected");
  if (!rdma.is_null())
    facts.push_back("RDMA " + rdma.at("device").get<std::string>() + " port " +
                    std::to_string(rdma.at("port").get<int>()));
  for (size_t i = 0; i < facts.size(); ++i) title += (i ? ", " : ": ") + facts[i];
  c["title"] = comment_safe(title);

  // ---- RDMA (rdma_cm configfs)
  if (rdma.is_null()) {
    c["rdma"] = nullptr;
  } else {
    const std::string device = rdma.at("device").get<std::string>();
    const std::string port = std::to_string(rdma.at("port").get<int>());
    const std::string dir = std::string(kRdmaCm) + "/" + device;
    const std::string port_dir = dir + "/ports/" + port;
    const int tos = rdma.at("roce_tos").get<int>();
    std::string tos_meaning = "DSCP " + std::to_string(tos >> 2) + " << 2";
    if ((tos & 3) == kEct0) tos_meaning += " | ECT(0)";
    c["rdma"] = json{
        {"roce_tos", tos},
        {"rdma_comment", comment_safe(device + " port " + port)},
        {"tos_meaning", tos_meaning},
        {"rdma_dir_sh", shell_quote(dir)},
        {"mode_path_sh", shell_quote(port_dir + "/default_roce_mode")},
        {"mode_sh", shell_quote(rdma.at("gid_type").get<std::string>())},
        {"tos_path_sh", shell_quote(port_dir + "/default_roce_tos")},
        {"tc_path_sh", shell_quote(traffic_class_path(device, rdma.at("port").get<int>()))},
        {"traffic_class", rdma.at("traffic_class").get<int>()},
    };
  }

  // ---- PFC
  std::vector<std::string> pfc_notes = {(lossless.empty() ? std::string("PFC off on every priority")
                                                          : "PFC (lossless) on " + priorities_phrase(lossless)) +
                                        ". mlx5 flaps the link when the PFC priorities change."};
  if (cable_length_m > 0 && cable_length_m < kMlx5MaxCableLengthM) {
    c["pfc_delay"] = std::to_string(cable_length_m);
    // mlx5 reads delay as metres of cable and sizes its receive headroom from it only once `dcb buffer`
    // has switched the port to manually sized buffers; with the firmware's buffers it changes nothing.
    pfc_notes.push_back("delay: the cable length in metres (" + std::to_string(cable_length_m) +
                        " m), as mlx5 reads it (dcb-pfc(8) documents bits). mlx5");
    pfc_notes.emplace_back(
        "uses it only with manually sized buffers (dcb buffer); with the firmware's it changes nothing.");
    pfc_notes.push_back("The switch end of this cable needs about " + std::to_string(headroom) +
                        " bytes of PFC headroom (fabricctl's estimate).");
  } else {
    c["pfc_delay"] = nullptr;
    pfc_notes.push_back("Cable length unknown: delay (the mlx5 cable length) is left as it is.");
  }
  c["pfc_notes"] = lines(pfc_notes);

  // ---- DCQCN (mlx5 ecn sysfs): parameters first, then the per-priority enables; with DCQCN off,
  // only the enables (all 0).
  const bool dcqcn_enabled = dcqcn.at("enabled").get<bool>();
  json writes = json::array();
  if (dcqcn_enabled) {
    const std::string cnp_dscp = std::to_string(dcqcn.at("cnp_dscp").get<int>());
    const std::string cnp_prio = std::to_string(dcqcn.at("cnp_802p_prio").get<int>());
    writes.push_back(
        sysfs_write(ecn + "/roce_np/cnp_dscp", cnp_dscp,
                    "Notification point: CNPs leave with DSCP " + cnp_dscp + " and priority " + cnp_prio + "."));
    writes.push_back(sysfs_write(ecn + "/roce_np/cnp_802p_prio", cnp_prio));
    if (const ordered_json& gap = dcqcn.at("min_time_between_cnps"); !gap.is_null())
      writes.push_back(sysfs_write(ecn + "/roce_np/min_time_between_cnps", std::to_string(gap.get<int>())));
    bool first = true;
    for (const auto& [name, value] : dcqcn.at("rp").items()) {
      writes.push_back(sysfs_write(
          ecn + "/roce_rp/" + name, std::to_string(value.get<int>()),
          first ? "Reaction point parameters the profile sets, in firmware units (rates Mb/s, times us)." : ""));
      first = false;
    }
  }
  const std::vector<int> rp_prios = ints(dcqcn.at("rp_enabled_priorities"));
  const std::vector<int> np_prios = ints(dcqcn.at("np_enabled_priorities"));
  for (const auto& [point, prios] :
       {std::pair{std::string_view("roce_rp"), &rp_prios}, std::pair{std::string_view("roce_np"), &np_prios}}) {
    for (int p = 0; p < kPriorities; ++p) {
      bool on = false;
      for (int x : *prios) on = on || x == p;
      std::string note;
      if (p == 0)
        note = point == "roce_rp" ? "Reaction point (sender) per priority."
                                  : "Notification point (receiver) per priority.";
      writes.push_back(
          sysfs_write(ecn + "/" + std::string(point) + "/enable/" + std::to_string(p), on ? "1" : "0", note));
    }
  }
  c["dcqcn_writes"] = std::move(writes);
  return c;
}

}  // namespace

namespace linux_host {

nlohmann::json apply_context(const nlohmann::ordered_json& state, int roce_dscp) {
  json c;
  const std::string device = state.at("device").get<std::string>();
  const std::string profile = state.at("profile").get<std::string>();
  c["device"] = device;
  c["profile"] = profile;
  c["platform"] = std::string(to_string(Platform::linux_host));
  c["device_comment"] = comment_safe(device);
  c["profile_comment"] = comment_safe(profile);
  const ordered_json& ports_state = state.at("ports");
  c["port_count"] = ports_state.size();

  json ports = json::array();
  json preflight = json::array();
  bool rdma = false;
  // A host's ports share their QoS: its part of the context is built once per distinct value (each
  // port's document still carries its own copy, and that is what is compared).
  const ordered_json* qos_of = nullptr;
  json qos;
  for (const ordered_json& ps : ports_state) {
    if (!qos_of || !same_qos(*qos_of, ps)) {
      qos = qos_context(ps, roce_dscp);
      qos_of = &ps;
    }
    json pc = port_context(ps);
    for (const auto& [key, value] : qos.items()) pc[key] = value;
    ports.push_back(std::move(pc));
    const std::string dir = std::string(kSysNet) + ps.at("netdev").get<std::string>();
    preflight.push_back({{"dir_sh", shell_quote(dir)}, {"why_sh", shell_quote("no such network interface")}});
    preflight.push_back({{"dir_sh", shell_quote(dir + "/ecn")},
                         {"why_sh", shell_quote("no mlx5 ecn sysfs: needs the MLNX_OFED/DOCA-OFED mlx5 driver")}});
    if (const ordered_json& r = ps.at("rdma"); !r.is_null()) {
      rdma = true;
      const std::string tc = traffic_class_path(r.at("device").get<std::string>(), r.at("port").get<int>());
      preflight.push_back({{"dir_sh", shell_quote(tc.substr(0, tc.rfind('/')))},
                           {"why_sh", shell_quote("no RDMA traffic class override: needs the MLNX_OFED/DOCA-OFED "
                                                  "mlx5 driver")}});
    }
  }
  if (rdma)
    preflight.push_back({{"dir_sh", shell_quote(kRdmaCm)},
                         {"why_sh", shell_quote("run: modprobe rdma_cm; mount -t configfs none /sys/kernel/config")}});
  mark_last(ports);
  c["has_ports"] = !ports.empty();
  c["ports"] = std::move(ports);
  c["preflight"] = std::move(preflight);

  json nccl_keys = json::array();
  for (std::string_view k : kNcclKeys) nccl_keys.push_back({{"key", std::string(k)}});
  json nccl_lines = json::array();
  for (const std::string& line : nccl_conf_lines(state.at("nccl")))
    nccl_lines.push_back({{"line_sh", shell_quote(line)}});
  c["nccl_conf_sh"] = shell_quote(kNcclConf);
  c["nccl_keys"] = std::move(nccl_keys);
  c["nccl_lines"] = std::move(nccl_lines);
  c["done_message_sh"] = shell_quote("apply.sh: " + device + ": RoCE NIC state applied to " +
                                     std::to_string(ports_state.size()) + " port(s)");
  return c;
}

}  // namespace linux_host

nlohmann::json linux_context(const DeviceDesired& device, const Document& nic_state) {
  return linux_host::apply_context(nic_state, device.qos.roce_dscp);
}

nlohmann::json linux_context(const DeviceDesired& device) {
  return linux_context(device, linux_host::nic_state(device));
}

}  // namespace fabricctl

#include "platform/linux/host_changes.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "platform/linux/nic.h"
#include "util/escape.h"
#include "util/names.h"

namespace fabricctl::linux_host {
namespace {

using nlohmann::ordered_json;

/// A document value, checked: a nic-state.json from stdin is input, not trusted code.
int int_in(const ordered_json& j, int lo, int hi, std::string_view what) {
  if (!j.is_number_integer()) throw std::invalid_argument(std::string(what) + " is not an integer");
  const auto v = j.get<long long>();
  if (v < lo || v > hi)
    throw std::invalid_argument(std::string(what) + " " + std::to_string(v) + " is not " + std::to_string(lo) + "-" +
                                std::to_string(hi));
  return static_cast<int>(v);
}

std::string join_pairs(const std::vector<std::pair<int, std::string>>& pairs) {
  std::string out;
  for (const auto& [k, v] : pairs) out += " " + std::to_string(k) + ":" + v;
  return out;
}

HostChange make(ChangeKind kind, const std::string& netdev) {
  HostChange c;
  c.kind = kind;
  c.netdev = netdev;
  return c;
}

struct PortDiff {
  const ordered_json& want;
  const PortObserved& have;
  const std::string& dev;
  std::vector<HostChange>& out;

  void mtu() const {
    // Linux netdev MTU: 68 (IPv4 minimum) .. 65535 (IFLA_MTU is u32; no NIC goes higher).
    const int mtu = int_in(want.at("mtu"), 68, 65535, "mtu");
    if (have.mtu == mtu) return;
    HostChange c = make(ChangeKind::mtu, dev);
    c.line = "ip link set dev " + dev + " mtu " + std::to_string(mtu);
    c.what = "MTU";
    c.mtu = mtu;
    out.push_back(std::move(c));
  }

  void ets() const {
    const auto& e = want.at("ets");
    DcbEts ets;
    std::array<int, kPriorities> prio_tc{};
    for (size_t p = 0; p < kDcbMaxTcs; ++p) {
      prio_tc[p] = int_in(e.at("prio_tc").at(p), 0, kDcbMaxTcs - 1, "ets prio_tc");
      ets.prio_tc[p] = static_cast<uint8_t>(prio_tc[p]);
    }
    bool same = have.priority_to_tc == prio_tc && have.tc.has_value();
    std::vector<std::pair<int, std::string>> tsa_words, bw_words, prio_words;
    for (const auto& t : e.at("tc")) {
      const int tc = int_in(t.at("tc"), 0, kDcbMaxTcs - 1, "ets tc");
      const bool strict = t.at("tsa").get<std::string>() == "strict";
      const int bw = int_in(t.at("bw"), 0, 100, "ets bw");
      ets.tc_tsa[static_cast<size_t>(tc)] = strict ? kTsaStrict : kTsaEts;
      ets.tc_tx_bw[static_cast<size_t>(tc)] = static_cast<uint8_t>(bw);
      // A TC no priority maps to carries nothing: its schedule is not compared (verify ignores it too).
      const bool used = std::find(prio_tc.begin(), prio_tc.end(), tc) != prio_tc.end();
      if (same && used) {
        const TcSchedule& h = (*have.tc)[static_cast<size_t>(tc)];
        same = h.strict == strict && (strict || h.bandwidth_pct == bw);
      }
      tsa_words.emplace_back(tc, strict ? "strict" : "ets");
      bw_words.emplace_back(tc, std::to_string(bw));
    }
    if (same) return;
    for (int p = 0; p < kPriorities; ++p) prio_words.emplace_back(p, std::to_string(prio_tc[static_cast<size_t>(p)]));
    HostChange c = make(ChangeKind::dcb_ets, dev);
    c.line = "dcb ets set dev " + dev + " prio-tc" + join_pairs(prio_words) + " tc-tsa" + join_pairs(tsa_words) +
             " tc-bw" + join_pairs(bw_words);
    c.what = "DCB ETS";
    c.ets = ets;
    out.push_back(std::move(c));
  }

  void pfc() const {
    const auto& p = want.at("pfc");
    std::array<bool, kDcbMaxTcs> on{};
    for (const auto& prio : p.at("enabled_priorities"))
      on[static_cast<size_t>(int_in(prio, 0, kDcbMaxTcs - 1, "pfc priority"))] = true;
    if (have.lossless == on) return;
    // Only the priorities that change, as one would type it; the set itself carries all eight.
    std::vector<std::pair<int, std::string>> words;
    for (int q = 0; q < kPriorities; ++q)
      if (!have.lossless || (*have.lossless)[static_cast<size_t>(q)] != on[static_cast<size_t>(q)])
        words.emplace_back(q, on[static_cast<size_t>(q)] ? "on" : "off");
    HostChange c = make(ChangeKind::dcb_pfc, dev);
    c.pfc_delay = int_in(p.at("cable_length_m"), 0, kMlx5MaxCableLengthM, "pfc cable_length_m");
    c.line = "dcb pfc set dev " + dev + " prio-pfc" + join_pairs(words) + " delay " + std::to_string(c.pfc_delay);
    c.what = "DCB PFC";
    c.pfc = on;
    out.push_back(std::move(c));
  }

  void apps() const {
    std::optional<std::array<int, kDscpValues>> map;
    std::vector<DcbApp> apps;
    for (const auto& pair : want.at("app_dscp_prio")) {
      const int dscp = int_in(pair.at(0), 0, kDscpValues - 1, "app dscp");
      const int prio = int_in(pair.at(1), 0, kPriorities - 1, "app priority");
      if (!map) map.emplace();
      (*map)[static_cast<size_t>(dscp)] = prio;
      apps.push_back({kAppSelDscp, static_cast<uint8_t>(prio), static_cast<uint16_t>(dscp)});
    }
    // mlx5: the DSCP app entries are the trust mode (dcb_observed.h); trust PCP is no entry at all.
    const bool same = map ? have.trust == Trust::dscp && have.dscp_to_priority == map : have.trust == Trust::pcp;
    if (same) return;
    HostChange c = make(ChangeKind::dcb_app, dev);
    c.what = "DCB app table";
    if (!map) {
      c.line = "dcb app flush dev " + dev + " dscp-prio";
    } else {
      std::vector<std::pair<int, std::string>> words;
      for (const DcbApp& a : apps)
        if (!have.dscp_to_priority || have.trust != Trust::dscp || (*have.dscp_to_priority)[a.protocol] != a.priority)
          words.emplace_back(a.protocol, std::to_string(a.priority));
      c.line = "dcb app replace dev " + dev + " dscp-prio" + join_pairs(words);
    }
    c.apps = std::move(apps);
    out.push_back(std::move(c));
  }

  /// `now`: the value the host shows, -1 when it showed none (no value written is negative).
  void file(const std::string& path, int value, int now, std::string what) const {
    if (now == value) return;
    HostChange c = make(ChangeKind::file, dev);
    c.line = "echo " + std::to_string(value) + " > " + path;
    c.what = std::move(what);
    c.path = path;
    c.value = std::to_string(value);
    out.push_back(std::move(c));
  }

  /// MLNX_OFED mlx5 ecn sysfs (host_sysfs.h): enable/<prio> 0/1 per point, the CNP's marking, rp params.
  void dcqcn() const {
    const auto& d = want.at("dcqcn");
    const std::string ecn = "/sys/class/net/" + dev + "/ecn/";
    const std::optional<DcqcnObserved>& h = have.dcqcn;
    for (const char* point : {"roce_rp", "roce_np"}) {
      std::array<bool, kPriorities> on{};
      const bool rp = std::string_view(point) == "roce_rp";
      for (const auto& prio : d.at(rp ? "rp_enabled_priorities" : "np_enabled_priorities"))
        on[static_cast<size_t>(int_in(prio, 0, kPriorities - 1, "dcqcn priority"))] = true;
      for (int p = 0; p < kPriorities; ++p) {
        const int now = h ? ((rp ? h->rp_enabled : h->np_enabled)[static_cast<size_t>(p)] ? 1 : 0) : -1;
        const std::string rel = std::string(point) + "/enable/" + std::to_string(p);
        file(ecn + rel, on[static_cast<size_t>(p)] ? 1 : 0, now, "DCQCN " + rel);
      }
    }
    file(ecn + "roce_np/cnp_dscp", int_in(d.at("cnp_dscp"), 0, 63, "cnp_dscp"), h ? h->cnp_dscp.value_or(-1) : -1,
         "DCQCN roce_np/cnp_dscp");
    file(ecn + "roce_np/cnp_802p_prio", int_in(d.at("cnp_802p_prio"), 0, 7, "cnp_802p_prio"),
         h ? h->cnp_priority.value_or(-1) : -1, "DCQCN roce_np/cnp_802p_prio");
    // null: the profile leaves it to the firmware, so whatever the NIC has is right.
    if (!d.at("min_time_between_cnps").is_null())
      file(ecn + "roce_np/min_time_between_cnps",
           int_in(d.at("min_time_between_cnps"), 0, 1'000'000, "min_time_between_cnps"),
           h ? h->min_time_between_cnps.value_or(-1) : -1, "DCQCN roce_np/min_time_between_cnps");
    for (const auto& [name, value] : d.at("rp").items()) {
      if (value.is_null()) continue;
      if (std::find(kDcqcnRpParams.begin(), kDcqcnRpParams.end(), name) == kDcqcnRpParams.end())
        throw std::invalid_argument("dcqcn rp parameter \"" + terminal_line(name) + "\" is not an mlx5 one");
      int now = -1;
      if (h)
        if (const auto it = h->rp.find(name); it != h->rp.end()) now = it->second;
      file(ecn + "roce_rp/" + name, int_in(value, 0, 2'147'483'647, name), now, "DCQCN roce_rp/" + name);
    }
  }

  /// RoCE ToS: rdma_cm's default for the connections it makes (configfs; the kernel's rdma_cm creates
  /// the port directories once DEV's directory is made), and MLNX_OFED's override for every QP.
  void tos() const {
    const auto& r = want.at("rdma");
    if (r.is_null()) return;
    const std::string rdma = r.at("device").get<std::string>();
    if (!valid_rdma_device_name(rdma)) throw std::invalid_argument("rdma device \"" + terminal_line(rdma) + "\"");
    const int port = int_in(r.at("port"), 1, 255, "rdma port");
    const std::optional<RdmaObserved>& h = have.rdma;
    const bool same_device = h && h->device == rdma && h->port == port;
    file(rdma_cm_device_dir(rdma) + "/ports/" + std::to_string(port) + "/default_roce_tos",
         int_in(r.at("roce_tos"), 0, 255, "roce_tos"), same_device ? h->cm_tos.value_or(-1) : -1,
         "RoCE ToS (rdma_cm default_roce_tos)");
    file(traffic_class_path(rdma, port), int_in(r.at("traffic_class"), 0, 255, "traffic_class"),
         same_device ? h->tos_override.value_or(-2) : -2, "RoCE ToS (traffic_class)");
  }
};

void nccl(const ordered_json& want, const DeviceObserved& have, std::vector<HostChange>& out) {
  const int tc = int_in(want.at("ib_tc"), 0, 255, "nccl ib_tc");
  // -1: not set, NCCL picks the GID.
  const int gid = want.at("ib_gid_index").is_null() ? -1 : int_in(want.at("ib_gid_index"), 0, 255, "gid");
  if (have.nccl && have.nccl->traffic_class == tc && have.nccl->gid_index.value_or(-1) == gid) return;
  HostChange c = make(ChangeKind::nccl, "");
  c.what = std::string(kNcclConf);
  for (const std::string& l : nccl_conf_lines(want)) c.value += l + "\n";
  c.line = "set in " + std::string(kNcclConf) + ":";
  for (const std::string& l : nccl_conf_lines(want)) c.line += " " + l;
  out.push_back(std::move(c));
}

}  // namespace

Expected<std::vector<HostChange>> host_changes(const nlohmann::ordered_json& nic_state,
                                               const DeviceObserved& observed) {
  std::vector<HostChange> out;
  try {
    if (!nic_state.is_object() || nic_state.value("schema", "") != kNicStateSchema)
      return unexpected("not a nic-state.json (schema " + std::string(kNicStateSchema) + ")");
    for (const auto& port : nic_state.at("ports")) {
      const std::string dev = port.at("netdev").get<std::string>();
      if (!valid_port_name(dev) || dev[0] == '-')
        return unexpected("netdev \"" + terminal_line(dev) + "\" is not a port name");
      const PortObserved* have = observed.port(dev);
      if (have == nullptr) {
        const std::string* why = observed.port_unreadable(dev);
        return unexpected(dev + ": not read" + (why ? ": " + *why : std::string()));
      }
      const PortDiff d{port, *have, dev, out};
      d.mtu();
      d.ets();
      d.pfc();
      d.apps();
      d.dcqcn();
      d.tos();
    }
    nccl(nic_state.at("nccl"), observed, out);
  } catch (const std::exception& e) {
    return unexpected("nic-state.json: " + terminal_line(e.what()));
  }
  return out;
}

std::string change_text(const std::vector<HostChange>& changes) {
  std::string out;
  for (const HostChange& c : changes) out += c.line + "\n";
  return out;
}

std::string observed_config_text(const DeviceObserved& observed) {
  auto opt = [](const auto& o) { return o ? ordered_json(*o) : ordered_json(nullptr); };
  ordered_json doc = ordered_json::object();
  doc["device"] = observed.name;
  ordered_json ports = ordered_json::array();
  for (const PortObserved& p : observed.ports) {
    ordered_json j = ordered_json::object();
    j["netdev"] = p.name;
    j["mtu"] = opt(p.mtu);
    j["trust"] = p.trust ? ordered_json(std::string(to_string(*p.trust))) : ordered_json(nullptr);
    j["dscp_to_priority"] = opt(p.dscp_to_priority);
    j["pfc"] = opt(p.lossless);
    j["prio_tc"] = opt(p.priority_to_tc);
    if (p.tc) {
      ordered_json tcs = ordered_json::array();
      for (const TcSchedule& t : *p.tc) tcs.push_back({t.strict ? "strict" : "ets", t.bandwidth_pct});
      j["tc"] = std::move(tcs);
    } else {
      j["tc"] = nullptr;
    }
    if (p.dcqcn) {
      j["dcqcn"] = {{"rp_enabled", p.dcqcn->rp_enabled},
                    {"np_enabled", p.dcqcn->np_enabled},
                    {"cnp_dscp", opt(p.dcqcn->cnp_dscp)},
                    {"cnp_802p_prio", opt(p.dcqcn->cnp_priority)},
                    {"min_time_between_cnps", opt(p.dcqcn->min_time_between_cnps)}};
      for (const auto& [k, v] : p.dcqcn->rp) j["dcqcn"]["rp"][k] = v;
    } else {
      j["dcqcn"] = nullptr;
    }
    if (p.rdma)
      j["rdma"] = {{"device", p.rdma->device},
                   {"port", p.rdma->port},
                   {"cm_tos", opt(p.rdma->cm_tos)},
                   {"tos_override", opt(p.rdma->tos_override)}};
    else j["rdma"] = nullptr;
    ports.push_back(std::move(j));
  }
  doc["ports"] = std::move(ports);
  doc["unreadable_ports"] = observed.unreadable_ports;
  if (observed.nccl)
    doc["nccl"] = {{"ib_tc", opt(observed.nccl->traffic_class)}, {"ib_gid_index", opt(observed.nccl->gid_index)}};
  else doc["nccl"] = nullptr;
  return doc.dump(2) + "\n";
}

}  // namespace fabricctl::linux_host

#include "platform/sonic/default_config_db.h"

#include <string>
#include <vector>

#include "platform/json_object.h"
#include "platform/sonic/config_db.h"

namespace fabricctl::sonic {
namespace {

// The QoS tables `config qos reload` writes on a switch without neighbours: the render of SONiC's
// qos.json.j2 (qos_config.j2) in sonic-net/sonic-utilities tests/qos_config_input/config_qos.json
// (test_qos_reload_single; copied in shared/reference/outputs/sonic/config-db_qos-tables_qos-reload-render.json).
// Only the tables fabricctl writes are kept; MPLS_TC_TO_TC_MAP is left out. Note DSCP 26 -> TC 1
// (lossy) and lossless 3,4 in the AZURE maps: the reason fabricctl writes its own. PORT_QOS_MAP and
// QUEUE are empty as rendered there (per-port entries exist only for ports with neighbours);
// default_config_db() adds them for the device's ports as qos_config.j2 writes them.
constexpr const char* kQosReload = R"({
  "DSCP_TO_TC_MAP": {"AZURE": {"0": "1", "1": "1", "10": "1", "11": "1", "12": "1", "13": "1", "14": "1",
    "15": "1", "16": "1", "17": "1", "18": "1", "19": "1", "2": "1", "20": "1", "21": "1", "22": "1", "23": "1",
    "24": "1", "25": "1", "26": "1", "27": "1", "28": "1", "29": "1", "3": "3", "30": "1", "31": "1", "32": "1",
    "33": "1", "34": "1", "35": "1", "36": "1", "37": "1", "38": "1", "39": "1", "4": "4", "40": "1", "41": "1",
    "42": "1", "43": "1", "44": "1", "45": "1", "46": "5", "47": "1", "48": "6", "49": "1", "5": "2", "50": "1",
    "51": "1", "52": "1", "53": "1", "54": "1", "55": "1", "56": "1", "57": "1", "58": "1", "59": "1", "6": "1",
    "60": "1", "61": "1", "62": "1", "63": "1", "7": "1", "8": "0", "9": "1"}},
  "TC_TO_PRIORITY_GROUP_MAP": {"AZURE": {"0": "0", "1": "0", "2": "0", "3": "3", "4": "4", "5": "0", "6": "0", "7": "7"}},
  "TC_TO_QUEUE_MAP": {"AZURE": {"0": "0", "1": "1", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7"}},
  "MAP_PFC_PRIORITY_TO_QUEUE": {"AZURE": {"0": "0", "1": "1", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7"}},
  "SCHEDULER": {"scheduler.0": {"type": "DWRR", "weight": "14"}, "scheduler.1": {"type": "DWRR", "weight": "15"}},
  "WRED_PROFILE": {"AZURE_LOSSLESS": {"ecn": "ecn_all", "green_drop_probability": "5",
    "green_max_threshold": "2097152", "green_min_threshold": "1048576", "red_drop_probability": "5",
    "red_max_threshold": "2097152", "red_min_threshold": "1048576", "wred_green_enable": "true",
    "wred_red_enable": "true", "wred_yellow_enable": "true", "yellow_drop_probability": "5",
    "yellow_max_threshold": "2097152", "yellow_min_threshold": "1048576"}},
  "PORT_QOS_MAP": {},
  "QUEUE": {}
})";

// The buffer pools and profiles of the same render (buffers_config.j2), which BUFFER_QUEUE and
// BUFFER_PG entries point to.
constexpr const char* kBuffers = R"({
  "BUFFER_POOL": {
    "egress_lossless_pool": {"mode": "static", "size": "12766208", "type": "egress"},
    "egress_lossy_pool": {"mode": "dynamic", "size": "7326924", "type": "egress"},
    "ingress_lossless_pool": {"mode": "dynamic", "size": "12766208", "type": "ingress"}},
  "BUFFER_PROFILE": {
    "egress_lossless_profile": {"pool": "egress_lossless_pool", "size": "0", "static_th": "12766208"},
    "egress_lossy_profile": {"dynamic_th": "3", "pool": "egress_lossy_pool", "size": "1518"},
    "ingress_lossy_profile": {"dynamic_th": "3", "pool": "ingress_lossless_pool", "size": "0"}},
  "BUFFER_QUEUE": {}
})";

}  // namespace

nlohmann::ordered_json default_config_db(const DeviceDesired& device) {
  using nlohmann::ordered_json;
  static const ordered_json qos = ordered_json::parse(kQosReload);
  static const ordered_json buffers = ordered_json::parse(kBuffers);
  ordered_json doc = qos;
  for (const auto& [table, entries] : buffers.items()) doc[table] = entries;
  const bool dynamic = dynamic_buffers(device);
  const std::vector<const PortDesired*> ports = natural_ports(device);

  // Every port fabricctl configures is taken to have a neighbour (DEVICE_NEIGHBOR): the template then
  // gives it its per-port entries (qos_config.j2, buffers_config.j2), as on a switch in service.
  ordered_json& port_qos = doc["PORT_QOS_MAP"];
  append_member(port_qos, "global", {{"dscp_to_tc_map", "AZURE"}});
  if (dynamic) doc["PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"] = {{"AZURE", {{"3", "3"}, {"4", "4"}}}};
  ordered_json& queue = doc["QUEUE"];
  ordered_json& buffer_queue = doc["BUFFER_QUEUE"];
  ordered_json buffer_pg = ordered_json::object();
  for (const PortDesired* p : ports) {
    ordered_json e = {{"dscp_to_tc_map", "AZURE"}, {"tc_to_queue_map", "AZURE"}};
    if (dynamic) e["pfc_to_pg_map"] = "AZURE";
    e["pfc_enable"] = "3,4";
    e["pfcwd_sw_enable"] = "3,4";
    e["tc_to_pg_map"] = "AZURE";
    e["pfc_to_queue_map"] = "AZURE";
    append_member(port_qos, p->name, std::move(e));
    for (int q = 0; q <= 6; ++q) {
      const bool lossless = q == 3 || q == 4;
      ordered_json qe = {{"scheduler", lossless ? "scheduler.1" : "scheduler.0"}};
      if (lossless) qe["wred_profile"] = "AZURE_LOSSLESS";
      append_member(queue, p->name + "|" + std::to_string(q), std::move(qe));
    }
    append_member(buffer_queue, p->name + "|0-2", {{"profile", "egress_lossy_profile"}});
    append_member(buffer_queue, p->name + "|3-4", {{"profile", "egress_lossless_profile"}});
    append_member(buffer_queue, p->name + "|5-6", {{"profile", "egress_lossy_profile"}});
    append_member(buffer_pg, p->name + "|0", {{"profile", "ingress_lossy_profile"}});
    // The traditional model's lossless PGs are buffermgrd's, from pfc_enable: not the template's.
    if (dynamic) append_member(buffer_pg, p->name + "|3-4", {{"profile", "NULL"}});
  }
  doc["BUFFER_PG"] = std::move(buffer_pg);
  // buffers.json.j2 writes CABLE_LENGTH|AZURE for every port (5m, 40m or 300m by the neighbour's role;
  // 300m in the render above); which one applies depends on the topology, so no length is assumed.
  doc["CABLE_LENGTH"] = {{"AZURE", ordered_json::object()}};
  // PFC_WD: `pfcwd start_default`, which load_minigraph runs unless DEVICE_METADATA default_pfcwd_status
  // is "disable": drop, detection and restoration 200 ms per started 32 ports, polled as often.
  const std::string ms = std::to_string(200 * ((ports.size() + 31) / 32));
  ordered_json pfc_wd = {{"GLOBAL", {{"POLL_INTERVAL", ms}}}};
  for (const PortDesired* p : ports)
    append_member(pfc_wd, p->name, {{"action", "drop"}, {"detection_time", ms}, {"restoration_time", ms}});
  doc["PFC_WD"] = std::move(pfc_wd);
  // PORT: every front-panel port exists (from the SKU's port_config.ini); its fields, mtu included
  // (9100 in the t1 preset), come from the SKU and preset, which fabricctl does not know.
  ordered_json port_table = ordered_json::object();
  for (const PortDesired* p : ports) append_member(port_table, p->name, ordered_json::object());
  doc["PORT"] = std::move(port_table);
  return doc;
}

}  // namespace fabricctl::sonic

#include "platform/sonic/default_config_db.h"

#include "platform/json_object.h"

namespace fabricctl::sonic {
namespace {

// The QoS tables `config qos reload` writes on a switch without neighbours: the render of SONiC's
// qos.json.j2 (qos_config.j2) in sonic-net/sonic-utilities tests/qos_config_input/config_qos.json
// (test_qos_reload_single; copied in shared/reference/outputs/sonic/config-db_qos-tables_qos-reload-render.json).
// Only the tables fabricctl writes are kept; BUFFER_* and MPLS_TC_TO_TC_MAP are left out. Note
// DSCP 26 -> TC 1 (lossy) and lossless 3,4 in the AZURE maps: the reason fabricctl writes its own.
// PORT_QOS_MAP and QUEUE are empty as rendered (per-port entries exist only for ports with
// neighbours). They are kept as present-but-empty tables although Redis cannot hold an empty table:
// the offline patch then adds entries into them, as config_db.patch.json always has. Against a
// running config that lacks them, config_db_patch() adds the tables whole.
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

}  // namespace

nlohmann::ordered_json default_config_db(const DeviceDesired& device) {
  static const nlohmann::ordered_json qos = nlohmann::ordered_json::parse(kQosReload);
  nlohmann::ordered_json doc = qos;
  // buffers.json.j2 writes CABLE_LENGTH|AZURE for every port (5m, 40m or 300m by the neighbour's role;
  // 300m in the render above); which one applies depends on the topology, so no length is assumed.
  doc["CABLE_LENGTH"] = {{"AZURE", nlohmann::ordered_json::object()}};
  // PFC_WD: `pfcwd start_default` (run by load_minigraph unless DEVICE_METADATA default_pfcwd_status is
  // "disable") creates the table; its GLOBAL poll interval and per-port entries depend on the build
  // and on the neighbours, so none is assumed. Present-but-empty for the same reason as PORT_QOS_MAP;
  // a switch where pfcwd never started has no PFC_WD, and the apply-time patch adds it whole.
  doc["PFC_WD"] = nlohmann::ordered_json::object();
  // PORT: every front-panel port exists (from the SKU's port_config.ini); its fields, mtu included
  // (9100 in the t1 preset), come from the SKU and preset, which fabricctl does not know.
  nlohmann::ordered_json ports = nlohmann::ordered_json::object();
  for (const PortDesired& p : device.ports) append_member(ports, p.name, nlohmann::ordered_json::object());
  doc["PORT"] = std::move(ports);
  return doc;
}

}  // namespace fabricctl::sonic

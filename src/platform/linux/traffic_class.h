// MLNX_OFED's per-port traffic-class override, /sys/class/infiniband/DEV/tc/PORT/traffic_class: what it
// shows and what it accepts differ, so restoring it means parsing what it showed and writing the value
// back in the form the driver stores. Source: MLNX_OFED mlnx-ofa_kernel drivers/infiniband/hw/mlx5/
// main_ext.c, traffic_class_show() and traffic_class_store() / tclass_parse_input():
//   show:  "Global tclass=N\n" when the port-wide override N >= 0 is set, then one line per
//          per-address rule ("dst_ip=10.0.0.0/24,tclass=N\n", also src_ip=, src_ip6=, dst_ip6=);
//          nothing at all when neither is set.
//   store: comma-separated "key=value" tokens; the port-wide override alone is "N" or "tclass=N"
//          (kstrtoint base 0, at most 255), and a negative N ("-1") clears it. Anything else, the
//          shown "Global tclass=N" and an empty write included, is refused with EINVAL.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.h"

namespace fabricctl::linux_host {

struct TrafficClassShown {
  std::optional<int> global;       // the port-wide override, ToS byte 0-255; nullopt: none set
  std::vector<std::string> rules;  // per-address rule lines as shown, e.g. "dst_ip=10.0.0.0/24,tclass=96"
};

/// Parses what traffic_class shows. Error (without the path): a line that is neither the override nor a
/// rule.
Expected<TrafficClassShown> parse_traffic_class(std::string_view shown);

/// What to write to set the port-wide override to `tos` (0-255), or to clear it (nullopt): "106", "-1".
std::string traffic_class_store(std::optional<int> tos);

}  // namespace fabricctl::linux_host

// The check catalog: every check is one row (stable ID, severity, what it compares) and one small
// function over desired x observed state. Checks never read vendor text: units and semantics are
// normalized by the platform adapters before state reaches them.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "state/desired.h"
#include "state/fix.h"
#include "state/observed.h"
#include "verify/result.h"
#include "verify/result_sink.h"

namespace fabricctl {

/// Documented tolerances for values that hardware legitimately rounds.
struct Tolerance {
  /// ECN thresholds may differ from intent by this much, percent of the desired value: switch
  /// ASICs program thresholds in buffer cells (e.g. NVUE 150000 B -> 159744 B on Spectrum, +6.5 %).
  double ecn_threshold_pct = 10.0;
};

/// Phrases a fix as commands for its device's platform (platform/platform.h: fix_text). The caller
/// gives it: verify knows no platform's words. nullptr: results carry no fix.
using FixText = std::string (*)(const Fix& fix);

/// A cabled link, both ends resolved. For host-switch links `a` is the host end; for
/// switch-switch links `a` is the end whose device name sorts first.
struct LinkEnds {
  const DeviceDesired* a_device;
  const PortDesired* a;
  const DeviceDesired* b_device;
  const PortDesired* b;
};

/// Everything a check may read. Built once per verify run.
struct CheckContext {
  const FabricDesired& desired;
  const FabricObserved& observed;
  Tolerance tolerance;
  FixText fix_text;
  std::vector<LinkEnds> links;  // every link once, in a stable order

  /// `scope`: the devices whose results are wanted (--limit); nullptr for all. Checks skip the rest
  /// before doing any work, and link checks run on links with at least one end in scope.
  CheckContext(const FabricDesired& d, const FabricObserved& o, Tolerance t = {},
               const std::set<std::string>* scope = nullptr, FixText phrase = nullptr);

  /// `fix` phrased for its device's platform, or "" when the run phrases none.
  [[nodiscard]] std::string fix(const Fix& fix) const { return fix_text ? fix_text(fix) : std::string(); }

  /// Whether results about `d` (a device of `desired`) are wanted.
  [[nodiscard]] bool in_scope(const DeviceDesired& d) const { return in_scope_.empty() || in_scope_[index_of(d)]; }

  /// The observed device, or nullptr when its state is missing or unreadable.
  [[nodiscard]] const DeviceObserved* device(std::string_view name) const;
  /// The observed state of a desired device (of `desired`), or nullptr. An index, no lookup.
  [[nodiscard]] const DeviceObserved* observed_device(const DeviceDesired& d) const {
    return observed_devices_[index_of(d)];
  }
  /// The observed state of a desired port of `d`, or nullptr. An index, no lookup: checks ask for
  /// every port of the fabric once per check.
  [[nodiscard]] const PortObserved* observed_port(const DeviceDesired& d, const PortDesired& p) const {
    return observed_ports_[port_index(d, p)];
  }
  /// The position of `d` in desired.devices.
  [[nodiscard]] size_t index_of(const DeviceDesired& d) const {
    return static_cast<size_t>(&d - desired.devices.data());
  }
  /// A number for each desired port of the fabric, 0 to port_count() - 1.
  [[nodiscard]] size_t port_index(const DeviceDesired& d, const PortDesired& p) const {
    return port_offset_[index_of(d)] + static_cast<size_t>(&p - d.ports.data());
  }
  [[nodiscard]] size_t port_count() const { return observed_ports_.size(); }
  /// The link a desired port is cabled into, or nullptr when it is not cabled. Constant time.
  [[nodiscard]] const LinkEnds* link_of(const PortDesired& port) const;
  /// The desired device of that name, or nullptr.
  [[nodiscard]] const DeviceDesired* desired_device(std::string_view name) const;
  /// The port of `d` of that name, or nullptr.
  [[nodiscard]] static const PortDesired* desired_port(const DeviceDesired& d, std::string_view name);

 private:
  std::vector<const DeviceObserved*> observed_devices_;                 // by index into desired.devices
  std::vector<size_t> port_offset_;                                     // by device index: its first port's number
  std::vector<const PortObserved*> observed_ports_;                     // by port number (port_index)
  std::unordered_map<const PortDesired*, size_t> link_index_;           // either end -> index into links
  std::unordered_map<std::string_view, const DeviceDesired*> devices_;  // names live in `desired`
  std::vector<bool> in_scope_;  // by index into desired.devices; empty: every device
};

/// The endpoints of a link, host end first.
LinkRef link_ref(const LinkEnds& l);

struct Check {
  std::string_view id;       // stable: part of the JSON, JUnit and Prometheus outputs
  Severity severity;         // of its failures
  std::string_view summary;  // what it compares, one line
  /// Puts one result per object it applies to (pass, fail, missing or consequence) into `out`.
  void (*run)(const CheckContext& ctx, ResultSink& out);
  /// True when the data it needs is optional (LLDP): its missing results do not make the audit
  /// incomplete (exit 3).
  bool optional_data = false;
};

/// Every check, in catalog order.
const std::vector<Check>& checks();

}  // namespace fabricctl

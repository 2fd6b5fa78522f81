// Resolving the inventory against the profiles into the desired state of every device, and
// checking everything that needs more than one object: references, links, platform limits.
#pragma once

#include <optional>

#include "model/inventory.h"
#include "model/profile_set.h"
#include "state/desired.h"

namespace fabricctl {

/// How to reach a device, as far as the inventory says: every field may be empty, since only
/// commands that connect need them (require_connect_settings).
struct DeviceMgmt {
  std::string device;
  Loc loc;  // the device's name in the inventory: where a missing setting is reported
  std::string address;
  int port = 22;
  std::string user;
  std::string key;
  bool agent = false;
  std::string password_env;
  std::string host_key;
  /// Hosts: the fabricctl the controller runs there, a path or a name in the host's PATH. Checked
  /// against a strict character set, and quoted in the command line all the same.
  std::string fabricctl = "fabricctl";
};

struct Fabric {
  FabricDesired desired;
  std::vector<DeviceMgmt> mgmt;  // same order as desired.devices
  size_t links = 0;
  size_t warnings = 0;  // input warnings printed while loading (validate's ok line counts them)
};

/// Resolves and checks. Every problem is reported; the result is only usable when `diags` has no
/// errors (warnings: a device on no link, a link without a speed).
Fabric resolve_fabric(const Inventory& inv, const ProfileSet& profiles, Diags& diags);

/// What a command that connects to devices (collect; plan and apply later) requires beyond
/// validation: every device has mgmt.address, mgmt.user and one way to authenticate. validate,
/// render and verify (from snapshots) never require mgmt; a connecting command calls this after
/// load, on the devices it will reach: `only` (all when empty).
void require_connect_settings(const Fabric& fabric, Diags& diags, const std::set<std::string>& only = {});

}  // namespace fabricctl

// Resolving the inventory against the profiles into the desired state of every device, and
// checking everything that needs more than one object: references, links, platform limits.
#pragma once

#include <optional>

#include "model/inventory.h"
#include "model/profile_set.h"
#include "state/desired.h"

namespace fabricctl {

struct DeviceMgmt {
  std::string device;
  std::string address;
  int port = 22;
  std::string user;
  std::string key;
  bool agent = false;
  std::string password_env;
  std::string host_key;
};

struct Fabric {
  FabricDesired desired;
  std::vector<DeviceMgmt> mgmt;  // same order as desired.devices
  size_t links = 0;
};

/// Resolves and checks. Every problem is reported; the result is only usable when `diags` is empty.
Fabric resolve_fabric(const Inventory& inv, const ProfileSet& profiles, Diags& diags);

}  // namespace fabricctl

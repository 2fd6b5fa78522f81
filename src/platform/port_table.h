// What a platform's reader of a per-port output returns: the ports it read, and those it could not,
// with why (one bad port is that port's fault, not the device's).
#pragma once

#include <map>
#include <string>

namespace fabricctl {

template <typename T>
struct PortTable {
  std::map<std::string, T, std::less<>> ports;
  std::map<std::string, std::string, std::less<>> unreadable;  // port (made printable) -> why
};

}  // namespace fabricctl

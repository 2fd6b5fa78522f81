// The rail-optimized fabric a spec describes, device by device and cable by cable: pure, and
// positional, so that the same spec at more hosts gives every existing device, port and cable the
// same name (docs/design.md "Growing a fabric").
//
// NIC n of a server goes to the leaf of rail n mod R (R rails); a pod is the servers under one leaf of
// each rail. A leaf's ports are its servers' NICs first (server by server), then its uplinks, the same
// number to each spine; spine port k*U + u is uplink u of the k-th leaf of the fabric (pod by pod, rail
// by rail, U uplinks from each leaf to each spine).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "design/rail_spec.h"

namespace fabricctl::design {

enum class TierKind { spine, leaf, host };

struct DesignedPort {
  std::string name;
  std::string speed;        // switches; a host NIC takes its link's
  std::string rdma_device;  // hosts
  int rail = -1;            // hosts
};

struct DesignedDevice {
  TierKind tier{};
  std::string name;
  std::string platform;
  std::vector<std::string> groups;
  int rail = -1;  // leaves
  std::string address;
  std::vector<DesignedPort> ports;
};

struct DesignedLink {
  std::string a, b;  // "device:port"; a is the server (host links) or the leaf (uplinks)
  std::string speed;
  int64_t length_m = 0;
  bool uplink = false;
};

/// The numbers a person checks a design by (docs/design.md "The report").
struct Sizes {
  int64_t hosts = 0, pods = 0, pod_hosts = 0, rails = 0, nics = 0;
  int64_t leaves = 0, spines = 0;
  int64_t leaf_radix = 0, leaf_down = 0, leaf_up = 0, leaf_spare = 0, up_per_spine = 0;
  int64_t spine_radix = 0;             // 0: not given
  int64_t spine_ports = 0;             // in use on each spine
  int64_t max_pods = 0;                // the spines' radix allows; 0: unbounded
  int64_t down_mbps = 0, up_mbps = 0;  // one leaf's server-facing and spine-facing bandwidth
  int64_t host_links = 0, uplinks = 0;
  int64_t dac_cables = 0, optical_links = 0, optics = 0;  // an optical link takes two optics
};

struct Layout {
  std::vector<DesignedDevice> devices;  // spines, then leaves (pod by pod, rail by rail), then servers
  std::vector<DesignedLink> links;      // server cables (pod, rail, server), then uplinks (leaf, spine)
  Sizes sizes;
};

/// The most cables a design makes: what links.yaml can hold within the reader's 64 MiB a file.
inline constexpr int64_t kMaxCables = 600'000;

/// The fabric at `hosts` servers (the spec's own count unless growing). Every way the spec cannot be
/// built (too few ports, names that collide, addresses that run out) goes to `diags` at the spec's
/// value that decides it; nullopt if there was any.
std::optional<Layout> lay_out(const RailSpec& spec, int64_t hosts, Diags& diags);

/// The servers of a pod: leaves.pod_hosts, else half the radix over a server's NICs on one rail (1:1 at
/// equal speeds); 0 when the spec's rails do not divide its NICs.
int64_t pod_hosts(const RailSpec& spec);

/// What `after` changes of what `before` has (a device, port or cable gone or different), one line a
/// change, at most `max` lines. Empty: `after` only adds.
std::vector<std::string> growth_changes(const Layout& before, const Layout& after, size_t max);

}  // namespace fabricctl::design

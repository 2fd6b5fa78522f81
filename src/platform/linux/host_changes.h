// What `fabricctl host apply` changes on a Linux host: the desired NIC state (nic-state.json, nic_state.h)
// against what the host shows (the DeviceObserved `host collect` reads), as a list of changes, each with
// the line a network engineer would type for it (iproute2 `ip`/`dcb`, `echo V > /sys/...`). Pure: the
// controller's plan (linux/apply.cpp) and the host's apply (ops/host_apply.cpp) compute the same list.
//
// Only what differs is changed; what the host did not report (an absent optional) counts as different, so
// the list is complete: once applied, collection finds the desired state. Volatile state (oper state,
// LLDP, counters, GIDs, speed) is never compared.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <string>
#include <vector>

#include "platform/linux/dcb_state.h"
#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::linux_host {

enum class ChangeKind {
  mtu,      // netdev MTU, through rtnetlink (RTM_NEWLINK IFLA_MTU)
  dcb_ets,  // DCB_CMD_IEEE_SET with DCB_ATTR_IEEE_ETS
  dcb_pfc,  // DCB_CMD_IEEE_SET with DCB_ATTR_IEEE_PFC
  dcb_app,  // the DSCP app table: IEEE_SET of the entries that are missing, IEEE_DEL of the ones not desired
  file,     // one sysfs/configfs attribute written with `value`
  nccl,     // fabricctl's NAME=value lines in /etc/nccl.conf replaced, every other line kept
};

struct HostChange {
  ChangeKind kind = ChangeKind::file;
  std::string netdev;                  // the port; "" for the host-wide NCCL defaults
  std::string line;                    // as typed: `ip link set dev ens1f0np0 mtu 9000`
  std::string what;                    // for errors: "MTU", "DCB PFC", "DCQCN roce_np/enable/3"
  int mtu = 0;                         // mtu: bytes
  DcbEts ets;                          // dcb_ets: prio_tc, tc_tsa, tc_tx_bw
  std::array<bool, kDcbMaxTcs> pfc{};  // dcb_pfc: PFC per priority
  int pfc_delay = 0;                   // dcb_pfc: mlx5 cable length, metres
  std::vector<DcbApp> apps;            // dcb_app: the whole desired DSCP table (empty: trust PCP)
  std::string path;                    // file: absolute host path, "/sys/..." (under --root when applied)
  std::string value;                   // file: the value written; nccl: the NAME=value lines, '\n' ended
};

/// The changes that bring `observed` to `nic_state`, in a fixed order: per port in the document's order
/// MTU, ETS, PFC, app table, DCQCN files, RoCE ToS files; then nccl.conf. Error: the document is not a
/// nic-state.json (schema, shape, a value out of range), or a port it names was not read at all.
Expected<std::vector<HostChange>> host_changes(const nlohmann::ordered_json& nic_state, const DeviceObserved& observed);

/// The change lines, one per line, each ending in '\n' ("" for no change).
std::string change_text(const std::vector<HostChange>& changes);

/// The configuration `changes` is computed against, as canonical text (its hash pins a plan): per port
/// its MTU, DCB, DCQCN, RoCE ToS, and the NCCL defaults; no oper state, LLDP, counters, GIDs or speed.
std::string observed_config_text(const DeviceObserved& observed);

}  // namespace fabricctl::linux_host

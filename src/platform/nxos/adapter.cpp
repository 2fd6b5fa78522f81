// Cisco NX-OS's row of the platform table (platform/platform.h).
#include "platform/nxos/config.h"
#include "platform/platform.h"

namespace fabricctl {
namespace {

/// The index-th front-panel port, unbroken out: NX-OS numbers slot 1, ports from 1 (Ethernet1/1).
std::string nth_port(int index) { return "Ethernet1/" + std::to_string(index + 1); }

/// The desired blocks as data ([line, [children...]] each), built once per device and printed by
/// config.cfg: a document, as the other platforms' data artifacts have.
Document blocks_document(const nxos::Config& blocks) {
  Document out = Document::array();
  for (const nxos::ConfigBlock& b : blocks) out.push_back(Document::array({b.line, blocks_document(b.children)}));
  return out;
}

Document document(const DeviceDesired& device) { return blocks_document(nxos::desired_config(device)); }

void print(const Document& blocks, int depth, std::string& out) {
  for (const Document& b : blocks) {
    out.append(static_cast<size_t>(depth) * 2, ' ');
    out += b[0].get_ref<const std::string&>();
    out += '\n';
    print(b[1], depth + 1, out);
  }
}

/// config.cfg: the desired blocks as `show running-config` prints them, under a comment line.
std::string config_cfg(const DeviceDesired& device, const Document& blocks) {
  std::string out = "!fabricctl: " + device.name + " profile " + device.profile + "\n";
  print(blocks, 0, out);
  return out;
}

}  // namespace

PlatformAdapter nxos_adapter() {
  return {
      .traits =
          {
              .platform = Platform::nxos,
              .role = Role::switch_,
              .mtu_min = 576,
              .mtu_max = 9216,  // the IP packet, as Linux counts it (docs/reference-nxos.md A.1; UNCONFIRMED)
              .port_pattern = R"(Ethernet[0-9]{1,2}/[0-9]{1,3}(/[0-9]{1,2})?)",
              .port_example = "Ethernet1/1",
              .nth_port = nth_port,
              .watchdog_actions = {WatchdogAction::drop},
              .trust_modes = {Trust::dscp, Trust::pcp},
              .priority_is_queue = true,
              .ecn_unit_bytes = 1024,
              .watchdog_in_poll_intervals = true,
              // shutdown-multiplier 1-10, auto-restore multiplier 0-100 (UNCONFIRMED ranges,
              // docs/reference-nxos.md A.2; the emulator and the reader hold the same).
              .watchdog_max_detection_polls = 10,
              .watchdog_max_restoration_polls = 100,
          },
      .document = document,
      .artifacts = {ArtifactSpec::from_data("config.cfg", config_cfg)},
      .fix = nxos_fix,
      .collector = nxos_collector(),
      .applier = nxos_applier(),
  };
}

}  // namespace fabricctl

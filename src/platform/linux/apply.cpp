// Linux host write side. The controller computes the change from the snapshot `host collect` printed
// (linux/collect.cpp) and the host's desired NIC state; the host makes it itself, with the same diff
// (linux/host_changes.h) over what it reads at that moment:
//
//   stage     FABRICCTL host apply --device N --transaction ID --confirm-timeout S   (stdin: nic-state.json)
//               writes the rollback record (previous values), arms the revert timer (a detached
//               `host rollback --transaction ID --after S`), then changes what differs; a failure
//               midway restores what it changed and exits non-zero
//   confirm   FABRICCTL host confirm --transaction ID      stops the timer, drops the record
//   rollback  FABRICCTL host rollback --transaction ID     restores the record's values now (none: a no-op)
//
// Nothing a Linux host changes this way survives a reboot (netlink and sysfs state is the kernel's; only
// nccl.conf is a file): persistence is apply.sh's or the host's provisioning's job (docs/transactions-linux.md).
#include "platform/linux/host_changes.h"
#include "platform/platform.h"
#include "state/snapshot.h"
#include "util/escape.h"
#include "util/names.h"

namespace fabricctl {
namespace {

constexpr std::string_view kHostCollect = "host-collect.json";

Expected<NativeChange> change(const DeviceDesired& device, const RawOutputs& raw) {
  const auto it = raw.find(kHostCollect);
  if (it == raw.end()) return unexpected("no " + std::string(kHostCollect) + " was collected");
  auto observed = parse_snapshot(it->second);
  if (!observed) return unexpected("fabricctl host collect printed no snapshot: " + observed.error());
  if (observed->name != device.name)
    return unexpected("fabricctl host collect answered for device \"" + terminal_line(observed->name) + "\", not " +
                      device.name);
  const Document state = linux_nic_state(device);
  auto changes = linux_host::host_changes(state, *observed);
  if (!changes) return unexpected(changes.error());
  NativeChange c;
  c.text = linux_host::change_text(*changes);
  c.payload = linux_nic_state_json(device, state);
  c.base = linux_host::observed_config_text(*observed);
  return c;
}

TransactionSteps steps(const DeviceDesired& device, const NativeChange& change, const TransactionId& id) {
  TransactionSteps s;
  if (change.empty()) return s;
  // The inventory checked these already; a value that fails here is a bug, and must not run.
  const bool ok = valid_program_path(id.fabricctl) && valid_device_name(device.name) &&
                  id.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789T-") == std::string::npos &&
                  !id.name.empty();
  const std::string fc = ok ? shell_quote(id.fabricctl) : "false";
  const std::string tx = " --transaction " + shell_quote(id.name);
  const std::string timeout = std::to_string(std::max(1, id.confirm_timeout_s));
  s.stage.push_back(
      {"apply the NIC state with the host's revert timer armed for " + timeout + " s",
       ok ? fc + " host apply --device " + shell_quote(device.name) + tx + " --confirm-timeout " + shell_quote(timeout)
          : "false",
       change.payload});
  s.confirm.push_back({"confirm (stops the host's revert timer)", ok ? fc + " host confirm" + tx : "false", ""});
  s.rollback.push_back({"restore the previous NIC state now", ok ? fc + " host rollback" + tx : "false", ""});
  return s;
}

}  // namespace

Applier linux_applier() {
  Applier a;
  a.change_file = "changes.txt";
  a.transaction = "host apply with a revert timer, confirm after verify";
  a.change = change;
  a.steps = steps;
  a.failure = exit_status_failure;
  return a;
}

}  // namespace fabricctl

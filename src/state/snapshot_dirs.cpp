#include "state/snapshot_dirs.h"

#include "util/escape.h"
#include "util/names.h"

namespace fabricctl {

namespace fs = std::filesystem;

namespace {

std::string listed(const std::vector<fs::path>& dirs) {
  std::string s;
  for (size_t i = 0; i < dirs.size(); ++i)
    s += (i == 0 ? "" : i + 1 == dirs.size() ? " and " : ", ") + dirs[i].string();
  return terminal_line(s);
}

}  // namespace

SnapshotSet read_snapshot_dirs(const std::vector<fs::path>& dirs, const std::vector<std::string>& expected_devices,
                               const std::vector<std::string>& inventory_devices) {
  if (dirs.size() == 1) return read_snapshot_dir(dirs.front(), expected_devices, inventory_devices);
  SnapshotSet out;
  std::vector<std::vector<std::string>> by_dir(dirs.size());
  for (const std::string& device : expected_devices) {
    std::vector<fs::path> holders;
    std::vector<size_t> at;
    if (!valid_device_name(device)) {
      by_dir.front().push_back(device);  // read_snapshot_dir says why no file can hold it
      continue;
    }
    for (size_t i = 0; i < dirs.size(); ++i) {
      std::error_code ec;
      // Any entry of that name counts: a link or a directory there is read_snapshot_dir's to refuse.
      if (fs::symlink_status(dirs[i] / (device + ".json"), ec).type() != fs::file_type::not_found && !ec) {
        holders.push_back(dirs[i]);
        at.push_back(i);
      }
    }
    if (holders.size() == 1) {
      by_dir[at.front()].push_back(device);
    } else if (holders.empty()) {
      out.observed.record_failure(
          {device, FailureStage::snapshot, "no snapshot file " + device + ".json in " + listed(dirs)});
    } else {
      out.observed.record_failure({device, FailureStage::snapshot,
                                   "snapshot files in " + listed(holders) + ": which is current cannot be told"});
    }
  }
  for (size_t i = 0; i < dirs.size(); ++i) {
    SnapshotSet one = read_snapshot_dir(dirs[i], by_dir[i], inventory_devices);
    for (auto& [name, device] : one.observed.devices) out.observed.devices.insert_or_assign(name, std::move(device));
    for (auto& [name, failure] : one.observed.failures) out.observed.record_failure(std::move(failure));
    for (std::string& w : one.warnings) out.warnings.push_back(std::move(w));
  }
  return out;
}

}  // namespace fabricctl

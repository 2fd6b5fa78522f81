// The filesystem side of `fabricctl design`: reading what a design wrote before (for --grow and
// --check), and writing a new inventory directory as a whole or not at all (staged beside it, then
// renamed in; a grown one swapped in with one rename).
#pragma once

#include <filesystem>
#include <memory>

#include "design/inventory_text.h"
#include "util/expected.h"

namespace fabricctl::design {

/// The inventory files (*.yaml, *.yml) of `dir`, by name, each at most 64 MiB; other entries are not
/// read. The error is one message naming the path.
Expected<InventoryFiles> read_inventory_dir(const std::filesystem::path& dir);

/// A directory of inventory files being written: STAGE beside DIR, moved into place by commit().
class StagedInventory {
 public:
  /// `replace`: DIR exists and is swapped out whole (--grow); else DIR must not exist, or be empty.
  static Expected<std::unique_ptr<StagedInventory>> open(const std::filesystem::path& dir, bool replace);
  ~StagedInventory();
  StagedInventory(const StagedInventory&) = delete;
  StagedInventory& operator=(const StagedInventory&) = delete;

  Expected<void> write(const InventoryFiles& files) const;
  /// Where the files are until commit(): what the caller validates.
  [[nodiscard]] const std::filesystem::path& stage() const { return stage_; }
  /// Makes the files durable and renames the stage into DIR (exchanging it with the old DIR).
  Expected<void> commit();

 private:
  StagedInventory(std::filesystem::path dir, std::filesystem::path stage, bool replace)
      : dir_(std::move(dir)), stage_(std::move(stage)), replace_(replace) {}
  std::filesystem::path dir_, stage_;
  bool replace_ = false;
  bool committed_ = false;
};

}  // namespace fabricctl::design

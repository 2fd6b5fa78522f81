#include "design/inventory_dir.h"

#include <fcntl.h>
#include <stdio.h>  // renameat2
#include <unistd.h>

#include <cerrno>

#include "model/yaml_reader.h"
#include "util/diag.h"
#include "util/file_io.h"

namespace fabricctl::design {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kStagePrefix = ".fabricctl-design-";

}  // namespace

Expected<InventoryFiles> read_inventory_dir(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return unexpected(display_path(dir) + ": no such directory");
  Diags diags;
  const auto paths = yaml_files_in(dir, diags);  // the files the inventory loader reads
  if (!paths) return unexpected(diags.sorted().front().str());
  InventoryFiles files;
  for (const fs::path& p : *paths) {
    auto text = read_regular_file(p, {.max_bytes = kMaxYamlBytes, .what = "inventory file"});
    if (!text) return unexpected(text.error().message);
    files.emplace(p.filename().string(), std::move(text.value()));
  }
  return files;
}

Expected<std::unique_ptr<StagedInventory>> StagedInventory::open(const fs::path& dir, bool replace) {
  std::error_code ec;
  const bool exists = fs::exists(dir, ec);
  if (replace && !fs::is_directory(dir, ec)) return unexpected(display_path(dir) + ": no such directory");
  if (!replace && exists && (!fs::is_directory(dir, ec) || !fs::is_empty(dir, ec)))
    return unexpected(display_path(dir) + ": exists and is not an empty directory (--grow extends a designed one)");
  const fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  fs::create_directories(parent, ec);
  if (ec) return unexpected(display_path(parent) + ": cannot create: " + ec.message());
  fs::path stage = parent / (std::string(kStagePrefix) + std::to_string(::getpid()) + "-" + dir.filename().string());
  fs::remove_all(stage, ec);
  if (!fs::create_directory(stage, ec) || ec)
    return unexpected(display_path(stage) + ": cannot create: " + (ec ? ec.message() : "it exists"));
  return std::unique_ptr<StagedInventory>(new StagedInventory(dir, std::move(stage), exists));
}

StagedInventory::~StagedInventory() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(stage_, ec);
}

Expected<void> StagedInventory::write(const InventoryFiles& files) const {
  for (const auto& [name, text] : files)
    if (auto ok = write_new_file(stage_ / name, text, {.sync = false}); !ok) return ok;
  return {};
}

Expected<void> StagedInventory::commit() {
  if (auto synced = sync_filesystem(stage_); !synced) return synced;
  std::error_code ec;
  if (!replace_) {
    // An empty DIR (or none): rename(2) replaces an empty directory.
    if (::rename(stage_.c_str(), dir_.c_str()) != 0)
      return unexpected(display_path(dir_) + ": cannot write: " + errno_text(errno));
    committed_ = true;
    return {};
  }
  // One rename swaps the two directories: DIR is never missing or half written.
  if (::renameat2(AT_FDCWD, stage_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) != 0)
    return unexpected(display_path(dir_) + ": cannot replace: " + errno_text(errno));
  committed_ = true;
  fs::remove_all(stage_, ec);  // now the previous inventory
  return {};
}

}  // namespace fabricctl::design

#include "render/staged_output.h"

#include <sys/stat.h>
#include <unistd.h>

#include "render/render.h"
#include "util/diag.h"
#include "util/file_io.h"

namespace fabricctl {
namespace {

namespace fs = std::filesystem;

constexpr const char* kMarker = ".fabricctl-render";

// Files are written into a fresh staging directory that nothing reads until it is renamed into
// place, so each file is created under its own name (no temporary name and rename) and skips its own
// fsync; one syncfs before the rename makes them all durable (one call instead of one per file: a
// large fabric renders tens of thousands of files). Each file's writeback starts as soon as it is
// written, so that syncfs does not write ~1 GB at the end.
Expected<void> write_staged(const fs::path& p, const std::string& content, bool executable) {
  return write_new_file(p, content,
                        {.mode = executable ? mode_t{0755} : mode_t{0644}, .sync = false, .start_writeback = true});
}

}  // namespace

Expected<std::unique_ptr<StagedOutput>> StagedOutput::open(const fs::path& out) {
  std::error_code ec;
  fs::path target = out.lexically_normal();
  if (target.filename().empty()) target = target.parent_path();  // "out/" names the directory "out"
  if (fs::exists(target, ec)) {
    if (!fs::is_directory(target, ec)) return unexpected(quote(target.string()) + " exists and is not a directory");
    const bool empty = fs::is_empty(target, ec);
    if (!empty && !fs::exists(target / kMarker, ec))
      return unexpected("refusing to replace " + quote(target.string()) +
                        ": it is not empty and does not hold a previous fabricctl render (" + kMarker + ")");
  }
  fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  fs::create_directories(parent, ec);
  if (ec) return unexpected("cannot create " + quote(parent.string()) + ": " + ec.message());
  fs::path stage = parent / (".fabricctl-stage-" + std::to_string(::getpid()) + "-" + target.filename().string());
  fs::remove_all(stage, ec);
  fs::create_directories(stage, ec);
  if (ec) return unexpected("cannot create " + quote(stage.string()) + ": " + ec.message());
  std::unique_ptr<StagedOutput> staged(new StagedOutput(std::move(target), std::move(parent), std::move(stage)));
  const Expected<void> marked =
      write_staged(staged->stage_ / kMarker,
                   "This directory is written by `fabricctl render`; it is replaced on every run.\n", false);
  if (!marked)
    return unexpected("cannot write rendered files under " + quote(staged->stage_.string()) + ": " + marked.error());
  return staged;
}

StagedOutput::~StagedOutput() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(stage_, ec);
}

Expected<void> StagedOutput::write(const RenderedDevice& d) const {
  // The staging directory is new and device names are unique: the device's directory cannot exist.
  const fs::path dir = stage_ / d.device;
  Expected<void> ok;
  if (::mkdir(dir.c_str(), 0755) != 0) ok = unexpected(display_path(dir) + ": cannot create: " + errno_text(errno));
  for (size_t j = 0; j < d.artifacts.size() && ok; ++j) {
    const Artifact& a = d.artifacts[j];
    ok = write_staged(dir / a.file, a.content, a.file.ends_with(".sh"));
  }
  if (!ok) return unexpected("cannot write rendered files under " + quote(stage_.string()) + ": " + ok.error());
  return {};
}

Expected<void> StagedOutput::commit() {
  if (auto synced = sync_filesystem(stage_); !synced)
    return unexpected("cannot write rendered files under " + quote(stage_.string()) + ": " + synced.error());
  // Swap in: move the old render aside, rename the new one, then delete the old one.
  std::error_code ec;
  const fs::path old = parent_ / (".fabricctl-old-" + std::to_string(::getpid()) + "-" + target_.filename().string());
  const bool had_old = fs::exists(target_, ec);
  if (had_old) {
    fs::rename(target_, old, ec);
    if (ec) return unexpected("cannot replace " + quote(target_.string()) + ": " + ec.message());
  }
  fs::rename(stage_, target_, ec);
  if (ec) {
    const std::string msg = ec.message();
    if (had_old) fs::rename(old, target_, ec);
    return unexpected("cannot move the render into " + quote(target_.string()) + ": " + msg);
  }
  committed_ = true;
  if (had_old) fs::remove_all(old, ec);
  return {};
}

}  // namespace fabricctl

#include "render/staged_output.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <string_view>

#include "render/render.h"
#include "render/stop_signals.h"
#include "util/diag.h"
#include "util/file_io.h"

namespace fabricctl {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kStagePrefix = ".fabricctl-stage-";  // .fabricctl-stage-<pid>-<name of OUT>
constexpr std::string_view kOldPrefix = ".fabricctl-old-";      // the previous OUT, mid-swap (no RENAME_EXCHANGE)

// Files are written into a fresh staging directory that nothing reads until it is renamed into
// place, so each file is created under its own name (no temporary name and rename) and skips its own
// fsync; one syncfs before the rename makes them all durable (one call instead of one per file: a
// large fabric renders tens of thousands of files). Each file's writeback starts as soon as it is
// written, so that syncfs does not write ~1 GB at the end.
Expected<void> write_staged(const fs::path& p, const std::string& content, bool executable) {
  return write_new_file(p, content,
                        {.mode = executable ? mode_t{0755} : mode_t{0644}, .sync = false, .start_writeback = true});
}

/// `dir` is the current directory or one that holds it: replacing it would leave the shell in a
/// deleted directory (and rename(2) refuses ".").
bool holds_current_directory(const fs::path& dir) {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  if (ec) return false;
  const fs::path canonical = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  if (ec) return false;
  const fs::path inside = cwd.lexically_relative(canonical);
  return !inside.empty() && *inside.begin() != "..";
}

/// The pid of ".fabricctl-stage-<pid>-<name>" (or kOldPrefix), or 0 when `entry` is not one of OUT's.
pid_t stale_pid(std::string_view entry, std::string_view prefix, std::string_view name) {
  if (!entry.starts_with(prefix) || entry.size() < prefix.size() + name.size() + 2 || !entry.ends_with(name)) return 0;
  const std::string_view digits = entry.substr(prefix.size(), entry.size() - prefix.size() - name.size() - 1);
  if (entry[prefix.size() + digits.size()] != '-' || digits.empty() || digits.size() > 9) return 0;
  pid_t pid = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return 0;
    pid = pid * 10 + (c - '0');
  }
  return pid;
}

/// Removes what renders of `name` killed before they finished left in `parent`: staging directories
/// (and, in the middle of the two-rename swap, the previous OUT moved aside, once OUT is back). One is
/// left behind when no process holds its lock and its pid is gone: a live render holds the lock, and a
/// pid that is alive may be a render of an older version that takes no lock.
void remove_stale(const fs::path& parent, const std::string& name, bool target_exists) {
  std::error_code ec;
  std::vector<fs::path> stale;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string entry = it->path().filename().string();
    pid_t pid = stale_pid(entry, kStagePrefix, name);
    if (pid == 0 && target_exists) pid = stale_pid(entry, kOldPrefix, name);
    if (pid == 0 || pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
    stale.push_back(it->path());
  }
  for (const fs::path& dir : stale) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) fs::remove_all(dir, ec);
    ::close(fd);
  }
}

/// Whether `out` holds nothing but regular files and directories (never a link) that `accepts` takes
/// by name, one of them `required`: the shape of an earlier release's output, before its marker.
bool only_entries(const fs::path& out, std::string_view required, bool (*accepts)(std::string_view name, bool dir)) {
  std::error_code ec;
  bool found = false;
  for (fs::directory_iterator it(out, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool dir = it->is_directory(ec);
    if (it->is_symlink(ec) || !(dir || it->is_regular_file(ec)) || !accepts(name, dir)) return false;
    found = found || name == required;
  }
  return !ec && found;
}

/// What a live collect wrote before it marked its output: `<device>.json` files and raw/, nothing else
/// (docs/collect.md). Without raw/ it could be a directory of snapshots gathered by hand (the hosts'),
/// which is not fabricctl's to delete.
bool earlier_collect(const fs::path& out) {
  return only_entries(out, "raw",
                      [](std::string_view name, bool dir) { return dir ? name == "raw" : name.ends_with(".json"); });
}

/// What `plan --out` saved before it marked its output: the file plan.json and a directory per device
/// that changes (docs/cli.md), nothing else.
bool earlier_plan(const fs::path& out) {
  return only_entries(out, "plan.json", [](std::string_view name, bool dir) { return dir != (name == "plan.json"); });
}

}  // namespace

const OutputKind kRenderOutput{"render", "rendered files", kRenderMarker, nullptr};
const OutputKind kCollectOutput{"collect", "snapshots", ".fabricctl-collect", earlier_collect};
const OutputKind kPlanOutput{"plan", "the plan", ".fabricctl-plan", earlier_plan};

Expected<std::unique_ptr<StagedOutput>> StagedOutput::open(const fs::path& out, const OutputKind& kind) {
  const std::string verb = kind.command;
  const std::string marker = kind.marker;
  std::error_code ec;
  fs::path target = out.lexically_normal();
  if (target.filename().empty()) target = target.parent_path();  // "out/" names the directory "out"
  if (target.empty()) return unexpected(std::string("no output directory given"));
  if (holds_current_directory(target))
    return unexpected("refusing to " + verb + " into " + quote(out.string()) +
                      ": it is the current directory or holds it, and a " + verb +
                      " replaces its output directory whole; give a directory below it, e.g. --out out");
  const bool target_exists = fs::exists(target, ec);
  if (target_exists) {
    if (!fs::is_directory(target, ec)) return unexpected(quote(target.string()) + " exists and is not a directory");
    const bool empty = fs::is_empty(target, ec);
    if (!empty && !fs::exists(target / marker, ec) && !(kind.earlier_run && kind.earlier_run(target)))
      return unexpected("refusing to replace " + quote(target.string()) +
                        ": it is not empty and does not hold a previous fabricctl " + verb + " (" + marker + ")");
  }
  fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  fs::create_directories(parent, ec);
  if (ec) return unexpected("cannot create " + quote(parent.string()) + ": " + ec.message());
  const std::string name = target.filename().string();
  remove_stale(parent, name, target_exists);
  fs::path stage = parent / (std::string(kStagePrefix) + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(stage, ec);
  fs::create_directories(stage, ec);
  if (ec) return unexpected("cannot create " + quote(stage.string()) + ": " + ec.message());
  const int lock = ::open(stage.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
  if (lock < 0 || ::flock(lock, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    if (lock >= 0) ::close(lock);
    fs::remove_all(stage, ec);
    return unexpected("cannot lock " + quote(stage.string()) + ": " + errno_text(error));
  }
  std::unique_ptr<StagedOutput> staged(
      new StagedOutput(std::move(target), std::move(parent), std::move(stage), lock, kind));
  const Expected<void> marked =
      write_staged(staged->stage_ / marker,
                   "This directory is written by `fabricctl " + verb + "`; it is replaced on every run.\n", false);
  if (!marked)
    return unexpected("cannot write " + std::string(kind.files) + " under " + quote(staged->stage_.string()) + ": " +
                      marked.error());
  return staged;
}

StagedOutput::~StagedOutput() {
  if (!committed_) {
    std::error_code ec;
    fs::remove_all(stage_, ec);
  }
  ::close(lock_);  // after the removal: unlocked, it would look abandoned to another render
}

Expected<void> StagedOutput::write(const RenderedDevice& d) const {
  // The staging directory is new and device names are unique: the device's directory cannot exist.
  const fs::path dir = stage_ / d.device;
  Expected<void> ok;
  if (::mkdir(dir.c_str(), 0755) != 0) ok = unexpected(display_path(dir) + ": cannot create: " + errno_text(errno));
  for (size_t j = 0; j < d.artifacts.size() && ok; ++j) {
    const Artifact& a = d.artifacts[j];
    ok = write_staged(dir / a.file, a.content, artifact_executable(a.file));
  }
  if (!ok) return unexpected("cannot write rendered files under " + quote(stage_.string()) + ": " + ok.error());
  return {};
}

Expected<void> StagedOutput::commit() {
  if (auto synced = sync_filesystem(stage_); !synced)
    return unexpected("cannot write " + std::string(kind_->files) + " under " + quote(stage_.string()) + ": " +
                      synced.error());
  if (stop_requested()) return unexpected(std::string(kInterrupted));
  std::error_code ec;
  const bool had_old = fs::exists(target_, ec);
  // One rename swaps the two trees: OUT is never missing, and the previous render ends up under the
  // staging name, locked, to be deleted.
  if (had_old && ::renameat2(AT_FDCWD, stage_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) == 0) {
    committed_ = true;
    fs::remove_all(stage_, ec);
    return {};
  }
  if (had_old && errno != EINVAL && errno != ENOSYS)  // ENOSYS, EINVAL: the file system cannot exchange
    return unexpected("cannot replace " + quote(target_.string()) + ": " + errno_text(errno));
  // Move the old render aside, rename the new one, then delete the old one.
  const fs::path old =
      parent_ / (std::string(kOldPrefix) + std::to_string(::getpid()) + "-" + target_.filename().string());
  if (had_old) {
    fs::rename(target_, old, ec);
    if (ec) return unexpected("cannot replace " + quote(target_.string()) + ": " + ec.message());
  }
  fs::rename(stage_, target_, ec);
  if (ec) {
    const std::string msg = ec.message();
    if (had_old) fs::rename(old, target_, ec);
    return unexpected("cannot move the " + std::string(kind_->command) + " into " + quote(target_.string()) + ": " +
                      msg);
  }
  committed_ = true;
  if (had_old) fs::remove_all(old, ec);
  return {};
}

}  // namespace fabricctl

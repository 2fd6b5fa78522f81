#include "render/render_check.h"

#include <sys/stat.h>

#include <map>

#include "util/diag.h"
#include "util/file_io.h"
#include "util/text.h"

namespace fabricctl {

namespace fs = std::filesystem;

namespace {

// A rendered file is at most what one template may render (template_limits.h: 64 MiB), and a data
// artifact of a 3,200-port spine is ~10 MB: a larger file in OUT is not a render of ours.
constexpr size_t kMaxRenderedFile = size_t{64} << 20;

}  // namespace

std::string_view to_string(StaleFile::Why why) {
  switch (why) {
    case StaleFile::Why::modified: return "modified";
    case StaleFile::Why::missing: return "missing";
    case StaleFile::Why::extra: return "extra";
  }
  return "modified";
}

Expected<std::vector<StaleFile>> check_rendered(const std::vector<RenderedDevice>& rendered, const fs::path& out) {
  std::error_code ec;
  if (!fs::is_directory(out, ec)) return unexpected(quote(out.string()) + " is not a directory: nothing to check");
  if (!fs::exists(out / kRenderMarker, ec))
    return unexpected(quote(out.string()) + " does not hold a fabricctl render (no " + kRenderMarker + ")");
  std::map<std::string, const Artifact*, NaturalLess> want;
  for (const RenderedDevice& d : rendered)
    for (const Artifact& a : d.artifacts) want[d.device + "/" + a.file] = &a;

  std::map<std::string, StaleFile::Why, NaturalLess> stale;
  std::map<std::string, bool, NaturalLess> seen;
  // What OUT holds: regular files two levels down (DEVICE/FILE); anything else is extra.
  for (auto it = fs::recursive_directory_iterator(out, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const fs::path rel = it->path().lexically_relative(out);
    const std::string name = rel.generic_string();
    if (name == kRenderMarker) continue;
    if (it->is_directory(ec) && !it->is_symlink(ec)) {
      if (it.depth() >= 1) stale[name] = StaleFile::Why::extra;  // a directory inside a device's
      continue;
    }
    const auto w = want.find(name);
    if (w == want.end()) {
      stale[name] = StaleFile::Why::extra;
      continue;
    }
    seen[name] = true;
    const auto text = read_regular_file(it->path(), {kMaxRenderedFile, "rendered file"});
    if (!text) {
      if (text.error().kind == FileError::Kind::io) return unexpected(text.error().message);
      stale[name] = StaleFile::Why::modified;  // a link, a FIFO, or too large: not what render writes
      continue;
    }
    struct stat st {};
    const bool exec = ::stat(it->path().c_str(), &st) == 0 && (st.st_mode & S_IXUSR) != 0;
    if (*text != w->second->content || exec != artifact_executable(w->second->file))
      stale[name] = StaleFile::Why::modified;
  }
  if (ec) return unexpected(display_path(out) + ": cannot read: " + errno_text(ec.value()));
  for (const auto& [name, a] : want)
    if (!seen.count(name)) stale[name] = StaleFile::Why::missing;
  std::vector<StaleFile> result;
  result.reserve(stale.size());
  for (const auto& [name, why] : stale) result.push_back({name, why});
  return result;
}

}  // namespace fabricctl

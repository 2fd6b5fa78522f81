#include "render/render.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include "platform/platform.h"
#include "render/template_set.h"
#include "util/file_io.h"
#include "util/parallel.h"

namespace fabricctl {
namespace {

constexpr const char* kMarker = ".fabricctl-render";

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Files are written into a fresh staging directory that nothing reads until it is renamed into
// place, so each file skips its own fsync; one syncfs before the rename makes them all durable
// (one call instead of one per file: a large fabric renders tens of thousands of files).
Expected<void> write_staged(const std::filesystem::path& p, const std::string& content, bool executable) {
  return write_file_atomic(p, content, {executable ? mode_t{0755} : mode_t{0644}, false});
}

}  // namespace

std::optional<RenderedDevice> render_device(const DeviceDesired& device, TemplateCache& templates, Diags& diags) {
  const PlatformAdapter& a = adapter(device.platform);
  // The context is built once per device, and only when a template needs it.
  std::shared_ptr<const TemplateCache::Context> context;
  RenderedDevice out{device.name, device.platform, {}};
  bool ok = true;
  for (const ArtifactSpec& spec : a.artifacts) {
    if (spec.data) {
      // A dump of a JSON value the adapter built: valid JSON by construction, no template to read.
      out.artifacts.push_back({std::string(spec.file), spec.data(device)});
      continue;
    }
    if (!context) context = templates.context(a.context(device));
    const std::string relative = std::string(a.name()) + "/" + std::string(spec.template_name);
    auto content = templates.render(relative, *context, diags);
    if (!content) {
      ok = false;
      continue;
    }
    if (ends_with(spec.file, ".json") && nlohmann::json::parse(*content, nullptr, false).is_discarded()) {
      diags.error({std::make_shared<const std::string>(relative), 0, 0},
                  "template renders invalid JSON for device " + quote(device.name));
      ok = false;
      continue;
    }
    out.artifacts.push_back({std::string(spec.file), std::move(*content)});
  }
  if (!ok) return std::nullopt;
  return out;
}

std::vector<RenderedDevice> render_fabric(const FabricDesired& fabric, const std::filesystem::path& templates_dir,
                                          Diags& diags) {
  // Devices render independently: each thread has its own template cache and diagnostics (a broken
  // template is then reported by each thread; Diags drops the duplicates).
  const size_t n = fabric.devices.size();
  const size_t workers = worker_count(n, 8, 64);
  std::vector<std::unique_ptr<TemplateCache>> caches;
  for (size_t w = 0; w < workers; ++w) caches.push_back(std::make_unique<TemplateCache>(templates_dir));
  std::vector<Diags> worker_diags(workers);
  std::vector<std::optional<RenderedDevice>> rendered(n);
  parallel_for(n, workers, [&](size_t w, size_t i) {
    rendered[i] = render_device(fabric.devices[i], *caches[w], worker_diags[w]);
  });
  for (Diags& d : worker_diags) diags.append(std::move(d));
  std::vector<RenderedDevice> out;
  out.reserve(n);
  for (std::optional<RenderedDevice>& r : rendered)
    if (r) out.push_back(std::move(*r));
  return out;
}

Expected<void> write_rendered(const std::vector<RenderedDevice>& rendered, const std::filesystem::path& out) {
  namespace fs = std::filesystem;
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
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  fs::create_directories(parent, ec);
  if (ec) return unexpected("cannot create " + quote(parent.string()) + ": " + ec.message());
  const fs::path stage = parent / (".fabricctl-stage-" + std::to_string(::getpid()) + "-" + target.filename().string());
  fs::remove_all(stage, ec);
  fs::create_directories(stage, ec);
  if (ec) return unexpected("cannot create " + quote(stage.string()) + ": " + ec.message());
  Expected<void> ok = write_staged(
      stage / kMarker, "This directory is written by `fabricctl render`; it is replaced on every run.\n", false);
  for (size_t i = 0; i < rendered.size() && ok; ++i) {
    const RenderedDevice& d = rendered[i];
    fs::create_directories(stage / d.device, ec);
    if (ec) ok = unexpected(display_path(stage / d.device) + ": cannot create: " + ec.message());
    for (size_t j = 0; j < d.artifacts.size() && ok; ++j) {
      const Artifact& a = d.artifacts[j];
      ok = write_staged(stage / d.device / a.file, a.content, ends_with(a.file, ".sh"));
    }
  }
  if (ok) ok = sync_filesystem(stage);
  if (!ok) {
    fs::remove_all(stage, ec);
    return unexpected("cannot write rendered files under " + quote(stage.string()) + ": " + ok.error());
  }
  // Swap in: move the old render aside, rename the new one, then delete the old one.
  const fs::path old = parent / (".fabricctl-old-" + std::to_string(::getpid()) + "-" + target.filename().string());
  const bool had_old = fs::exists(target, ec);
  if (had_old) {
    fs::rename(target, old, ec);
    if (ec) {
      fs::remove_all(stage, ec);
      return unexpected("cannot replace " + quote(target.string()) + ": " + ec.message());
    }
  }
  fs::rename(stage, target, ec);
  if (ec) {
    const std::string msg = ec.message();
    if (had_old) fs::rename(old, target, ec);
    fs::remove_all(stage, ec);
    return unexpected("cannot move the render into " + quote(target.string()) + ": " + msg);
  }
  if (had_old) fs::remove_all(old, ec);
  return {};
}

}  // namespace fabricctl

#include "render/render.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <mutex>

#include "platform/platform.h"
#include "render/staged_output.h"
#include "render/stop_signals.h"
#include "render/template_set.h"
#include "util/parallel.h"

namespace fabricctl {

std::optional<RenderedDevice> render_device(const DeviceDesired& device, TemplateCache& templates, Diags& diags) {
  const PlatformAdapter& a = adapter(device.platform);
  // The document and the template context are built once per device, and the context only when a
  // template needs it.
  const Document document = document_of(a, device);
  std::shared_ptr<const TemplateCache::Context> context;
  RenderedDevice out{device.name, device.platform, {}};
  bool ok = true;
  for (const ArtifactSpec& spec : a.artifacts) {
    if (spec.data) {
      // A dump of a JSON value the adapter built: valid JSON by construction, no template to read.
      out.artifacts.push_back({std::string(spec.file), spec.data(device, document)});
      continue;
    }
    if (!context) context = templates.context(a.context(device, document));
    const std::string relative = std::string(a.name()) + "/" + std::string(spec.template_name);
    auto content = templates.render(
        relative, *context, [&] { return a.context(device, document); }, diags);
    if (!content) {
      ok = false;
      continue;
    }
    if (spec.file.ends_with(".json") && nlohmann::json::parse(*content, nullptr, false).is_discarded()) {
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

namespace {

/// Renders every device on the pool and hands each one that rendered to `take(index, device)`, on
/// the thread that rendered it; once `take` returns false, devices not yet started are skipped.
/// Each thread has its own template cache and diagnostics (a broken template is then reported by
/// each thread; Diags drops the duplicates), merged into `diags`.
template <class Take>
void render_each(const FabricDesired& fabric, const std::vector<std::filesystem::path>& template_dirs, Diags& diags,
                 Take take) {
  const size_t n = fabric.devices.size();
  const size_t workers = worker_count(n, 8, 64);
  std::vector<std::unique_ptr<TemplateCache>> caches;
  for (size_t w = 0; w < workers; ++w) caches.push_back(std::make_unique<TemplateCache>(template_dirs));
  std::vector<Diags> worker_diags(workers);
  std::atomic<bool> stopped{false};
  parallel_for(n, workers, [&](size_t w, size_t i) {
    if (stopped || stop_requested()) return;
    if (std::optional<RenderedDevice> r = render_device(fabric.devices[i], *caches[w], worker_diags[w]))
      if (!take(i, std::move(*r))) stopped = true;
  });
  for (Diags& d : worker_diags) diags.append(std::move(d));
}

}  // namespace

std::vector<RenderedDevice> render_fabric(const FabricDesired& fabric,
                                          const std::vector<std::filesystem::path>& template_dirs, Diags& diags) {
  std::vector<std::optional<RenderedDevice>> rendered(fabric.devices.size());
  render_each(fabric, template_dirs, diags, [&](size_t i, RenderedDevice&& r) {
    rendered[i] = std::move(r);
    return true;
  });
  std::vector<RenderedDevice> out;
  out.reserve(rendered.size());
  for (std::optional<RenderedDevice>& r : rendered)
    if (r) out.push_back(std::move(*r));
  return out;
}

Expected<void> write_rendered(const std::vector<RenderedDevice>& rendered, const std::filesystem::path& out) {
  auto staged = StagedOutput::open(out);
  if (!staged) return unexpected(staged.error());
  for (const RenderedDevice& d : rendered)
    if (auto written = (*staged)->write(d); !written) return written;
  return (*staged)->commit();
}

Expected<std::vector<RenderedFiles>> render_fabric_into(const FabricDesired& fabric,
                                                        const std::vector<std::filesystem::path>& template_dirs,
                                                        const std::filesystem::path& out, Diags& diags) {
  auto staged = StagedOutput::open(out);
  if (!staged) return unexpected(staged.error());
  std::vector<RenderedFiles> files(fabric.devices.size());
  std::mutex failure_mutex;
  std::optional<std::string> failure;  // the first write error; later devices are neither rendered nor written
  render_each(fabric, template_dirs, diags, [&](size_t i, RenderedDevice&& r) {
    if (stop_requested()) return false;
    {
      const std::lock_guard<std::mutex> lock(failure_mutex);
      if (failure) return false;
    }
    if (auto written = (*staged)->write(r); !written) {
      const std::lock_guard<std::mutex> lock(failure_mutex);
      if (!failure) failure = written.error();
      return false;
    }
    files[i] = {r.device, {}};
    for (const Artifact& a : r.artifacts) files[i].files.push_back(a.file);
    return true;
  });
  if (failure) return unexpected(*failure);
  if (stop_requested()) return unexpected(std::string(kInterrupted));
  if (!diags.empty()) return files;  // the staging directory goes; OUT stays as it was
  if (auto committed = (*staged)->commit(); !committed) return unexpected(committed.error());
  return files;
}

}  // namespace fabricctl

// Rendering desired state into per-device artifacts, and writing them for review.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "render/template_set.h"
#include "state/desired.h"
#include "util/diag.h"
#include "util/expected.h"

namespace fabricctl {

struct Artifact {
  std::string file;  // relative to the device's directory
  std::string content;
};

/// The file that marks a directory as a fabricctl render, which render may replace as a whole.
inline constexpr char kRenderMarker[] = ".fabricctl-render";

/// Whether an artifact is written executable: scripts (*.sh), so that `sh apply.sh` is not needed.
inline bool artifact_executable(std::string_view file) { return file.ends_with(".sh"); }

struct RenderedDevice {
  std::string device;
  Platform platform;
  std::vector<Artifact> artifacts;
};

/// Renders one device: data artifacts are the adapter's documents, dumped; text artifacts go through
/// <platform>/<file>.mustache of `templates`. Templated JSON artifacts are checked to parse, so a
/// broken user template is caught before anything is written.
std::optional<RenderedDevice> render_device(const DeviceDesired& device, TemplateCache& templates, Diags& diags);

/// Renders every device; reports every failure. `template_dirs` in order of precedence (site
/// directories first, the shipped one last): each template is read from the first that has it.
std::vector<RenderedDevice> render_fabric(const FabricDesired& fabric,
                                          const std::vector<std::filesystem::path>& template_dirs, Diags& diags);

/// What render_fabric_into wrote for one device.
struct RenderedFiles {
  std::string device;
  std::vector<std::string> files;  // relative to the device's directory
};

/// Renders every device straight into OUT, as write_rendered writes it (staged, swapped in whole),
/// on all cores: memory holds a few devices' files at a time, not the fabric's (~1 GB at R100k).
/// Template errors go to `diags` and leave OUT as it was, as does a write error (returned, one
/// lowercase message). Devices that rendered are listed in desired order. A SIGINT or SIGTERM while
/// StopSignals (render/stop_signals.h) is installed stops the render: the staging directory is
/// removed, OUT stays as it was, and the error is "interrupted".
Expected<std::vector<RenderedFiles>> render_fabric_into(const FabricDesired& fabric,
                                                        const std::vector<std::filesystem::path>& template_dirs,
                                                        const std::filesystem::path& out, Diags& diags);

/// Writes OUT/<device>/<file> for every artifact. The whole directory is replaced, so devices and
/// files that are no longer rendered disappear, and it is staged beside `out` and renamed into
/// place, so a failure leaves the previous output intact. An existing `out` is replaced only if
/// it holds a previous render (the marker file .fabricctl-render): fabricctl never deletes a
/// directory it did not write. Every file is written with write_file_atomic (util/file_io.h);
/// the error is one lowercase message.
Expected<void> write_rendered(const std::vector<RenderedDevice>& rendered, const std::filesystem::path& out);

}  // namespace fabricctl

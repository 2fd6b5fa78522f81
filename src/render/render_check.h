// `render --check`: is a committed render what the intent renders now? For a merge request that
// changed the intent but forgot to re-render (or edited a rendered file by hand).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "render/render.h"
#include "util/expected.h"

namespace fabricctl {

struct StaleFile {
  std::string path;  // DEVICE/FILE relative to OUT
  enum class Why { modified, missing, extra } why;
};

/// "modified", "missing" or "extra".
std::string_view to_string(StaleFile::Why why);

/// The files of `out` that differ from `rendered`, natural path order: modified (content, or the
/// executable bit an artifact needs), missing, or extra (in OUT but no longer rendered; the render
/// marker excepted). Empty when the render is current. The error: OUT does not exist, is not a
/// render, or a file cannot be read.
Expected<std::vector<StaleFile>> check_rendered(const std::vector<RenderedDevice>& rendered,
                                                const std::filesystem::path& out);

}  // namespace fabricctl

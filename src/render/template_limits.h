// Bounds on site templates, checked before kainjow sees them. kainjow parses and renders sections
// recursively and copies each section's text for every enclosing level, so 20,000 nested sections
// exhaust the stack and memory grows with the square of the depth; nested sections over the same
// list multiply the output. A template is code the site controls, but a typo or a hostile edit must
// still end in a located error, not a crash.
#pragma once

#include <cstddef>
#include <string>

#include "util/diag.h"

namespace fabricctl {

/// Largest template file, in bytes (1 MiB; the bundled ones are a few KB).
constexpr size_t kMaxTemplateBytes = size_t{1} << 20;
/// Deepest nesting of sections ({{#x}} and {{^x}}); the bundled templates use 3.
constexpr size_t kMaxTemplateDepth = 64;
/// Largest rendered artifact, in bytes (64 MiB; a 3,200-port SONiC spine renders a few MB).
/// Checked as kainjow hands over each line; it buffers one line whole, so this does not bound a
/// template that multiplies text without ever ending a line.
constexpr size_t kMaxRenderedBytes = size_t{64} << 20;

/// Checks `text` against kMaxTemplateBytes and kMaxTemplateDepth, following set-delimiter tags as
/// kainjow does. Reports the first violation as file:line:col (the tag that nests too deep) and
/// returns false. Unbalanced or malformed tags are left to kainjow's own parser.
bool check_template_limits(const std::string& text, const std::string& file, Diags& diags);

}  // namespace fabricctl

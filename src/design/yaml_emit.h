// Writes a YAML subtree back as YAML text, for what `fabricctl design` copies from its spec into the
// inventory (defaults.mgmt, groups). The copy reads back as the same tree to fabricctl's reader: the
// same mappings, lists and scalar texts, and null where the spec had null.
#pragma once

#include <string>

#include "model/yaml_node.h"

namespace fabricctl::design {

/// `node` as a block at `indent` spaces: a mapping or list on the lines after its key, a scalar on
/// the key's line (the caller writes "key:"). Ends with a newline.
void emit_yaml_value(const YamlNode& node, int indent, std::string& out);

/// A scalar as YAML writes it: plain when it reads back as the same text and not as null, else
/// double-quoted (YAML's \" \\ and \xNN escapes). `block`: a value on its own after "key:", where
/// plain text may hold spaces and commas; else one inside `{...}` or `[...]`.
std::string yaml_scalar(std::string_view text, bool block = false);

}  // namespace fabricctl::design

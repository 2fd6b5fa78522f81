#include "platform/json_patch.h"

#include "platform/json_object.h"

namespace fabricctl {

using nlohmann::ordered_json;

std::string json_pointer_token(std::string_view name) {
  std::string token;
  token.reserve(name.size());
  for (char ch : name) {
    // RFC 6901 section 3. One pass over the input, so an escape is never escaped again.
    if (ch == '~') token += "~0";
    else if (ch == '/') token += "~1";
    else token += ch;
  }
  return token;
}

std::vector<std::string> json_pointer_tokens(std::string_view pointer) {
  std::vector<std::string> out;
  if (pointer.empty() || pointer[0] != '/') return out;
  std::string token;
  for (size_t i = 1; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      out.push_back(token);
      token.clear();
    } else if (pointer[i] == '~' && i + 1 < pointer.size()) {
      token += pointer[++i] == '1' ? '/' : '~';  // "~1" is "/", "~0" is "~" (RFC 6901 section 4)
    } else {
      token += pointer[i];
    }
  }
  return out;
}

// Members are appended, not looked up: an operation is built once per changed entry (a spine's patch
// has tens of thousands).
ordered_json patch_op(std::string_view name, std::string path) {
  ordered_json o = ordered_json::object();
  append_member(o, "op", std::string(name));
  append_member(o, "path", std::move(path));
  return o;
}

ordered_json patch_op(std::string_view name, std::string path, const ordered_json& value) {
  ordered_json o = patch_op(name, std::move(path));
  append_member(o, "value", value);
  return o;
}

bool json_equal(const ordered_json& a, const ordered_json& b) {
  if (a.is_object() && b.is_object()) {
    if (a.size() != b.size()) return false;
    for (const auto& [key, value] : a.items()) {
      const auto it = b.find(key);
      if (it == b.end() || !json_equal(value, *it)) return false;
    }
    return true;
  }
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!json_equal(a[i], b[i])) return false;
    return true;
  }
  return a == b;
}

void append_json_diff(const ordered_json& base, const ordered_json& desired, const std::string& path, int depth,
                      ordered_json& ops) {
  if (depth <= 0 || !base.is_object() || !desired.is_object()) {
    if (!json_equal(base, desired)) ops.push_back(patch_op("replace", path, desired));
    return;
  }
  for (const auto& [key, value] : desired.items()) {
    std::string child = path + "/" + json_pointer_token(key);
    const auto it = base.find(key);
    if (it == base.end()) ops.push_back(patch_op("add", std::move(child), value));
    else append_json_diff(*it, value, child, depth - 1, ops);
  }
  for (const auto& [key, value] : base.items())
    if (!desired.contains(key)) ops.push_back(patch_op("remove", path + "/" + json_pointer_token(key)));
}

ordered_json json_diff(const ordered_json& base, const ordered_json& desired, int depth) {
  ordered_json ops = ordered_json::array();
  append_json_diff(base, desired, "", depth, ops);
  return ops;
}

std::optional<std::string> apply_json_patch(ordered_json& doc, const ordered_json& patch) {
  try {
    // patch() works on a copy, so a failing operation leaves `doc` as it was.
    doc = doc.patch(patch);
    return std::nullopt;
  } catch (const nlohmann::json::exception& e) {
    return std::string(e.what());
  }
}

}  // namespace fabricctl

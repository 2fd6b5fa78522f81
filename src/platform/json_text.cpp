#include "platform/json_text.h"

#include <algorithm>
#include <cstdint>

namespace fabricctl {
namespace {

using nlohmann::ordered_json;

/// Whether `s` is printable ASCII with no quote or backslash: its JSON text is then "s" as it is.
bool needs_no_escape(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
  });
}

void dump_into(const ordered_json& j, size_t step, size_t indent, std::string& out) {
  if (!j.is_structured()) return append_json_scalar(j, out);
  const bool object = j.is_object();
  if (j.empty()) {
    out += object ? "{}" : "[]";
    return;
  }
  out += object ? "{\n" : "[\n";
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it != j.begin()) out += ",\n";
    out.append(indent + step, ' ');
    if (object) append_json_key(it.key(), out);
    dump_into(it.value(), step, indent + step, out);
  }
  out += '\n';
  out.append(indent, ' ');
  out += object ? '}' : ']';
}

}  // namespace

void append_json_scalar(const ordered_json& j, std::string& out) {
  if (j.is_number_unsigned()) {
    out += std::to_string(j.get<uint64_t>());
  } else if (j.is_number_integer()) {
    out += std::to_string(j.get<int64_t>());
  } else if (j.is_string() && needs_no_escape(j.get_ref<const std::string&>())) {
    out += '"';
    out += j.get_ref<const std::string&>();
    out += '"';
  } else {
    out += j.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
  }
}

void append_json_key(const std::string& key, std::string& out) {
  if (needs_no_escape(key)) {
    out += '"';
    out += key;
    out += '"';
  } else {
    append_json_scalar(ordered_json(key), out);
  }
  out += ": ";
}

std::string dump_indented(const ordered_json& j, int indent) {
  std::string out;
  dump_into(j, static_cast<size_t>(std::max(indent, 0)), 0, out);
  return out;
}

}  // namespace fabricctl

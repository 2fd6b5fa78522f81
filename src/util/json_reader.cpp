#include "util/json_reader.h"

#include <algorithm>

#include "util/diag.h"
#include "util/spell.h"
#include "util/text.h"

namespace fabricctl::jsonr {
namespace {

constexpr size_t kMaxJsonDetail = 200;   // characters of the JSON parser's own message kept
constexpr size_t kMaxPlainSegment = 63;  // bytes; longer keys are quoted (and cut) in paths

bool plain_segment(std::string_view key) {
  return !key.empty() && key.size() <= kMaxPlainSegment && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' || c == '.' ||
           c == '_' || c == ':' || c == '-';
  });
}

std::string with_path(const std::string& path, const std::string& what) {
  return path.empty() ? what : path + ": " + what;
}

// The parser's messages echo input bytes: keep them printable ASCII.
std::string printable(std::string_view s) {
  std::string out;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u >= 0x7f) ? '?' : c;
  }
  return out;
}

// A SAX handler that builds the DOM, rejects duplicate keys and deep nesting, and keeps the
// parser's position for syntax errors.
class DomBuilder final : public nlohmann::json_sax<Json> {
 public:
  DomBuilder(std::string_view text, size_t max_depth) : text_(text), max_depth_(max_depth) {}

  Json root;
  std::string error;  // set when parsing stopped early

  bool null() override { return place(Json(nullptr)) != nullptr; }
  bool boolean(bool v) override { return place(Json(v)) != nullptr; }
  bool number_integer(number_integer_t v) override { return place(Json(v)) != nullptr; }
  bool number_unsigned(number_unsigned_t v) override { return place(Json(v)) != nullptr; }
  bool number_float(number_float_t v, const string_t&) override { return place(Json(v)) != nullptr; }
  bool string(string_t& v) override { return place(Json(std::move(v))) != nullptr; }
  bool binary(binary_t&) override { return false; }  // never produced by the JSON parser
  bool start_object(std::size_t) override { return open(Json::object()); }
  bool start_array(std::size_t) override { return open(Json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& k) override {
    Frame& f = stack_.back();
    if (f.node->contains(k)) {
      error = child(path(), k) + ": duplicate key";
      return false;
    }
    f.key = std::move(k);
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    // position counts the bytes read, the bad one included.
    const size_t offset = std::min(position == 0 ? 0 : position - 1, text_.size());
    size_t line = 1, line_start = 0;
    for (size_t i = 0; i < offset; ++i)
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    // "[json.exception.parse_error.101] parse error at line 1, column 8: syntax error while parsing
    // object key - unexpected '}'; expected string literal": keep the part after the location, drop
    // the echo of the input ("; last read: '...'"), which can be long and hostile.
    std::string detail = ex.what();
    if (size_t p = detail.find("column "); p != std::string::npos)
      if (size_t q = detail.find(": ", p); q != std::string::npos) detail = detail.substr(q + 2);
    if (size_t lr = detail.find("; last read: "); lr != std::string::npos) {
      const size_t exp = detail.rfind("; expected ");
      detail = detail.substr(0, lr) + (exp != std::string::npos && exp > lr ? detail.substr(exp) : "");
    }
    if (detail.size() > kMaxJsonDetail) detail = detail.substr(0, kMaxJsonDetail) + "...";
    error = "invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(offset - line_start + 1) +
            " (byte offset " + std::to_string(offset) + "): " + printable(detail);
    return false;
  }

 private:
  struct Frame {
    Json* node;
    std::string key;  // current key, when node is an object
  };

  // The path of the value about to be placed into the top container.
  std::string next_path() const {
    std::string p = path();
    if (stack_.empty()) return p;
    const Frame& f = stack_.back();
    return f.node->is_object() ? child(p, f.key) : element(p, f.node->size());
  }

  // The path of the top container.
  std::string path() const {
    std::string p;
    for (size_t i = 0; i + 1 < stack_.size(); ++i) {
      const Frame& f = stack_[i];
      p = f.node->is_object() ? child(p, f.key) : element(p, f.node->size() - 1);
    }
    return p;
  }

  Json* place(Json v) {
    if (stack_.empty()) {
      root = std::move(v);
      return &root;
    }
    Frame& f = stack_.back();
    if (f.node->is_object()) {
      Json& slot = (*f.node)[f.key];
      slot = std::move(v);
      return &slot;
    }
    f.node->push_back(std::move(v));
    return &f.node->back();
  }

  bool open(Json v) {
    if (stack_.size() >= max_depth_) {
      error = with_path(next_path(), "nesting deeper than " + std::to_string(max_depth_) + " levels");
      return false;
    }
    Json* node = place(std::move(v));
    stack_.push_back({node, {}});
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  std::string_view text_;
  size_t max_depth_;
  std::vector<Frame> stack_;
};

}  // namespace

std::string child(const std::string& path, std::string_view key) {
  const std::string seg = plain_segment(key) ? std::string(key) : quote(key);
  return path.empty() ? seg : path + "." + seg;
}

std::string element(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

void fail(const std::string& path, const std::string& what) { throw JsonError{with_path(path, what)}; }

std::string exception_message(const Json::exception& e) { return "invalid JSON: " + printable(e.what()); }

Expected<Json> parse_json(std::string_view text, const JsonLimits& limits) {
  if (text.size() > limits.max_bytes)
    return unexpected("text is " + std::to_string(text.size()) + " bytes, more than the limit of " +
                      std::to_string(limits.max_bytes) + " bytes");
  DomBuilder builder(text, limits.max_depth);
  try {
    const bool ok = Json::sax_parse(text.begin(), text.end(), &builder, Json::input_format_t::json, true, false);
    if (!ok || !builder.error.empty())
      return unexpected(builder.error.empty() ? std::string("invalid JSON") : builder.error);
  } catch (const Json::exception& e) {
    return unexpected(exception_message(e));
  }
  return std::move(builder.root);
}

std::string describe(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "a string " + quote(v.get_ref<const std::string&>());
    case Json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return "a number " + quote(v.dump());
    default: return "a binary value";
  }
}

const Json* find(const Json& obj, std::string_view key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

const Json& required(const Json& obj, const std::string& path, std::string_view key) {
  const Json* v = find(obj, key);
  if (!v) fail(path, "missing required key " + quote(key));
  return *v;
}

void expect_object(const Json& v, const std::string& path) {
  if (!v.is_object()) fail(path, "expected an object, got " + describe(v));
}

void expect_array(const Json& v, const std::string& path, size_t max, std::string_view what) {
  if (!v.is_array()) fail(path, "expected an array, got " + describe(v));
  if (v.size() > max)
    fail(path,
         std::to_string(v.size()) + " " + std::string(what) + " are more than the limit of " + std::to_string(max));
}

void check_keys(const Json& obj, const std::string& path, const std::vector<std::string_view>& allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string& k = it.key();
    if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
    std::string msg = "unknown key";
    if (std::string hint = closest_match(k, allowed); !hint.empty()) {
      msg += "; did you mean " + quote(hint) + "?";
    } else {
      std::vector<std::string> names(allowed.begin(), allowed.end());
      msg += " (expected one of: " + join(names, ", ") + ")";
    }
    fail(child(path, k), msg);
  }
}

int64_t integer(const Json& v, const std::string& path, int64_t lo, int64_t hi) {
  if (!v.is_number_integer()) fail(path, "expected an integer, got " + describe(v));
  bool ok = false;
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    ok = u <= static_cast<uint64_t>(hi) && (lo <= 0 || u >= static_cast<uint64_t>(lo));
  } else {
    const int64_t i = v.get<int64_t>();
    ok = lo <= i && i <= hi;
  }
  if (!ok) fail(path, quote(v.dump()) + " is out of range " + std::to_string(lo) + "-" + std::to_string(hi));
  return v.is_number_unsigned() ? static_cast<int64_t>(v.get<uint64_t>()) : v.get<int64_t>();
}

uint64_t unsigned_integer(const Json& v, const std::string& path) {
  if (!v.is_number_integer()) fail(path, "expected a non-negative integer, got " + describe(v));
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.get<int64_t>() < 0) fail(path, quote(v.dump()) + " is negative; counters are non-negative integers");
  return static_cast<uint64_t>(v.get<int64_t>());
}

const std::string& string_value(const Json& v, const std::string& path) {
  if (!v.is_string()) fail(path, "expected a string, got " + describe(v));
  return v.get_ref<const std::string&>();
}

bool bool_value(const Json& v, const std::string& path) {
  if (!v.is_boolean()) fail(path, "expected true or false, got " + describe(v));
  return v.get<bool>();
}

size_t choice(const Json& v, const std::string& path, const std::vector<std::string_view>& choices) {
  const std::string& s = string_value(v, path);
  for (size_t i = 0; i < choices.size(); ++i)
    if (choices[i] == s) return i;
  std::vector<std::string> names;
  for (std::string_view c : choices) names.push_back(quote(c));
  fail(path, quote(s) + " is not one of " + join(names, ", "));
}

}  // namespace fabricctl::jsonr

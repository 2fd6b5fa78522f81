#include "util/json_locate.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <vector>

#include "util/diag.h"
#include "util/json_path.h"

namespace fabricctl::jsonr {
namespace {

using Json = nlohmann::json;

constexpr size_t kMaxJsonDetail = 200;  // characters of the JSON parser's own message kept

std::string with_path(const std::string& path, const std::string& what) {
  return path.empty() ? what : path + ": " + what;
}

// The parser's messages echo input bytes: keep them printable ASCII.
std::string printable_ascii(std::string_view s) {
  std::string out;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u >= 0x7f) ? '?' : c;
  }
  return out;
}

// "invalid JSON at line L, column C (byte offset O): " for the byte at `offset` (lines and columns
// count from 1, columns in bytes).
std::string at(std::string_view text, size_t offset) {
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  return "invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(offset - line_start + 1) +
         " (byte offset " + std::to_string(offset) + "): ";
}

// A SAX handler that builds nothing: it keeps the keys of the open objects (for duplicates), the
// entry counts of the open arrays (for paths), rejects deep nesting and integers beyond 64 bits, and
// turns the parser's syntax errors into located messages.
class Locator final : public nlohmann::json_sax<Json> {
 public:
  Locator(std::string_view text, size_t max_depth, bool duplicates)
      : text_(text), max_depth_(max_depth), duplicates_(duplicates) {}

  std::string error;  // set when parsing stopped early

  bool null() override { return place(); }
  bool boolean(bool) override { return place(); }
  bool number_integer(number_integer_t) override { return place(); }
  bool number_unsigned(number_unsigned_t) override { return place(); }
  bool number_float(number_float_t, const string_t& token) override {
    // nlohmann reads an integer token that overflows 64 bits as a double; simdjson refuses it.
    if (token.find_first_of(".eE") == std::string::npos) {
      error = with_path(next_path(), quote(token) +
                                         " is an integer beyond 64 bits (-9223372036854775808 to "
                                         "18446744073709551615)");
      return false;
    }
    return place();
  }
  bool string(string_t&) override { return place(); }
  bool binary(binary_t&) override { return false; }  // never produced by the JSON parser
  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& k) override {
    Frame& f = stack_.back();
    if (duplicates_ && !f.keys.insert(k).second) {
      error = child_text(path(), k) + ": duplicate key";
      return false;
    }
    f.key = std::move(k);
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    // position counts the bytes read, the bad one included.
    const size_t offset = std::min(position == 0 ? 0 : position - 1, text_.size());
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
    error = at(text_, offset) + printable_ascii(detail);
    return false;
  }

 private:
  struct Frame {
    bool object = false;
    std::set<std::string> keys;  // objects: the keys so far
    std::string key;             // objects: the current key
    size_t count = 0;            // arrays: entries so far
  };

  // The path of the value about to be placed into the top container.
  std::string next_path() const {
    std::string p = path();
    if (stack_.empty()) return p;
    const Frame& f = stack_.back();
    return f.object ? child_text(p, f.key) : element_text(p, f.count);
  }

  // The path of the top container.
  std::string path() const {
    std::string p;
    for (size_t i = 0; i + 1 < stack_.size(); ++i) {
      const Frame& f = stack_[i];
      p = f.object ? child_text(p, f.key) : element_text(p, f.count - 1);
    }
    return p;
  }

  bool place() {
    if (!stack_.empty() && !stack_.back().object) ++stack_.back().count;
    return true;
  }

  bool open(bool object) {
    if (stack_.size() >= max_depth_) {
      error = with_path(next_path(), "nesting deeper than " + std::to_string(max_depth_) + " levels");
      return false;
    }
    place();
    stack_.emplace_back();
    stack_.back().object = object;
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  std::string_view text_;
  size_t max_depth_;
  bool duplicates_;
  std::vector<Frame> stack_;
};

}  // namespace

std::string locate_json_error(std::string_view text, size_t max_depth, bool duplicates) {
  Locator locator(text, max_depth, duplicates);
  try {
    const bool ok = Json::sax_parse(text.begin(), text.end(), &locator, Json::input_format_t::json, true, false);
    if (!ok || !locator.error.empty()) return locator.error.empty() ? std::string("invalid JSON") : locator.error;
  } catch (const Json::exception& e) {
    return "invalid JSON: " + printable_ascii(e.what());
  }
  // nlohmann's lexer takes a NUL byte for the end of the input, so it accepts a document followed by
  // one and ignores whatever comes after it; simdjson (and so the reader) refuses that.
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos)
    return at(text, nul) + "a NUL byte after the document; expected end of input";
  return "";
}

}  // namespace fabricctl::jsonr

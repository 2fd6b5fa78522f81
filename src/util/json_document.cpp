#include "util/json_document.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace fabricctl::jsonr {
namespace {

// Released parsers are kept per thread for the next document, up to kPoolSize of them (nested
// documents are rare) and only while their buffers are moderate: a parser grown by one 16 MiB
// document holds ~240 MB, which a long-lived thread should not keep; one for a 3 MB spine switch
// snapshot (3,200 ports) is worth keeping for the next.
constexpr size_t kPoolSize = 2;
constexpr size_t kKeptCapacity = size_t{4} * 1024 * 1024;  // bytes of JSON a kept parser was sized for

std::vector<std::unique_ptr<simdjson::dom::parser>>& pool() {
  thread_local std::vector<std::unique_ptr<simdjson::dom::parser>> parsers;
  return parsers;
}

std::unique_ptr<simdjson::dom::parser> acquire() {
  auto& p = pool();
  if (p.empty()) return std::make_unique<simdjson::dom::parser>();
  auto parser = std::move(p.back());
  p.pop_back();
  return parser;
}

void release(std::unique_ptr<simdjson::dom::parser> parser) {
  if (!parser || parser->capacity() > kKeptCapacity) return;
  auto& p = pool();
  if (p.size() < kPoolSize) p.push_back(std::move(parser));
}

// The count of an array or object: simdjson stores it in the tape, saturated at 0xFFFFFF (16.7 M).
template <typename Container>
size_t count(const Container& c) {
  const size_t n = c.size();
  if (n < 0xFFFFFF) return n;
  size_t exact = 0;
  for (auto it = c.begin(); it != c.end(); ++it) ++exact;
  return exact;
}

bool is_container(simdjson::dom::element e) {
  const auto t = e.type();
  return t == simdjson::dom::element_type::ARRAY || t == simdjson::dom::element_type::OBJECT;
}

// Up to 8 bytes of `s` from `from` as one integer.
uint64_t load8(std::string_view s, size_t from) {
  uint64_t v = 0;
  if (s.size() - from >= 8) {
    std::memcpy(&v, s.data() + from, 8);
  } else {
    for (size_t i = from; i < s.size(); ++i) v = v << 8 | static_cast<unsigned char>(s[i]);
  }
  return v;
}

// A key's fingerprint, from its length and its first and last 8 bytes: cheap (no loop over a long
// key), and keys with different fingerprints are different keys, so only keys with equal ones
// (nearly always duplicates) are compared byte by byte.
uint64_t fingerprint(std::string_view k) {
  const size_t n = k.size();
  const uint64_t head = load8(k, 0);
  const uint64_t tail = n > 8 ? load8(k, n - std::min<size_t>(n - 8, 8)) : 0;
  return (head * 0x9E3779B97F4A7C15ULL) ^ (tail * 0xC2B2AE3D27D4EB4FULL) ^ n;
}

// Keys of the objects open in the walk below, with their fingerprints: each object uses the
// entries past those of the objects around it, and gives them back when it is done.
using Keys = std::vector<std::pair<uint64_t, std::string_view>>;

// Whether keys[from..] (one object's keys) holds a key twice. Small objects (nearly all) compare
// fingerprints pairwise; large ones (ports, counters) sort them.
constexpr size_t kPairwiseKeys = 16;
bool has_duplicate(Keys& keys, size_t from) {
  const auto first = keys.begin() + static_cast<std::ptrdiff_t>(from);
  if (keys.size() - from <= kPairwiseKeys) {
    for (auto a = first; a != keys.end(); ++a)
      for (auto b = first; b != a; ++b)
        if (*a == *b) return true;
    return false;
  }
  std::sort(first, keys.end());
  return std::adjacent_find(first, keys.end()) != keys.end();
}

// Whether `e` and everything in it keeps the rules: at most max_depth levels of objects and arrays
// (`depth` counts `e`, a container), no key twice in one object.
bool within_rules(simdjson::dom::element e, size_t depth, size_t max_depth, Keys& keys) {
  if (depth > max_depth) return false;
  if (simdjson::dom::array a; e.get_array().get(a) == simdjson::SUCCESS) {
    for (const simdjson::dom::element x : a)
      if (is_container(x) && !within_rules(x, depth + 1, max_depth, keys)) return false;
    return true;
  }
  simdjson::dom::object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) return true;
  const size_t from = keys.size();
  for (auto it = o.begin(); it != o.end(); ++it) {
    const std::string_view k = it.key();
    keys.emplace_back(fingerprint(k), k);
    if (const simdjson::dom::element x = it.value(); is_container(x) && !within_rules(x, depth + 1, max_depth, keys))
      return false;
  }
  if (has_duplicate(keys, from)) return false;
  keys.resize(from);
  return true;
}

}  // namespace

bool Document::within_rules(size_t max_depth) const {
  if (!parser_) return false;
  thread_local Keys keys;  // kept between documents
  keys.clear();            // a walk that stopped early leaves entries
  return !is_container(root_) || jsonr::within_rules(root_, 1, max_depth, keys);
}

size_t Value::size() const noexcept {
  if (simdjson::dom::array a; e_.get_array().get(a) == simdjson::SUCCESS) return count(a);
  if (simdjson::dom::object o; e_.get_object().get(o) == simdjson::SUCCESS) return count(o);
  return 0;
}

std::string Value::number_text() const {
  switch (type()) {
    case Type::INT64: return std::to_string(e_.get_int64().value_unsafe());
    case Type::UINT64: return std::to_string(e_.get_uint64().value_unsafe());
    // The shortest text that reads back as the same double, formatted exactly as before the move
    // to simdjson ("1000.0", "1e+100"), so messages did not change.
    case Type::DOUBLE: return nlohmann::json(e_.get_double().value_unsafe()).dump();
    default: return "";
  }
}

std::optional<Value> Value::find(std::string_view key) const noexcept {
  simdjson::dom::object o;
  if (e_.get_object().get(o) != simdjson::SUCCESS) return std::nullopt;
  // Length, then first byte, then the rest: most keys of an object differ in one of the first two,
  // and this saves a memcmp call per member passed over.
  for (auto it = o.begin(); it != o.end(); ++it) {
    if (it.key_length() != key.size()) continue;
    const char* k = it.key_c_str();
    if (key.empty() || (k[0] == key[0] && std::memcmp(k, key.data(), key.size()) == 0)) return Value(it.value());
  }
  return std::nullopt;
}

Value::Elements Value::elements() const noexcept {
  simdjson::dom::array a;
  if (e_.get_array().get(a) != simdjson::SUCCESS) return {};
  return Elements(a);
}

Value::Members Value::members() const noexcept {
  simdjson::dom::object o;
  if (e_.get_object().get(o) != simdjson::SUCCESS) return {};
  return Members(o);
}

Document::Document() noexcept = default;
Document::Document(Document&&) noexcept = default;

Document& Document::operator=(Document&& other) noexcept {
  if (this != &other) {
    release(std::move(parser_));
    parser_ = std::move(other.parser_);
    root_ = other.root_;
  }
  return *this;
}

Document::~Document() { release(std::move(parser_)); }

simdjson::error_code Document::parse(std::string_view text) noexcept {
  root_ = {};
  if (!parser_) {
    try {
      parser_ = acquire();
    } catch (const std::bad_alloc&) {
      return simdjson::MEMALLOC;
    }
  }
  // nlohmann's parser, which this one replaced, skips a byte order mark; so does this one.
  if (text.starts_with("\xef\xbb\xbf")) text.remove_prefix(3);
  // realloc_if_needed: simdjson reads up to 64 bytes past the end, so the text is copied into the
  // parser's own padded buffer (kept between documents; the copy costs ~1% of the parse).
  return parser_->parse(text.data(), text.size(), true).get(root_);
}

}  // namespace fabricctl::jsonr

// A parsed JSON document and read-only views of its values, for the strict reader
// (util/json_reader.h). Parsing is simdjson's DOM: one tape per document, strings and numbers
// decoded once, no allocation per value. The parser and its buffers (about 15 bytes per byte of
// JSON) are reused: each thread keeps released parsers for its next document, so reading thousands
// of files allocates once per thread, not once per value.
//
// parse() checks syntax (what simdjson checks: RFC 8259, UTF-8, integers within 64 bits);
// within_rules() checks depth and duplicate keys, the reader's rules (util/json_reader.h).
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace fabricctl::jsonr {

struct Member;

/// One value of a Document: a view (two words, cheap to copy) that is valid while its Document lives.
class Value {
 public:
  explicit Value(simdjson::dom::element e) noexcept : e_(e) {}

  [[nodiscard]] bool is_null() const noexcept { return type() == Type::NULL_VALUE; }
  [[nodiscard]] bool is_bool() const noexcept { return type() == Type::BOOL; }
  [[nodiscard]] bool is_string() const noexcept { return type() == Type::STRING; }
  [[nodiscard]] bool is_array() const noexcept { return type() == Type::ARRAY; }
  [[nodiscard]] bool is_object() const noexcept { return type() == Type::OBJECT; }
  /// An integer of the text (no fraction, no exponent): always within 64 bits, signed or unsigned.
  [[nodiscard]] bool is_integer() const noexcept { return type() == Type::INT64 || type() == Type::UINT64; }
  [[nodiscard]] bool is_number() const noexcept { return is_integer() || type() == Type::DOUBLE; }

  /// Entries of an array or members of an object; 0 for any other value.
  [[nodiscard]] size_t size() const noexcept;
  // Inline: the reader calls these once per value of every document.
  /// The string (decoded; it may hold any UTF-8, NUL included); empty unless is_string().
  [[nodiscard]] std::string_view string() const noexcept {
    std::string_view s;
    return e_.get_string().get(s) == simdjson::SUCCESS ? s : std::string_view();
  }
  /// The boolean; false unless is_bool().
  [[nodiscard]] bool boolean() const noexcept {
    bool b = false;
    return e_.get_bool().get(b) == simdjson::SUCCESS && b;
  }
  /// The integer when it is one and fits the type: -2^63..2^63-1, or 0..2^64-1.
  [[nodiscard]] std::optional<int64_t> int64() const noexcept {
    int64_t i = 0;
    if (e_.get_int64().get(i) != simdjson::SUCCESS) return std::nullopt;
    return i;
  }
  [[nodiscard]] std::optional<uint64_t> uint64() const noexcept {
    uint64_t u = 0;
    if (e_.get_uint64().get(u) != simdjson::SUCCESS) return std::nullopt;
    return u;
  }
  /// A number as nlohmann::json::dump() writes it ("5", "9100.5", "1000.0"), which messages quote;
  /// empty for other values.
  [[nodiscard]] std::string number_text() const;

  /// The member `key` of an object, or nothing (also when this is not an object). Linear in the
  /// number of members: the objects of our formats are small, and lookup by name is rare in large ones.
  [[nodiscard]] std::optional<Value> find(std::string_view key) const noexcept;

  class Elements;
  class Members;
  /// The entries of an array in order; none for any other value.
  [[nodiscard]] Elements elements() const noexcept;
  /// The members of an object in document order; none for any other value.
  [[nodiscard]] Members members() const noexcept;

  /// The simdjson element, for code that walks the tape itself (json_reader.cpp).
  [[nodiscard]] simdjson::dom::element element() const noexcept { return e_; }

 private:
  using Type = simdjson::dom::element_type;
  [[nodiscard]] Type type() const noexcept { return e_.type(); }

  simdjson::dom::element e_;
};

/// One member of an object.
struct Member {
  std::string_view key;  // decoded
  Value value;
};

namespace detail {

inline Value view_of(const simdjson::dom::array::iterator& it) noexcept { return Value(*it); }
inline Member view_of(const simdjson::dom::object::iterator& it) noexcept { return {it.key(), Value(it.value())}; }

/// A range of views over simdjson's iterator `It`. An input range: dereferencing gives a new view
/// (view_of), not a reference to a stored one. Default-constructed, it is empty.
template <class It, class View>
class ViewRange {
 public:
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = View;
    using difference_type = std::ptrdiff_t;
    using reference = View;
    using pointer = void;
    iterator() noexcept = default;
    explicit iterator(It it) noexcept : it_(it) {}
    View operator*() const noexcept { return view_of(it_); }
    iterator& operator++() noexcept {
      ++it_;
      return *this;
    }
    iterator operator++(int) noexcept {
      iterator before = *this;
      ++it_;
      return before;
    }
    bool operator==(const iterator& other) const noexcept { return it_ == other.it_; }

   private:
    It it_;
  };
  ViewRange() noexcept = default;
  ViewRange(It begin, It end) noexcept : begin_(begin), end_(end) {}
  [[nodiscard]] iterator begin() const noexcept { return begin_; }
  [[nodiscard]] iterator end() const noexcept { return end_; }

 private:
  iterator begin_, end_;  // default iterators compare equal: an empty range
};

}  // namespace detail

class Value::Elements : public detail::ViewRange<simdjson::dom::array::iterator, Value> {
 public:
  Elements() noexcept = default;
  explicit Elements(simdjson::dom::array a) noexcept : ViewRange(a.begin(), a.end()) {}
};

class Value::Members : public detail::ViewRange<simdjson::dom::object::iterator, Member> {
 public:
  Members() noexcept = default;
  explicit Members(simdjson::dom::object o) noexcept : ViewRange(o.begin(), o.end()) {}
};

/// A parsed document. It owns the parser that holds the tape, so its Values stay valid while it
/// lives, also when it is moved; on destruction the parser goes back to the calling thread's pool.
class Document {
 public:
  Document() noexcept;
  Document(Document&&) noexcept;
  Document& operator=(Document&&) noexcept;
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;
  ~Document();

  /// Parses `text` (syntax only: see the top of this file), replacing what this document held. A
  /// leading UTF-8 byte order mark is skipped, as nlohmann's parser does. On an error the document
  /// is empty and root() must not be called.
  simdjson::error_code parse(std::string_view text) noexcept;

  [[nodiscard]] Value root() const noexcept { return Value(root_); }

  /// Whether no object or array nests deeper than `max_depth` levels and no object has a key twice:
  /// the strict reader's rules that simdjson does not check. Only yes or no; json_locate.h words the
  /// first problem. One walk over the document, about a third of the parse's own time.
  [[nodiscard]] bool within_rules(size_t max_depth) const;

 private:
  std::unique_ptr<simdjson::dom::parser> parser_;
  simdjson::dom::element root_;
};

}  // namespace fabricctl::jsonr

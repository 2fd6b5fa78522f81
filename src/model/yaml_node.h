// A compact YAML tree, built from libfyaml's event parser: what the located readers (yaml_reader.h)
// walk. Our own tree rather than a library's: at the scale of a 100k-NIC inventory, yaml-cpp took 8x
// as long as libfyaml's event parse and ~60x the file's size in memory, and libfyaml's own document
// builder is quadratic on large mappings. A node is a 24-byte handle into memory its YamlTree owns
// (about 4x the file's size); nothing is reference-counted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.h"

namespace fabricctl {

struct YamlEntry;

/// One node of a document: null, a scalar, a list or a mapping, with the 1-based line and column
/// (in bytes) where it starts, properties (&anchor, !tag) included. An alias is the node its anchor
/// names, position included. Valid while the YamlTree it came from lives.
class YamlNode {
 public:
  /// `absent` is no node at all: a missing mapping key (operator[]) or a default-constructed node.
  enum class Kind : uint8_t { absent, null, scalar, sequence, mapping };

  YamlNode() = default;

  [[nodiscard]] Kind kind() const { return kind_; }
  /// Null as YAML means it: an empty value, or a plain `~`, `null`, `Null`, `NULL` (a quoted or
  /// tagged "null" is a string). An absent node is null too.
  [[nodiscard]] bool is_null() const { return kind_ == Kind::absent || kind_ == Kind::null; }
  [[nodiscard]] bool is_scalar() const { return kind_ == Kind::scalar; }
  [[nodiscard]] bool is_sequence() const { return kind_ == Kind::sequence; }
  [[nodiscard]] bool is_map() const { return kind_ == Kind::mapping; }
  /// False only for an absent node: `if (!n["role"])` asks whether the key was written at all.
  explicit operator bool() const { return kind_ != Kind::absent; }

  /// 1-based; 0 when the node is not in the file (absent, or the root of an empty file).
  [[nodiscard]] int line() const { return static_cast<int>(line_); }
  [[nodiscard]] int col() const { return static_cast<int>(col_); }

  /// The text of a scalar (tags are not applied: `!!str 5` is "5"); empty for other kinds.
  [[nodiscard]] std::string_view scalar() const {
    return kind_ == Kind::scalar ? std::string_view(static_cast<const char*>(data_), size_) : std::string_view();
  }
  /// Items of a list or entries of a mapping; 0 for other kinds.
  [[nodiscard]] size_t size() const { return is_sequence() || is_map() ? size_ : 0; }
  /// The items of a list, in document order; empty for other kinds.
  [[nodiscard]] std::span<const YamlNode> items() const {
    if (!is_sequence()) return {};
    return {static_cast<const YamlNode*>(data_), size_};
  }
  /// The key/value entries of a mapping, in document order (duplicates kept); empty for other kinds.
  [[nodiscard]] std::span<const YamlEntry> entries() const;
  /// The value of the first entry whose key is the scalar `key`, or an absent node. A linear scan:
  /// the readers look keys up in small mappings only.
  [[nodiscard]] const YamlNode& operator[](std::string_view key) const;

 private:
  friend class YamlTreeBuilder;
  YamlNode(Kind kind, uint32_t line, uint32_t col, const void* data, uint32_t size)
      : data_(data), size_(size), line_(line), col_(col), kind_(kind) {}

  const void* data_ = nullptr;  // scalar bytes, YamlNode[size_] or YamlEntry[size_]
  uint32_t size_ = 0;           // inputs are at most kMaxYamlBytes, so every count fits
  uint32_t line_ = 0;
  uint32_t col_ = 0;
  Kind kind_ = Kind::absent;
};

struct YamlEntry {
  YamlNode key;
  YamlNode value;
};

inline std::span<const YamlEntry> YamlNode::entries() const {
  if (!is_map()) return {};
  return {static_cast<const YamlEntry*>(data_), size_};
}

/// A parsed document: its root and the memory every node under it lives in (scalars copied out of
/// the input, children stored once their list or mapping is complete). Move-only; share it by
/// shared_ptr.
class YamlTree {
 public:
  YamlTree() = default;
  YamlTree(YamlTree&&) = default;
  YamlTree& operator=(YamlTree&&) = default;
  YamlTree(const YamlTree&) = delete;
  YamlTree& operator=(const YamlTree&) = delete;
  ~YamlTree() = default;

  [[nodiscard]] const YamlNode& root() const { return root_; }

 private:
  friend class YamlTreeBuilder;
  /// Room for `bytes` at `align`, valid for the tree's life (blocks never move).
  void* allocate(size_t bytes, size_t align);

  YamlNode root_;
  std::vector<std::unique_ptr<std::byte[]>> blocks_;
  std::byte* next_ = nullptr;
  size_t left_ = 0;
  size_t reserved_ = 0;  // bytes in blocks_
};

/// Why a text is not YAML, and where (1-based line, column in bytes).
struct YamlError {
  int line = 0;
  int col = 0;
  std::string message;  // printable: control bytes of the input are escaped
};

/// Parses the first document of `text` (later ones are ignored, as yaml-cpp's Load did; no
/// document at all is a null root). Aliases are resolved (an alias shares its anchor's node, so the
/// tree stays the size of the text); `<<` is an ordinary key. Lists and mappings nested deeper than
/// `max_depth` are an error, found while parsing: nothing here recurses over the input's depth.
Expected<YamlTree, YamlError> parse_yaml_tree(std::string_view text, size_t max_depth);

}  // namespace fabricctl

#include "model/yaml_node.h"

#include <libfyaml.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <unordered_map>

#include "util/diag.h"
#include "util/text.h"

namespace fabricctl {
namespace {

constexpr size_t kMaxMessageBytes = 200;  // of libfyaml's message, which can quote the input

/// Byte offset -> 1-based line and column: lines end where libfyaml ends them ("\n", "\r\n" or a
/// lone "\r"), a column is a byte (as yaml-cpp counted), a UTF-8 byte order mark is not part of
/// line 1.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text) {
    const bool bom = text.starts_with("\xEF\xBB\xBF");
    starts_.push_back(bom ? 3 : 0);
    if (text.find('\r') == std::string_view::npos) {
      for (size_t i = text.find('\n'); i != std::string_view::npos; i = text.find('\n', i + 1))
        starts_.push_back(static_cast<uint32_t>(i + 1));
      return;
    }
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] != '\r' && text[i] != '\n') continue;
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      starts_.push_back(static_cast<uint32_t>(i + 1));
    }
  }

  /// Line and column of `pos`. Nodes come mostly in input order, so the line of the previous
  /// lookup is tried first.
  std::pair<uint32_t, uint32_t> at(size_t pos) {
    const auto in = [&](size_t l) { return pos >= starts_[l] && (l + 1 == starts_.size() || pos < starts_[l + 1]); };
    if (!in(hint_)) {
      if (hint_ + 1 < starts_.size() && in(hint_ + 1)) {
        ++hint_;
      } else {
        const auto it = std::upper_bound(starts_.begin(), starts_.end(), pos);
        hint_ = it == starts_.begin() ? 0 : static_cast<size_t>(it - starts_.begin()) - 1;
      }
    }
    const size_t col = pos >= starts_[hint_] ? pos - starts_[hint_] + 1 : 1;
    return {static_cast<uint32_t>(hint_ + 1), static_cast<uint32_t>(col)};
  }

  /// Byte offset where 1-based `line` starts (the last line when past the end).
  [[nodiscard]] size_t start(int line) const {
    const size_t l = line < 1 ? 0 : std::min(static_cast<size_t>(line - 1), starts_.size() - 1);
    return starts_[l];
  }

 private:
  std::vector<uint32_t> starts_;
  size_t hint_ = 0;
};

struct ParserDeleter {
  void operator()(fy_parser* p) const { fy_parser_destroy(p); }
};
struct DiagDeleter {
  void operator()(fy_diag* d) const { fy_diag_destroy(d); }
};

/// libfyaml writes diagnostics to stderr unless told otherwise; ours go to Diags, from the
/// collected errors.
void discard_output(fy_diag* /*diag*/, void* /*user*/, const char* /*buf*/, size_t /*len*/) {}

/// yaml-cpp's IsNullString: what a plain, untagged scalar means when it means null.
bool null_text(std::string_view s) { return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL"; }

/// The offset of the first byte that is not text: NUL, or not UTF-8. libfyaml ends the stream
/// there without an error, which would silently drop the rest of the file.
std::optional<size_t> first_non_text(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      uint32_t cp = 0;
      const size_t len = utf8_sequence(text, i, cp);
      if (len == 0) return i;
      i += len;
    } else if (c == 0) {
      return i;
    } else {
      ++i;
    }
  }
  return std::nullopt;
}

std::string_view token_text(fy_token* t) {
  size_t len = 0;
  const char* s = t ? fy_token_get_text(t, &len) : nullptr;
  return s ? std::string_view(s, len) : std::string_view();
}

}  // namespace

/// Turns libfyaml's events into a YamlTree with an explicit stack: the children of every open list
/// or mapping wait in one vector and move into the tree when it closes.
class YamlTreeBuilder {
 public:
  YamlTreeBuilder(std::string_view text, size_t max_depth) : text_(text), lines_(text), max_depth_(max_depth) {}

  Expected<YamlTree, YamlError> run();

 private:
  /// A list or mapping whose end has not come yet.
  struct Open {
    YamlNode::Kind kind;
    uint32_t line;
    uint32_t col;
    size_t first;  // its children start at pending_[first]
    size_t own;    // byte offset of its '{' or '[' (or first item)
    std::string anchor;
  };

  bool on_event(fy_event* e);
  bool scalar(fy_event* e);
  bool alias(fy_event* e);
  bool open(fy_event* e, YamlNode::Kind kind);
  void close();
  YamlError syntax_error(fy_diag* diag);
  [[nodiscard]] std::optional<size_t> open_bracket(size_t pos) const;

  /// Byte offset of a mark; marks count from the start of the input.
  [[nodiscard]] static std::optional<size_t> start(fy_token* t) {
    const fy_mark* m = t ? fy_token_start_mark(t) : nullptr;
    return m ? std::optional<size_t>(m->input_pos) : std::nullopt;
  }
  void saw(fy_token* t, size_t extra = 0) {
    if (const fy_mark* m = t ? fy_token_end_mark(t) : nullptr) last_end_ = std::max(last_end_, m->input_pos + extra);
  }
  [[nodiscard]] std::optional<size_t> properties(fy_token* anchor, fy_token* tag);
  [[nodiscard]] size_t skip_blank(size_t i) const;
  [[nodiscard]] size_t after_indicator(size_t from) const;
  [[nodiscard]] size_t empty_at() const;
  [[nodiscard]] bool at_marker(size_t i) const;
  YamlNode node(YamlNode::Kind kind, size_t pos, const void* data, size_t size) {
    const auto [line, col] = lines_.at(pos);
    // An empty value at the very end: yaml-cpp's mark there was column 1 of the last line.
    return {kind, line, pos >= text_.size() ? 1 : col, data, static_cast<uint32_t>(size)};
  }
  YamlError error_at(size_t pos, std::string message) {
    const auto [line, col] = lines_.at(pos);
    return {static_cast<int>(line), static_cast<int>(col), std::move(message)};
  }

  std::string_view text_;
  LineIndex lines_;
  size_t max_depth_;
  YamlTree tree_;
  std::vector<Open> open_;
  std::vector<YamlNode> pending_;  // children of the open nodes, a mapping's as key, value, key, ...
  std::unordered_map<std::string, YamlNode> anchors_;
  size_t last_end_ = 0;  // byte offset just past the last token seen
  std::optional<YamlError> error_;
};

void* YamlTree::allocate(size_t bytes, size_t align) {
  // align is a power of two (alignof)
  const auto pad = [&] { return static_cast<size_t>(-reinterpret_cast<uintptr_t>(next_) & (align - 1)); };
  if (next_ == nullptr || pad() + bytes > left_) {
    // Blocks grow with the document, so a small file costs a few KB and a large one few blocks.
    constexpr size_t kFirstBlock = size_t{4} << 10;
    constexpr size_t kLargestBlock = size_t{4} << 20;
    const size_t size = std::max(bytes + align, std::min(std::max(kFirstBlock, reserved_), kLargestBlock));
    blocks_.push_back(std::make_unique_for_overwrite<std::byte[]>(size));
    next_ = blocks_.back().get();
    left_ = size;
    reserved_ += size;
  }
  const size_t p = pad();
  std::byte* out = next_ + p;
  next_ += p + bytes;
  left_ -= p + bytes;
  return out;
}

const YamlNode& YamlNode::operator[](std::string_view key) const {
  static const YamlNode absent;
  for (const YamlEntry& e : entries())
    if (e.key.is_scalar() && e.key.scalar() == key) return e.value;
  return absent;
}

size_t YamlTreeBuilder::skip_blank(size_t i) const {
  while (i < text_.size()) {
    const char c = text_[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++i;
    } else if (c == '#') {
      const size_t eol = text_.find_first_of("\r\n", i);
      i = eol == std::string_view::npos ? text_.size() : eol;
    } else {
      break;
    }
  }
  return i;
}

/// The first token after the ':', '-' or '?' that follows `from`: where a block scalar's '|' or
/// '>' is.
size_t YamlTreeBuilder::after_indicator(size_t from) const {
  size_t i = skip_blank(from);
  if (i < text_.size() && (text_[i] == ':' || text_[i] == '-' || text_[i] == '?')) i = skip_blank(i + 1);
  return i;
}

/// Where yaml-cpp placed an empty node, which has no mark of its own: at the token after the
/// indicator that introduced it. For a value, the token after its ':' (or a list item's '-'); for
/// an empty key, the token after '?' or ',' (usually its ':').
size_t YamlTreeBuilder::empty_at() const {
  const bool in_map = !open_.empty() && open_.back().kind == YamlNode::Kind::mapping;
  const bool key = in_map && (pending_.size() - open_.back().first) % 2 == 0;
  size_t i = skip_blank(last_end_);
  if (i < text_.size()) {
    const char c = text_[i];
    if (key ? c == '?' || c == ',' : c == ':' || c == '-') return skip_blank(i + 1);
  }
  if (in_map && !key && text_[open_.back().own] != '{') {
    // "? key" with no ':' at all: yaml-cpp placed the missing value at the '?'.
    const YamlNode& k = pending_.back();
    size_t q = std::min(lines_.start(k.line()) + static_cast<size_t>(std::max(k.col(), 1)) - 1, text_.size());
    while (q > 0 && (text_[q - 1] == ' ' || text_[q - 1] == '\t' || text_[q - 1] == '\n' || text_[q - 1] == '\r')) --q;
    if (q > 0 && text_[q - 1] == '?') return q - 1;
  }
  return i;
}

/// Whether a "---" or "..." line or a directive starts at `i`: the end of a document.
bool YamlTreeBuilder::at_marker(size_t i) const {
  if (i < text_.size() && text_[i] == '%') return true;
  const std::string_view rest = text_.substr(std::min(i, text_.size()));
  return (rest.starts_with("---") || rest.starts_with("...")) &&
         (rest.size() == 3 || std::string_view(" \t\r\n").find(rest[3]) != std::string_view::npos);
}

/// Where the node's properties (&anchor, !tag) start, if it has any: yaml-cpp placed a node there.
std::optional<size_t> YamlTreeBuilder::properties(fy_token* anchor, fy_token* tag) {
  std::optional<size_t> at;
  if (fy_token* a = anchor) {
    if (auto p = start(a)) at = *p > 0 && text_[*p - 1] == '&' ? *p - 1 : *p;  // the mark follows the '&'
    saw(a);
  }
  if (fy_token* t = tag) {
    if (auto p = start(t)) at = at ? std::min(*at, *p) : *p;
    saw(t);
  }
  return at;
}

bool YamlTreeBuilder::scalar(fy_event* e) {
  fy_token* value = e->scalar.value;
  const std::string_view s = token_text(value);
  const fy_scalar_style style = fy_token_scalar_style(value);
  const std::optional<size_t> props = properties(e->scalar.anchor, e->scalar.tag);
  size_t own = 0;  // where the scalar itself starts
  if (const std::optional<size_t> p = start(value); !p) {
    // An empty value has no mark: yaml-cpp placed it at the next token.
    own = empty_at();
    last_end_ = std::max(last_end_, own);
  } else if (style == FYSS_SINGLE_QUOTED || style == FYSS_DOUBLE_QUOTED) {
    own = *p > 0 ? *p - 1 : *p;  // the mark follows the opening quote
  } else if (style == FYSS_LITERAL || style == FYSS_FOLDED) {
    // The mark is the first line of the text; the node starts at its '|' or '>'.
    const size_t indicator = after_indicator(last_end_);
    own = indicator < *p && (text_[indicator] == '|' || text_[indicator] == '>') ? indicator : *p;
  } else {
    own = *p;
  }
  // The end mark of a quoted scalar is its closing quote.
  saw(value, style == FYSS_SINGLE_QUOTED || style == FYSS_DOUBLE_QUOTED ? 1 : 0);
  const size_t pos = props ? *props : own;
  YamlNode n;
  if (style == FYSS_PLAIN && e->scalar.tag == nullptr && null_text(s)) {
    n = node(YamlNode::Kind::null, pos, nullptr, 0);
  } else {
    char* copy = nullptr;
    if (!s.empty()) {
      copy = static_cast<char*>(tree_.allocate(s.size(), 1));
      std::memcpy(copy, s.data(), s.size());
    }
    n = node(YamlNode::Kind::scalar, pos, copy, s.size());
  }
  if (e->scalar.anchor != nullptr) anchors_[std::string(token_text(e->scalar.anchor))] = n;
  pending_.push_back(n);
  return true;
}

bool YamlTreeBuilder::alias(fy_event* e) {
  fy_token* a = e->alias.anchor;
  const std::string name(token_text(a));
  const size_t at = start(a).value_or(last_end_);
  saw(a);
  const auto it = anchors_.find(name);
  if (it != anchors_.end()) {
    pending_.push_back(it->second);
    return true;
  }
  const size_t star = at > 0 && text_[at - 1] == '*' ? at - 1 : at;
  const bool inside = std::any_of(open_.begin(), open_.end(), [&](const Open& o) { return o.anchor == name; });
  error_ = error_at(star, inside ? "alias *" + printable(name, 80) + " is inside the node it names (&" +
                                       printable(name, 80) + "): that would nest it in itself forever"
                                 : "alias *" + printable(name, 80) + " names no anchor: write &" + printable(name, 80) +
                                       " on a value before it");
  return false;
}

bool YamlTreeBuilder::open(fy_event* e, YamlNode::Kind kind) {
  fy_token* anchor_token = kind == YamlNode::Kind::sequence ? e->sequence_start.anchor : e->mapping_start.anchor;
  fy_token* tag_token = kind == YamlNode::Kind::sequence ? e->sequence_start.tag : e->mapping_start.tag;
  const std::optional<size_t> props = properties(anchor_token, tag_token);
  const fy_mark* m = fy_event_start_mark(e);
  size_t own = m ? m->input_pos : empty_at();
  fy_token* t = fy_event_get_token(e);
  if (fy_token_get_type(t) == FYTT_FLOW_MAPPING_START && own < text_.size() && text_[own] != '{') {
    // A single pair in a flow list ("[a: 1]") is a mapping marked at its ':'; yaml-cpp placed it
    // at its key, the token after the '[' or ','.
    own = skip_blank(last_end_);
    if (own < text_.size() && text_[own] == ',') own = skip_blank(own + 1);
  } else if (t != nullptr) {
    saw(t);
  }
  const size_t pos = props ? *props : own;
  if (open_.size() >= max_depth_) {
    error_ = error_at(pos, "nested more than " + std::to_string(max_depth_) + " levels deep");
    return false;
  }
  const auto [line, col] = lines_.at(pos);
  std::string anchor;
  if (fy_token* a = anchor_token) {
    // Until it closes, the node cannot be aliased: an alias inside it names nothing finished.
    anchor = std::string(token_text(a));
    anchors_.erase(anchor);
  }
  open_.push_back({kind, line, col, pending_.size(), own, std::move(anchor)});
  return true;
}

void YamlTreeBuilder::close() {
  Open o = std::move(open_.back());
  open_.pop_back();
  const auto first = pending_.begin() + static_cast<std::ptrdiff_t>(o.first);
  const size_t n = pending_.size() - o.first;
  const void* data = nullptr;
  size_t size = 0;
  if (o.kind == YamlNode::Kind::sequence && n > 0) {
    auto* items = static_cast<YamlNode*>(tree_.allocate(n * sizeof(YamlNode), alignof(YamlNode)));
    std::uninitialized_copy(first, pending_.end(), items);
    data = items;
    size = n;
  } else if (o.kind == YamlNode::Kind::mapping && n > 0) {
    size = n / 2;  // libfyaml sends a value for every key
    auto* entries = static_cast<YamlEntry*>(tree_.allocate(size * sizeof(YamlEntry), alignof(YamlEntry)));
    for (size_t i = 0; i < size; ++i) new (&entries[i]) YamlEntry{first[2 * i], first[2 * i + 1]};
    data = entries;
  }
  pending_.erase(first, pending_.end());
  const YamlNode done(o.kind, o.line, o.col, data, static_cast<uint32_t>(size));
  if (!o.anchor.empty()) anchors_[o.anchor] = done;
  pending_.push_back(done);
}

/// The innermost '[' or '{' still open at `pos`, if `pos` is inside brackets. libfyaml reports an
/// error before it sends the events of the tokens it has scanned, so the open nodes may not know
/// the innermost bracket yet: from the outermost open one, the text is scanned again. Inside
/// brackets, '[', ']', '{' and '}' are always indicators, except in quoted scalars and comments.
std::optional<size_t> YamlTreeBuilder::open_bracket(size_t pos) const {
  const auto outer = std::find_if(open_.begin(), open_.end(), [&](const Open& o) {
    return o.own < pos && (text_[o.own] == '[' || text_[o.own] == '{');
  });
  if (outer == open_.end()) return std::nullopt;
  std::vector<size_t> brackets;
  char before = '[';  // the last character that was not blank
  for (size_t i = outer->own; i < pos; ++i) {
    const char c = text_[i];
    if (c == '[' || c == '{') {
      brackets.push_back(i);
    } else if (c == ']' || c == '}') {
      brackets.pop_back();
      if (brackets.empty()) return std::nullopt;  // back in block context: not inside brackets
    } else if ((c == '"' || c == '\'') && std::string_view("[{,:?").find(before) != std::string_view::npos) {
      // A quote starts a scalar only where a node starts (not in "it's").
      for (++i; i < pos && text_[i] != c; ++i) {
        if (c == '"' && text_[i] == '\\') ++i;
      }
    } else if (c == '#' && std::string_view(" \t\r\n").find(text_[i - 1]) != std::string_view::npos) {
      while (i < pos && text_[i] != '\n' && text_[i] != '\r') ++i;
      continue;
    }
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') before = c;
  }
  return brackets.empty() ? std::nullopt : std::optional<size_t>(brackets.back());
}

YamlError YamlTreeBuilder::syntax_error(fy_diag* diag) {
  const fy_diag_error* first = nullptr;
  void* iter = nullptr;
  while (const fy_diag_error* d = fy_diag_errors_iterate(diag, &iter)) {
    if (d->type >= FYET_ERROR) {
      first = d;
      break;
    }
  }
  if (first == nullptr) {
    return error_at(std::min(last_end_, text_.size()), "the YAML parser stopped here");
  }
  // libfyaml counts columns in characters; ours are bytes, like every other position we print.
  const size_t line_start = lines_.start(first->line);
  size_t pos = line_start;
  for (int c = 1; c < first->column && pos < text_.size() && text_[pos] != '\n' && text_[pos] != '\r'; ++c) {
    uint32_t cp = 0;
    pos += std::max<size_t>(1, utf8_sequence(text_, pos, cp));
  }
  pos = std::min(pos, text_.size());
  YamlError out = error_at(pos, printable(first->msg ? first->msg : "syntax error", kMaxMessageBytes));
  const std::string_view msg = first->msg ? first->msg : "";
  if (msg.starts_with("invalid escape") && pos + 1 < text_.size() && text_[pos] == '\\') {
    // libfyaml shows the character after the backslash raw, or as "\e" for ESC (itself a valid escape).
    uint32_t cp = 0;
    const size_t len = std::max<size_t>(1, utf8_sequence(text_, pos + 1, cp));
    out.message = "unknown escape character: " + printable(text_.substr(pos + 1, len), 16) +
                  " (in double quotes, a backslash starts an escape; write \\\\ for a backslash)";
  } else if (msg.starts_with("wrongly indented") && msg.ends_with("-quoted scalar")) {
    // What libfyaml sees is the next lines, not indented as the text of a quoted string would be.
    out.message += " (is its closing quote missing?)";
  }
  // The innermost open bracket is what the user has to find: an unclosed one is only noticed at
  // the end of the file, far from it.
  if (const std::optional<size_t> bracket = open_bracket(pos)) {
    const bool map = text_[*bracket] == '{';
    const auto [line, col] = lines_.at(*bracket);
    if (skip_blank(pos) >= text_.size()) {
      out = {static_cast<int>(line), static_cast<int>(col),
             map ? R"("{" is never closed: the "}" that ends it is missing)"
                 : R"("[" is never closed: the "]" that ends it is missing)"};
    } else if (msg.find("flow") != std::string_view::npos) {
      out.message += std::string(" (in the \"") + (map ? '{' : '[') + "\" at " + std::to_string(line) + ":" +
                     std::to_string(col) + ")";
    }
  }
  return out;
}

bool YamlTreeBuilder::on_event(fy_event* e) {
  switch (e->type) {
    case FYET_SCALAR: return scalar(e);
    case FYET_ALIAS: return alias(e);
    case FYET_SEQUENCE_START: return open(e, YamlNode::Kind::sequence);
    case FYET_MAPPING_START: return open(e, YamlNode::Kind::mapping);
    case FYET_SEQUENCE_END:
    case FYET_MAPPING_END:
      if (fy_token* t = fy_event_get_token(e)) saw(t);
      close();
      return true;
    default: return true;
  }
}

Expected<YamlTree, YamlError> YamlTreeBuilder::run() {
  if (text_.size() >= std::numeric_limits<uint32_t>::max()) return unexpected(YamlError{0, 0, "input over 4 GiB"});
  if (const std::optional<size_t> bad = first_non_text(text_)) {
    const unsigned char c = static_cast<unsigned char>(text_[*bad]);
    static const char* hex = "0123456789abcdef";
    const std::string byte = std::string("\\x") + hex[c >> 4] + hex[c & 15];
    return unexpected(error_at(
        *bad, c == 0 ? "NUL byte (\\x00): not a text file" : "byte " + byte + " is not UTF-8: save the file as UTF-8"));
  }
  fy_diag_cfg dcfg{};
  fy_diag_cfg_default(&dcfg);
  dcfg.fp = nullptr;
  dcfg.output_fn = discard_output;
  dcfg.colorize = false;
  const std::unique_ptr<fy_diag, DiagDeleter> diag(fy_diag_create(&dcfg));
  if (!diag) return unexpected(YamlError{0, 0, "cannot start the YAML parser"});
  fy_diag_set_collect_errors(diag.get(), true);
  fy_parse_cfg cfg{};
  cfg.flags = static_cast<fy_parse_cfg_flags>(FYPCF_QUIET | FYPCF_JSON_NONE);
  cfg.diag = diag.get();
  const std::unique_ptr<fy_parser, ParserDeleter> parser(fy_parser_create(&cfg));
  if (!parser || fy_parser_set_string(parser.get(), text_.data(), text_.size()) != 0)
    return unexpected(YamlError{0, 0, "cannot start the YAML parser"});

  // Only the first document counts, as in yaml-cpp's Load: stop at its end, before parsing (and
  // failing on) the next. The event after it tells whether the input was read to its end.
  bool complete = false;  // the first document has ended
  bool marked = false;    // ... at a "---" or "..." that starts the next part of the stream
  for (;;) {
    fy_event* e = fy_parser_parse(parser.get());
    if (e == nullptr) {
      // A broken later document is not ours to read; but without a marker, what follows the end
      // of the first document is more of it ("a: 1" then a line that cannot continue it).
      if (complete && marked) break;
      return unexpected(syntax_error(diag.get()));
    }
    const fy_event_type type = e->type;
    const fy_mark* mark = fy_event_start_mark(e);
    const size_t at = mark ? mark->input_pos : text_.size();
    if (type == FYET_DOCUMENT_END) marked = !e->document_end.implicit || at_marker(skip_blank(last_end_));
    const bool ok = complete || type == FYET_STREAM_END || on_event(e);
    fy_parser_event_free(parser.get(), e);
    if (!ok) return unexpected(std::move(*error_));
    if (type == FYET_STREAM_END && skip_blank(at) < text_.size()) {
      // Defence in depth: libfyaml ends the stream quietly at some bytes it cannot read.
      return unexpected(error_at(at, "the YAML parser stopped here, before the end of the file"));
    }
    if (complete || type == FYET_STREAM_END) break;
    complete = type == FYET_DOCUMENT_END;
  }
  // A stream without a document (empty, or only comments) is a null root at 0:0, as in yaml-cpp.
  tree_.root_ = pending_.empty() ? YamlNode(YamlNode::Kind::null, 0, 0, nullptr, 0) : pending_.front();
  return std::move(tree_);
}

Expected<YamlTree, YamlError> parse_yaml_tree(std::string_view text, size_t max_depth) {
  return YamlTreeBuilder(text, max_depth).run();
}

}  // namespace fabricctl

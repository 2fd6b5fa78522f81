// A name pattern of `fabricctl design` (docs/design.md "Names"): text with placeholders such as
// "p{pod:02}-rail{rail}", expanded once per device from its position in the design. Positions, not
// counts, fill the placeholders, so a fabric that grows keeps every name it had.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.h"

namespace fabricctl::design {

/// What a placeholder can stand for. pod, host, pod_host and spine count from 1 (as people count
/// pods, servers and spines); rail counts from 0, as the inventory's `rail:` key does; name is the
/// device's own name (in an address pattern); in a port pattern, port counts from 1 and index from 0.
enum class Placeholder : uint8_t { pod, host, pod_host, rail, spine, name, port, index };
inline constexpr size_t kFieldCount = 8;

/// The values of one device's placeholders (a field it has no position for is never read: the
/// pattern was checked against the fields of its tier).
struct Position {
  std::array<int64_t, kFieldCount> number{};
  std::string_view name;
  void set(Placeholder f, int64_t v) { number[static_cast<size_t>(f)] = v; }
};

class NameTemplate {
 public:
  NameTemplate() = default;
  /// The text with every placeholder filled in.
  [[nodiscard]] std::string expand(const Position& at) const;
  /// Whether the pattern uses `f`.
  [[nodiscard]] bool uses(Placeholder f) const;
  /// As written.
  [[nodiscard]] const std::string& text() const { return text_; }
  [[nodiscard]] bool empty() const { return text_.empty(); }

 private:
  friend Expected<NameTemplate> parse_name_template(std::string_view text, const std::vector<Placeholder>& allowed);
  struct Piece {
    std::string literal;  // text before the placeholder
    bool placeholder = false;
    Placeholder field{};
    int width = 0;  // zero-padded to this many digits ({host:02} is 2)
  };
  std::string text_;
  std::vector<Piece> pieces_;
};

/// Reads a pattern whose placeholders are among `allowed`: `{field}` or `{field:0N}` (N 1-9). The
/// error names what is wrong and quotes the pattern.
Expected<NameTemplate> parse_name_template(std::string_view text, const std::vector<Placeholder>& allowed);

/// The placeholder's name as written: "pod", "host", ...
std::string_view to_string(Placeholder f);

}  // namespace fabricctl::design

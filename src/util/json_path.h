// JSON paths for messages: `ports.Ethernet0.mtu`, `ports.Ethernet0.ets[1]`. The reader descends
// through every value of every document, but needs a path's text only for the rare message: a Path
// is a step (a key or an index) on top of the Path it was made from, and becomes text on demand.
// Building the text eagerly, one std::string per value read, used to cost half of the snapshot read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace fabricctl::jsonr {

/// A path in a document. It refers to the Path it was made from and to the bytes of its key (or
/// text), without copying them: keep those alive while it is used, e.g. as function parameters and
/// locals of enclosing scopes. `child(path, "a")` passed straight to a call is fine; a named Path
/// made from a temporary one (`const Path p = child(child(path, "a"), "b");`) dangles.
class Path {
 public:
  Path() noexcept = default;  // the top level, ""
  // Implicit by design: a path given as text, as in fail("ports", ...).
  Path(const char* text) noexcept : text_(text) {}         // NOLINT
  Path(const std::string& text) noexcept : text_(text) {}  // NOLINT
  Path(std::string_view text) noexcept : text_(text) {}    // NOLINT

  /// The path as text: "" at the top level.
  [[nodiscard]] std::string str() const;

 private:
  enum class Step : uint8_t { text, key, index };
  friend Path child(const Path& path, std::string_view key) noexcept;
  friend Path element(const Path& path, size_t i) noexcept;

  const Path* parent_ = nullptr;
  std::string_view text_;  // Step::text: the whole path; Step::key: the key
  size_t index_ = 0;       // Step::index
  Step step_ = Step::text;
};

/// One step down: `child("ports", "Ethernet0")` is "ports.Ethernet0", `element("ets", 1)` is "ets[1]".
/// A key outside [A-Za-z0-9/._:-] (or empty, or longer than 63 bytes) is quoted, so a hostile key
/// can never inject text into a message.
Path child(const Path& path, std::string_view key) noexcept;
Path element(const Path& path, size_t i) noexcept;

/// The same steps on text, for code that keeps its path as a string (util/json_locate.cpp).
std::string child_text(const std::string& path, std::string_view key);
std::string element_text(const std::string& path, size_t i);

}  // namespace fabricctl::jsonr

// Diagnostics: located error messages collected by the core and printed once at the top.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace fabricctl {

/// A position in an input file. Lines and columns are 1-based; 0 means "unknown".
struct Loc {
  std::shared_ptr<const std::string> file;
  int line = 0;
  int col = 0;

  [[nodiscard]] std::string str() const;
  friend bool operator<(const Loc& a, const Loc& b);
};

/// One error about the input: "file:line:col: message".
struct Diag {
  Loc loc;
  std::string message;

  [[nodiscard]] std::string str() const { return loc.str() + ": " + message; }
};

/// An ordered, de-duplicated collection of diagnostics.
class Diags {
 public:
  void error(const Loc& loc, std::string message);
  [[nodiscard]] bool empty() const { return items_.empty(); }
  [[nodiscard]] size_t size() const { return items_.size(); }
  /// Sorted by file, line and column, duplicates removed: stable output whatever the order of checks.
  [[nodiscard]] std::vector<Diag> sorted() const;
  /// All messages, one per line, in sorted order.
  [[nodiscard]] std::string str() const;

 private:
  std::vector<Diag> items_;
};

/// Quotes a value for a message: "value", with control characters escaped and long values cut.
std::string quote(std::string_view value);

/// `value` with control characters (C0, DEL, C1), '"' and '\\' escaped, cut after `max_bytes` bytes
/// (with "..."): safe to print on a terminal. quote() is this between double quotes.
std::string printable(std::string_view value, size_t max_bytes);

}  // namespace fabricctl

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

/// How bad a diagnostic is. Errors stop the pipeline (exit 2); warnings and notes do not.
/// (Not verify's finding Severity: that judges the fabric, this judges the input.)
enum class DiagSeverity { error, warning, note };

/// One problem with the input: "file:line:col: message" for an error (the form every existing
/// message and test uses), "file:line:col: warning: message" and "file:line:col: note: message"
/// for the others.
struct Diag {
  Loc loc;
  std::string message;
  DiagSeverity severity = DiagSeverity::error;

  [[nodiscard]] std::string str() const;
};

/// An ordered, de-duplicated collection of diagnostics: the core records every mistake it finds
/// and goes on; the command line prints them once. For an operation that fails once (read a file,
/// parse one document), return Expected<T> (util/expected.h) instead.
class Diags {
 public:
  void error(const Loc& loc, std::string message);
  void warning(const Loc& loc, std::string message);
  void note(const Loc& loc, std::string message);
  /// Adds every diagnostic of `other` (collected on another thread, say).
  void append(Diags&& other);
  /// No diagnostic of any severity.
  [[nodiscard]] bool empty() const { return items_.empty(); }
  /// At least one error: the input is invalid. Warnings and notes alone do not fail a run.
  [[nodiscard]] bool has_errors() const { return errors_ > 0; }
  [[nodiscard]] size_t size() const { return items_.size(); }
  /// Sorted by file, line and column, duplicates removed: stable output whatever the order of checks.
  [[nodiscard]] std::vector<Diag> sorted() const;
  /// All messages, one per line, in sorted order.
  [[nodiscard]] std::string str() const;

 private:
  void add(const Loc& loc, std::string message, DiagSeverity severity);

  std::vector<Diag> items_;
  size_t errors_ = 0;
};

/// Quotes a value for a message: "value", with control characters escaped and long values cut.
std::string quote(std::string_view value);

/// `value` with control characters (C0, DEL, C1), '"' and '\\' escaped, cut after `max_bytes` bytes
/// (with "..."): safe to print on a terminal. quote() is this between double quotes.
std::string printable(std::string_view value, size_t max_bytes);

}  // namespace fabricctl

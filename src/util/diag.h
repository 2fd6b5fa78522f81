// Diagnostics: located error messages collected by the core and printed once at the top, root
// causes first: what follows from an earlier error is dropped, and one mistake repeated on many
// devices is one line.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
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

/// What stage found a diagnostic, in the order they are printed: a file that cannot be read or
/// parsed explains more than a value of the wrong shape, which explains more than a broken rule.
enum class DiagClass {
  read,       // a file or directory cannot be read, or is not YAML
  structure,  // the YAML is not the schema: unknown or duplicate keys, wrong types, missing keys
  rule,       // references between objects and the domain rules (the default)
};

/// Where a diagnostic puts the names of the objects it is about (Diag::about), when the message
/// is to read "... on eos device "leaf2" ..." rather than end in "(devices leaf1, leaf2)". A
/// control character: printable() escapes every one in user values, so it never comes from input.
inline constexpr std::string_view kSubjects = "\x1f";

/// One problem with the input: "file:line:col: message" for an error (the form every existing
/// message and test uses), "file:line:col: warning: message" and "file:line:col: note: message"
/// for the others.
struct Diag {
  Loc loc;
  std::string message;
  DiagSeverity severity = DiagSeverity::error;
  DiagClass cls = DiagClass::rule;
  /// Printed after the subjects: "; did you mean \"x\"?".
  std::string hint;
  /// The objects the message is about ("device", {"leaf1"}). Diagnostics that differ only in
  /// their location and subjects print as one line, at the first location, naming them all.
  std::string subject_kind;
  std::vector<std::string> subjects;
  /// Entities (Diags::fail) whose failure explains this diagnostic: it is dropped when any of
  /// them failed, since its cause is reported.
  std::vector<std::string> causes;

  /// About `name`, an object of `kind` (singular: "device").
  Diag& about(std::string_view kind, std::string_view name);
  /// A consequence of `entity` failing.
  Diag& because(std::string entity);
  /// Appends a hint ("; did you mean ...?"), printed after the subjects.
  Diag& suggest(const std::string& text);
  /// The message with its subjects and hint, without location or severity.
  [[nodiscard]] std::string text() const;
  [[nodiscard]] std::string str() const;
};

/// An ordered, de-duplicated collection of diagnostics: the core records every mistake it finds
/// and goes on; the command line prints them once. For an operation that fails once (read a file,
/// parse one document), return Expected<T> (util/expected.h) instead.
///
/// The reference returned by error(), warning() and note() is valid until the next one is added:
/// use it at once to add subjects, causes or a hint.
class Diags {
 public:
  Diag& error(const Loc& loc, std::string message, DiagClass kind = DiagClass::rule);
  Diag& warning(const Loc& loc, std::string message, DiagClass kind = DiagClass::rule);
  Diag& note(const Loc& loc, std::string message, DiagClass kind = DiagClass::rule);
  /// Records that `entity` (a file, a device, "the inventory") failed and its cause is reported:
  /// diagnostics caused by it are dropped.
  void fail(std::string entity);
  [[nodiscard]] bool failed(const std::string& entity) const { return failed_.count(entity) > 0; }
  /// Adds every diagnostic and failed entity of `other` (collected on another thread, say).
  void append(Diags&& other);
  /// No diagnostic of any severity.
  [[nodiscard]] bool empty() const { return items_.empty(); }
  /// At least one error: the input is invalid. Warnings and notes alone do not fail a run.
  [[nodiscard]] bool has_errors() const { return errors_ > 0; }
  [[nodiscard]] size_t size() const { return items_.size(); }
  /// What is printed: consequences of failed entities dropped, diagnostics that differ only in
  /// location and subjects folded into the first, duplicates removed; sorted by severity, then
  /// class (read, structure, rule), then file, line and column: stable whatever the order of checks.
  [[nodiscard]] std::vector<Diag> sorted() const;
  /// How many lines of `severity` sorted() prints.
  [[nodiscard]] size_t count(DiagSeverity severity) const;
  /// All messages, one per line, in sorted order.
  [[nodiscard]] std::string str() const;

 private:
  Diag& add(const Loc& loc, std::string message, DiagSeverity severity, DiagClass kind);

  std::vector<Diag> items_;
  std::unordered_set<std::string> failed_;
  size_t errors_ = 0;
};

/// Quotes a value for a message: "value", with control characters escaped and long values cut.
std::string quote(std::string_view value);

/// `value` with control characters (C0, DEL, C1), '"' and '\\' escaped, cut after `max_bytes` bytes
/// (with "..."): safe to print on a terminal. quote() is this between double quotes.
std::string printable(std::string_view value, size_t max_bytes);

}  // namespace fabricctl

#include "cli/validate_json.h"

#include <nlohmann/json.hpp>

namespace fabricctl {
namespace {

using ojson = nlohmann::ordered_json;

const char* severity_name(DiagSeverity s) {
  switch (s) {
    case DiagSeverity::error: return "error";
    case DiagSeverity::warning: return "warning";
    case DiagSeverity::note: return "note";
  }
  return "error";
}

const char* class_name(DiagClass c) {
  switch (c) {
    case DiagClass::read: return "read";
    case DiagClass::structure: return "structure";
    case DiagClass::rule: return "rule";
  }
  return "rule";
}

/// A 1-based position, or null where it is unknown (0).
ojson position(int n) { return n > 0 ? ojson(n) : ojson(nullptr); }

ojson diagnostic(const Diag& d) {
  ojson j = ojson::object();
  j["severity"] = severity_name(d.severity);
  j["class"] = class_name(d.cls);
  j["file"] = d.loc.file ? ojson(*d.loc.file) : ojson(nullptr);
  j["line"] = position(d.loc.line);
  j["col"] = position(d.loc.col);
  j["message"] = d.text();
  if (d.subjects.empty()) {
    j["subjects"] = nullptr;
  } else {
    j["subjects"] = {{"kind", d.subject_kind}, {"names", d.subjects}};
  }
  return j;
}

}  // namespace

std::string validate_json(const std::string& inventory, const std::vector<std::string>& path_errors, const Diags& diags,
                          const std::optional<ValidateCounts>& counts) {
  const std::vector<Diag> sorted = diags.sorted();
  size_t errors = path_errors.size(), warnings = 0, notes = 0;
  for (const Diag& d : sorted) {
    if (d.severity == DiagSeverity::error) ++errors;
    else if (d.severity == DiagSeverity::warning) ++warnings;
    else ++notes;
  }
  ojson doc = ojson::object();
  doc["schema"] = "fabricctl.validate/v1";
  doc["inventory"] = inventory;
  doc["valid"] = errors == 0;
  ojson summary = ojson::object();
  summary["errors"] = errors;
  summary["warnings"] = warnings;
  summary["notes"] = notes;
  summary["devices"] = counts ? ojson(counts->devices) : ojson(nullptr);
  summary["ports"] = counts ? ojson(counts->ports) : ojson(nullptr);
  summary["links"] = counts ? ojson(counts->links) : ojson(nullptr);
  doc["summary"] = summary;
  ojson list = ojson::array();
  // A directory that cannot be used is printed before everything else, as in the text form.
  for (const std::string& e : path_errors)
    list.push_back({{"severity", "error"},
                    {"class", "read"},
                    {"file", nullptr},
                    {"line", nullptr},
                    {"col", nullptr},
                    {"message", e},
                    {"subjects", nullptr}});
  for (const Diag& d : sorted) list.push_back(diagnostic(d));
  doc["diagnostics"] = list;
  return doc.dump(2) + "\n";
}

}  // namespace fabricctl

// Where verify's reports go: one format on stdout (-o), and any number of FORMAT=FILE reports
// (--report, repeatable) from the same run, so CI gets JUnit and a dashboard Prometheus without
// verifying twice.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "report/report.h"
#include "util/expected.h"

namespace fabricctl {

enum class ReportFormat { table, json, junit, prometheus, html };

/// The format names, in the order --help lists them.
const std::vector<std::string_view>& report_format_names();
/// The format of that name; the error names the value and suggests a close one.
Expected<ReportFormat> parse_report_format(std::string_view name);

struct ReportFile {
  ReportFormat format = ReportFormat::json;
  std::string path;
};

/// Parses one --report value, "FORMAT=FILE" (the file may contain '=', the format may not).
Expected<ReportFile> parse_report_file(std::string_view spec);

/// How the writers are asked: JUnit's test cases, and colour for the table.
struct ReportStyle {
  JunitCases junit = JunitCases::each;
  bool color = false;
  const FabricDesired* fabric = nullptr;             // the intent html draws; without it the page has no picture
  const std::vector<RateSample>* history = nullptr;  // html's rate charts over several judgements
};

/// Writes `r` in `format` to `out`.
void write_report(const VerifyReport& r, ReportFormat format, const ReportStyle& style, std::ostream& out);

/// Writes `r` in `format` to `path`, atomically (a reader never sees half a report; a failed write
/// leaves the previous file). Files are never coloured.
Expected<void> write_report_file(const VerifyReport& r, const ReportFile& file, const ReportStyle& style);

}  // namespace fabricctl

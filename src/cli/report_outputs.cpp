#include "cli/report_outputs.h"

#include <algorithm>
#include <sstream>

#include "cli/args.h"
#include "util/diag.h"
#include "util/file_io.h"

namespace fabricctl {

namespace {

struct FormatRow {
  std::string_view name;
  ReportFormat format;
};

constexpr FormatRow kFormats[] = {
    {"table", ReportFormat::table},           {"json", ReportFormat::json}, {"junit", ReportFormat::junit},
    {"prometheus", ReportFormat::prometheus}, {"html", ReportFormat::html},
};

}  // namespace

const std::vector<std::string_view>& report_format_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v;
    for (const FormatRow& f : kFormats) v.push_back(f.name);
    return v;
  }();
  return names;
}

Expected<ReportFormat> parse_report_format(std::string_view name) {
  for (const FormatRow& f : kFormats)
    if (f.name == name) return f.format;
  return unexpected(check_choice("report format", name, report_format_names()));
}

Expected<ReportFile> parse_report_file(std::string_view spec) {
  const size_t eq = spec.find('=');
  if (eq == std::string_view::npos)
    return unexpected("--report " + quote(spec) + " is not FORMAT=FILE (e.g. --report junit=verify.xml)");
  const auto format = parse_report_format(spec.substr(0, eq));
  if (!format) return unexpected(format.error());
  if (eq + 1 == spec.size()) return unexpected("--report " + quote(spec) + " names no file");
  return ReportFile{*format, std::string(spec.substr(eq + 1))};
}

void write_report(const VerifyReport& r, ReportFormat format, const ReportStyle& style, std::ostream& out) {
  switch (format) {
    case ReportFormat::table: out << report_table(r, style.color); break;
    case ReportFormat::json: out << report_json(r); break;
    case ReportFormat::junit: write_junit(r, out, style.junit); break;
    case ReportFormat::prometheus: out << report_prometheus(r); break;
    case ReportFormat::html:
      write_html(r, style.fabric != nullptr ? *style.fabric : FabricDesired{}, out,
                 style.history != nullptr ? *style.history : std::vector<RateSample>{});
      break;
  }
}

Expected<void> write_report_file(const VerifyReport& r, const ReportFile& file, const ReportStyle& style) {
  ReportStyle plain = style;
  plain.color = false;
  std::ostringstream text;
  write_report(r, file.format, plain, text);
  if (auto written = write_file_atomic(file.path, text.view()); !written)
    return unexpected("--report " + written.error());
  return {};
}

}  // namespace fabricctl

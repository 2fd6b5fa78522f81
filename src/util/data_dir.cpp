#include "util/data_dir.h"

#include <fstream>
#include <system_error>

namespace fabricctl {

namespace fs = std::filesystem;

namespace {

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// The marker's first line, trailing whitespace removed; nullopt when there is no marker file.
std::optional<std::string> marker_line(const fs::path& marker) {
  std::error_code ec;
  if (!fs::is_regular_file(marker, ec)) return std::nullopt;
  std::ifstream in(marker);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
  return line;
}

}  // namespace

std::optional<fs::path> executable_path() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec || p.empty()) return std::nullopt;
  return p;
}

std::optional<DataDir> find_data_dir(const std::optional<fs::path>& exe, const DataDirRule& rule) {
  if (exe) {
    const fs::path dir = exe->parent_path();
    const fs::path marker = dir / rule.marker;
    if (const auto line = marker_line(marker); line && !line->empty()) {
      const fs::path named = (dir / *line).lexically_normal();  // an absolute line replaces dir
      if (is_dir(named)) return DataDir{named, "named by " + marker.string()};
    }
    const fs::path relative = (dir / rule.exe_relative).lexically_normal();
    if (is_dir(relative)) return DataDir{relative, "beside the executable"};
  }
  if (!rule.compiled.empty() && is_dir(rule.compiled)) return DataDir{rule.compiled, "built-in"};
  return std::nullopt;
}

std::vector<fs::path> data_dir_candidates(const std::optional<fs::path>& exe, const DataDirRule& rule) {
  std::vector<fs::path> out;
  if (exe) out.push_back((exe->parent_path() / rule.exe_relative).lexically_normal());
  if (!rule.compiled.empty()) out.push_back(rule.compiled);
  return out;
}

std::vector<std::string> split_path_list(std::string_view list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(':', start);
    if (end == std::string_view::npos) end = list.size();
    if (end > start) out.emplace_back(list.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

fs::path display_path(const fs::path& p, const fs::path& cwd) {
  if (!p.is_absolute() || cwd.empty()) return p;
  fs::path rel = p.lexically_normal().lexically_relative(cwd.lexically_normal());
  if (rel.empty() || *rel.begin() == "..") return p;
  return rel;
}

}  // namespace fabricctl

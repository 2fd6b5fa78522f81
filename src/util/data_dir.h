// Where a program finds the data it ships (profiles, templates): relative to its own executable,
// so that an installed tree can be moved as a whole (like git's RUNTIME_PREFIX), then at the prefix
// it was built for. A marker file beside the executable names the data directory explicitly: the
// build tree has one, pointing at the source tree, so a freshly built binary uses the repository's
// data without being installed.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabricctl {

/// The running program's executable (/proc/self/exe, symbolic links resolved), or nullopt when the
/// system does not say.
std::optional<std::filesystem::path> executable_path();

/// How to look for a data directory.
struct DataDirRule {
  std::string_view marker;             // file beside the executable whose first line names the directory
  std::filesystem::path exe_relative;  // tried from the executable's directory, e.g. "../share/<name>"
  std::filesystem::path compiled;      // the installed location the binary was built for (absolute)
};

/// A data directory found, and which rule found it (for messages).
struct DataDir {
  std::filesystem::path path;
  std::string how;  // "named by /x/fabricctl.datadir", "beside the executable", "built-in"
};

/// The first that holds: the directory named in `<exe dir>/<marker>` (relative to the executable's
/// directory unless absolute; it must exist), `<exe dir>/<exe_relative>` when it is a directory,
/// `compiled` when it is a directory. Nullopt when none does. `exe` may be absent (no /proc).
std::optional<DataDir> find_data_dir(const std::optional<std::filesystem::path>& exe, const DataDirRule& rule);

/// The places find_data_dir looks, in order, for a message that none was found.
std::vector<std::filesystem::path> data_dir_candidates(const std::optional<std::filesystem::path>& exe,
                                                       const DataDirRule& rule);

/// Splits a PATH-like list at ':' and drops empty entries ("a::b:" is a, b).
std::vector<std::string> split_path_list(std::string_view list);

/// `p` as a reader of messages would write it: relative to `cwd` when it lies below it
/// ("profiles/x.yaml"), otherwise unchanged (absolute). Lexical only: no file is read.
std::filesystem::path display_path(const std::filesystem::path& p, const std::filesystem::path& cwd);

}  // namespace fabricctl

// Command-line parsing shared by every command: one convention for options, help and usage errors.
// Options match exactly (no prefix guessing: a prefix that is unique today is ambiguous after the
// next release), a near miss gets a suggestion, and a stray positional argument is named.
#pragma once

#include <boost/program_options.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace fabricctl {

/// Parses `args` against `desc` (with one positional argument allowed when `desc` has the option named
/// `positional`: the inventory, unless the command reads another file first).
/// `usage` starts with "fabricctl <command>": --help prints it, the options and that command's
/// examples from the command table (cli/command.h). On --help prints to stdout and returns false with
/// kExitOk in `exit`; on a usage error prints it to stderr and returns false with kExitInvalid.
bool parse_args(const std::vector<std::string>& args, const boost::program_options::options_description& desc,
                std::string_view usage, int& exit, std::string_view positional = "inventory");

/// The message for an option that is not one of `desc`'s: with a suggestion when one is close
/// ("unknown option --inventroy; did you mean --inventory?") or when it is the prefix of exactly one.
std::string unknown_option_message(std::string_view option, const boost::program_options::options_description& desc);

/// A value of an option that must be one of `allowed`: nothing when it is, else the error message
/// with a suggestion ("unknown output format \"jsn\"; did you mean \"json\"? (table, json, ...)").
std::string check_choice(std::string_view what, std::string_view value, const std::vector<std::string_view>& allowed);

/// A usage error as the commands print it on stderr: "fabricctl: error: MESSAGE" and a newline.
inline std::string usage_error(const std::string& message) { return "fabricctl: error: " + message + "\n"; }

}  // namespace fabricctl

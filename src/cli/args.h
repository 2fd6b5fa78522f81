// Command-line parsing shared by every command: one convention for options, help and usage errors.
#pragma once

#include <boost/program_options.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace fabricctl {

/// Parses `args` against `desc` (with positional inventory allowed). On --help prints usage and
/// returns kExitOk in `exit`; on a usage error prints it and returns kExitInvalid.
bool parse_args(const std::vector<std::string>& args, const boost::program_options::options_description& desc,
                std::string_view usage, int& exit);

}  // namespace fabricctl

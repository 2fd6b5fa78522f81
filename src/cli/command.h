// The command table: every subcommand is one row (name, summary, handler), as in ninja's kTools.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fabricctl {

/// Exit codes (docs/cli.md): 0 success, 1 findings, 2 usage or invalid input, 3 device or transport
/// failure (could not see everything), 4 internal error (a bug in fabricctl, or out of memory).
enum Exit : int { kExitOk = 0, kExitFindings = 1, kExitInvalid = 2, kExitDevice = 3, kExitInternal = 4 };

struct Command {
  std::string_view name;
  std::string_view summary;
  int (*run)(const std::vector<std::string>& args);
  std::string_view examples;  // for --help: lines of "  $ fabricctl ..." with a word on what each does
};

const std::vector<Command>& commands();
/// The command of exactly that name, or nullptr.
const Command* find_command(std::string_view name);

/// Runs fabricctl with argv[1..]; returns the exit code. Errors are printed here and only here.
int run_cli(const std::vector<std::string>& args);

int cmd_validate(const std::vector<std::string>& args);
int cmd_render(const std::vector<std::string>& args);
int cmd_verify(const std::vector<std::string>& args);
int cmd_health(const std::vector<std::string>& args);
int cmd_triage(const std::vector<std::string>& args);
int cmd_acceptance(const std::vector<std::string>& args);
int cmd_baseline(const std::vector<std::string>& args);
int cmd_snapshot(const std::vector<std::string>& args);
int cmd_diff(const std::vector<std::string>& args);
int cmd_collect(const std::vector<std::string>& args);
int cmd_host(const std::vector<std::string>& args);
int cmd_plan(const std::vector<std::string>& args);
int cmd_apply(const std::vector<std::string>& args);
int cmd_design(const std::vector<std::string>& args);

}  // namespace fabricctl

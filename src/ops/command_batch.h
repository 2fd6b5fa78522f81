// Several commands in one SSH exec, for a device whose login shell runs lists (bash on SONiC and Cumulus
// Linux): each command is followed by `echo MARK $?`, MARK a word made for this exec, so that one channel
// carries what would take one each (a channel costs the device a fork, a login shell and its CLI's start;
// on a large fleet they add up). The output is split back at the marks, each command with its own exit
// status. Device output is untrusted: a mark missing or malformed ends the split there, and the commands
// after it have no output, as if the device lacked them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace fabricctl::ops {

/// A fresh mark: "fabricctl-end-" and 16 random hex digits, which no command's output holds by chance.
std::string batch_mark();

/// One command line running `lines` in turn, whatever each exits with: "A ; echo MARK $? ; B ; echo MARK $?".
std::string batch_line(const std::vector<std::string>& lines, std::string_view mark);

/// One command's part of the batch's output: what it printed and its exit status.
struct BatchPart {
  std::string out;
  int exit_status = 0;
};

/// The batch's output split at `mark`: at most `count` parts, in order. A part ends where "MARK <status>\n"
/// begins (its output need not end with a newline); a status that is not 0-255 ends the split.
std::vector<BatchPart> split_batch(std::string_view out, std::string_view mark, size_t count);

}  // namespace fabricctl::ops

#include "ops/command_batch.h"

#include <doctest/doctest.h>

using namespace fabricctl::ops;

TEST_CASE("command batch: one line, split back per command with its status") {
  const std::string mark = batch_mark();
  CHECK(mark.size() == 14 + 16);
  CHECK(mark != batch_mark());
  CHECK(batch_line({"show a", "show b"}, "M") == "show a ; echo M $? ; show b ; echo M $?");
  // The second command prints no final newline, the third fails.
  const auto parts = split_batch("line 1\nline 2\nM 0\nno newlineM 0\nError: no such command\nM 2\n", "M", 3);
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].out == "line 1\nline 2\n");
  CHECK(parts[1].out == "no newline");
  CHECK(parts[2].exit_status == 2);
  CHECK(parts[2].out == "Error: no such command\n");
}

TEST_CASE("command batch: a missing or malformed mark ends the split there") {
  CHECK(split_batch("out\nM 0\nout\n", "M", 2).size() == 1);           // the shell stopped
  CHECK(split_batch("out\nM 0\nM x\nM 0\n", "M", 3).size() == 1);      // not a status
  CHECK(split_batch("out\nM 300\n", "M", 1).empty());                  // out of range
  CHECK(split_batch("out\nM 0", "M", 1).empty());                      // cut before its newline
  CHECK(split_batch("a\nM 0\nb\nM 0\nc\nM 0\n", "M", 2).size() == 2);  // no more than asked
  CHECK(split_batch("bash: ;: syntax error\n", "M", 2).empty());
}

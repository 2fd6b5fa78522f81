#include "util/subprocess.h"

#include <doctest/doctest.h>

using namespace fabricctl;

TEST_CASE("subprocess: output of both streams, arguments never read by a shell, failures named") {
  auto out = run_command({"sh", "-c", "echo out; echo err >&2", "ignored"});
  REQUIRE(out);
  CHECK(*out == "out\nerr\n");
  // A value with shell syntax is one argument, printed as is.
  out = run_command({"printf", "%s", "$(touch /tmp/fabricctl-never); `id`"});
  REQUIRE(out);
  CHECK(*out == "$(touch /tmp/fabricctl-never); `id`");
  const auto failed = run_command({"sh", "-c", "echo 'fatal: bad revision'; exit 128"});
  REQUIRE_FALSE(failed);
  CHECK(failed.error() == "sh exited with status 128: fatal: bad revision");
  const auto missing = run_command({"fabricctl-no-such-tool"});
  REQUIRE_FALSE(missing);
  CHECK(missing.error().starts_with("fabricctl-no-such-tool"));
  // Output past the limit is drained, not kept, and the tool is not blocked on a full pipe.
  out = run_command({"sh", "-c", "head -c 300000 /dev/zero"}, 1000);
  REQUIRE(out);
  CHECK(out->size() == 1000);
}

TEST_CASE("subprocess: stderr apart, so a warning never mixes into output that is parsed") {
  std::string said;
  auto out = run_command({"sh", "-c", "echo '[WARN] lldpctl: something' >&2; echo '{}'"}, 1 << 20, &said);
  REQUIRE_MESSAGE(out, out.error());
  CHECK(*out == "{}\n");
  CHECK(said == "[WARN] lldpctl: something\n");
  // A failure is named by what it said on stderr.
  const auto failed =
      run_command({"sh", "-c", "echo partial; echo 'cannot connect to lldpd' >&2; exit 1"}, 1 << 20, &said);
  REQUIRE_FALSE(failed);
  CHECK(failed.error() == "sh exited with status 1: cannot connect to lldpd");
  // Both pipes are read while the tool runs: 300 kB on each does not block it.
  out = run_command({"sh", "-c", "head -c 300000 /dev/zero >&2; head -c 300000 /dev/zero"}, 1000, &said);
  REQUIRE(out);
  CHECK(out->size() == 1000);
  CHECK(said.size() == 1000);
}

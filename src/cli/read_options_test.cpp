// The options of reading devices live: -j as large as the descriptor limit allows, the connect rate.
#include "cli/read_options.h"

#include <doctest/doctest.h>
#include <sys/resource.h>

using namespace fabricctl;

TEST_CASE("read options: -j up to what the descriptor limit allows, once fabricctl raised it") {
  raise_descriptor_limit();
  rlimit r{};
  REQUIRE(getrlimit(RLIMIT_NOFILE, &r) == 0);
  if (r.rlim_max != RLIM_INFINITY) CHECK(r.rlim_cur == std::min<rlim_t>(r.rlim_max, rlim_t{1} << 20));
  const int most = max_jobs();
  CHECK(most >= 1);
  if (r.rlim_cur != RLIM_INFINITY)
    CHECK(static_cast<rlim_t>(most) == std::clamp<rlim_t>((r.rlim_cur - 64) / 2, 1, 65536));
  ReadOptions o;
  o.jobs = most;
  CHECK(check_read_options(o).empty());
  o.jobs = most + 1;
  CHECK(check_read_options(o) ==
        "-j takes 1-" + std::to_string(most) + " devices at once (the most the descriptor limit, `ulimit -n`, allows)");
  o.jobs = 0;
  CHECK_FALSE(check_read_options(o).empty());

  // A lower limit allows fewer: 1024 descriptors are 480 devices.
  const rlimit saved = r;
  r.rlim_cur = 1024;
  REQUIRE(setrlimit(RLIMIT_NOFILE, &r) == 0);
  CHECK(max_jobs() == 480);
  REQUIRE(setrlimit(RLIMIT_NOFILE, &saved) == 0);
}

TEST_CASE("read options: --connect-rate from 0 (no limit) to 100000 a second") {
  ReadOptions o;
  CHECK(o.connect_rate == 200);
  o.connect_rate = 0;
  CHECK(check_read_options(o).empty());
  for (const double bad : {-1.0, 100001.0}) {
    o.connect_rate = bad;
    CHECK(check_read_options(o) == "--connect-rate takes 0-100000 connections a second");
  }
}

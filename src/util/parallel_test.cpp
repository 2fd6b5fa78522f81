#include "util/parallel.h"

#include <doctest/doctest.h>

#include <atomic>
#include <set>
#include <stdexcept>
#include <vector>

namespace fabricctl {

TEST_CASE("parallel_for visits every index once, each on a worker number below the count") {
  for (size_t workers : {size_t{1}, size_t{2}, size_t{4}}) {
    CAPTURE(workers);
    std::vector<std::atomic<int>> visits(1000);
    std::atomic<bool> worker_in_range{true};
    parallel_for(visits.size(), workers, [&](size_t w, size_t i) {
      if (w >= workers) worker_in_range = false;
      ++visits[i];
    });
    CHECK(worker_in_range);
    for (const std::atomic<int>& v : visits) CHECK(v == 1);
  }
}

TEST_CASE("parallel_for rethrows the first exception after every thread has stopped") {
  std::atomic<size_t> ran{0};
  CHECK_THROWS_AS(parallel_for(10'000, 2,
                               [&](size_t, size_t i) {
                                 ++ran;
                                 if (i == 3) throw std::runtime_error("device 3");
                               }),
                  std::runtime_error);
  // The hand-out stops: far fewer than all iterations ran.
  CHECK(ran < 10'000);
}

TEST_CASE("worker_count: at least one, at most the cap, one per batch of iterations") {
  CHECK(worker_count(0, 8, 64) == 1);
  CHECK(worker_count(10, 8, 64) == 1);
  CHECK(worker_count(1'000'000, 1, 64) == 1);
  CHECK(worker_count(1'000'000, 8, 64) >= 1);
  CHECK(worker_count(1'000'000, 8, 64) <= 8);
}

}  // namespace fabricctl

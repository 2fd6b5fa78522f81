#include "util/parallel.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <stdexcept>
#include <thread>
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

TEST_CASE("parallel_for rethrows the first exception and stops handing out iterations") {
  // One worker: the hand-out is sequential, so exactly iterations 0 to 3 run.
  size_t ran = 0;
  CHECK_THROWS_AS(parallel_for(10'000, 1,
                               [&](size_t, size_t i) {
                                 ++ran;
                                 if (i == 3) throw std::runtime_error("device 3");
                               }),
                  std::runtime_error);
  CHECK(ran == 4);
}

TEST_CASE("parallel_for returns only after every thread has stopped, when one of them threw") {
  // The other thread is inside an iteration when the exception is thrown (each takes ~1 ms); none
  // may still be running once parallel_for has rethrown.
  std::atomic<int> in_flight{0};
  std::atomic<int> finished{0};
  CHECK_THROWS_AS(parallel_for(1000, 2,
                               [&](size_t, size_t i) {
                                 ++in_flight;
                                 if (i == 3) {
                                   --in_flight;
                                   throw std::runtime_error("device 3");
                                 }
                                 std::this_thread::sleep_for(std::chrono::milliseconds(1));
                                 ++finished;
                                 --in_flight;
                               }),
                  std::runtime_error);
  CHECK(in_flight == 0);
  CHECK(finished < 999);  // the hand-out stopped: a whole second of iterations did not run
}

TEST_CASE("worker_count: at least one, at most the cap, one per batch of iterations") {
  CHECK(worker_count(0, 8, 64) == 1);
  CHECK(worker_count(10, 8, 64) == 1);
  CHECK(worker_count(1'000'000, 1, 64) == 1);
  CHECK(worker_count(1'000'000, 8, 64) >= 1);
  CHECK(worker_count(1'000'000, 8, 64) <= 8);
}

}  // namespace fabricctl

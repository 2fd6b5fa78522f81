// Work spread over the machine's cores, for loops whose iterations are independent (one device
// each: parse its snapshot, render its files). Iterations are handed out one at a time, so a few
// heavy ones (spines with thousands of ports) do not leave the other threads idle.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace fabricctl {

/// How many threads parallel_for uses for `n` iterations: one per core, at most `max_workers`, and
/// one per `min_per_worker` iterations (a thread costs more than a few small iterations).
inline size_t worker_count(size_t n, size_t max_workers, size_t min_per_worker) {
  const size_t cores = std::max(1u, std::thread::hardware_concurrency());
  return std::max<size_t>(1, std::min({cores, max_workers, n / std::max<size_t>(1, min_per_worker) + 1}));
}

/// Calls fn(worker, i) for every i in [0, n), on `workers` threads (the caller's included);
/// `worker` (0 to workers - 1) lets each thread keep state of its own. Returns when all are done.
/// The first exception thrown by fn stops the hand-out and is rethrown here, after every thread
/// has finished.
template <class Fn>
void parallel_for(size_t n, size_t workers, Fn fn) {
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto run = [&](size_t worker) {
    try {
      for (size_t i = next++; i < n; i = next++) fn(worker, i);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = n;  // no new iterations
    }
  };
  std::vector<std::thread> pool;
  for (size_t w = 1; w < workers; ++w) pool.emplace_back(run, w);
  run(0);
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace fabricctl

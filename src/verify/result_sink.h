// Where a check puts its results. A pass is kept as references to the desired objects it is about,
// with no text: a 200k-link fabric has millions of them, and a Result (nine strings) per pass cost
// more than the checks themselves. Everything else (fail, missing, consequence) is a full Result.
#pragma once

#include <cstddef>
#include <vector>

#include "state/desired.h"
#include "verify/result.h"

namespace fabricctl {

struct Check;
struct LinkEnds;

class ResultSink {
 public:
  /// A passing result: a port (`b_device` null), a device (`a_port` also null) or a link.
  struct Pass {
    const DeviceDesired* a_device = nullptr;
    const PortDesired* a_port = nullptr;
    const DeviceDesired* b_device = nullptr;
    const PortDesired* b_port = nullptr;
    size_t position = 0;  // how many Results came before it: restores the order the check ran in
  };

  explicit ResultSink(const Check& check) : check_(&check) {}

  /// Empties the sink for `check`, keeping its capacity: the engine runs many checks through the same
  /// sinks, so that their pass lists (~16 MB each at R100k) are allocated and paged in once.
  void reset(const Check& check) {
    check_ = &check;
    passes_.clear();
    results_.clear();
    not_applicable_ = 0;
  }

  void pass(const DeviceDesired& d, const PortDesired& p) {
    passes_.push_back({&d, &p, nullptr, nullptr, results_.size()});
  }
  /// A passing device-level result.
  void pass(const DeviceDesired& d) { passes_.push_back({&d, nullptr, nullptr, nullptr, results_.size()}); }
  void pass(const LinkEnds& l);
  void add(Result r) { results_.push_back(std::move(r)); }
  /// An object the check does not apply to as it is (a down link's speed): counted, never a pass.
  void not_applicable() { ++not_applicable_; }

  [[nodiscard]] const std::vector<Pass>& passes() const { return passes_; }
  [[nodiscard]] std::vector<Result>& results() { return results_; }
  [[nodiscard]] const Check& check() const { return *check_; }
  [[nodiscard]] size_t not_applicable_count() const { return not_applicable_; }

  /// Every result in the order the check produced it, passes as full Results (tests, small fabrics).
  [[nodiscard]] std::vector<Result> all() const;

 private:
  const Check* check_;
  std::vector<Pass> passes_;
  std::vector<Result> results_;
  size_t not_applicable_ = 0;
};

}  // namespace fabricctl

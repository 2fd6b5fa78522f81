// What an operation reports while it runs, the way ninja's Builder reports to Status: progress phases
// (the terminal's progress line shows them) and the events of the audit record (the JSONL writer,
// audit_log.h, keeps them). Operations never print; they tell their observer.
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>
#include <vector>

namespace fabricctl::ops {

class Observer {
 public:
  virtual ~Observer() = default;
  /// What the run does now ("reading 18 devices"), replacing the previous phase. Called from worker
  /// threads, one at a time.
  virtual void phase(std::string_view what) { (void)what; }
  /// The phases are over for now: whatever shows them is cleared (before anything else is printed).
  virtual void clear() {}
  /// One event of the audit record (docs/apply.md): its name and fields, as it happens. Called from
  /// several worker threads at once: an implementation serialises.
  virtual void event(std::string_view /*name*/, const nlohmann::ordered_json& /*fields*/) {}
};

/// Hands every call on to each of its observers, in order.
class Observers final : public Observer {
 public:
  explicit Observers(std::vector<Observer*> all) : all_(std::move(all)) {}
  void phase(std::string_view what) override {
    for (Observer* o : all_) o->phase(what);
  }
  void clear() override {
    for (Observer* o : all_) o->clear();
  }
  void event(std::string_view name, const nlohmann::ordered_json& fields) override {
    for (Observer* o : all_) o->event(name, fields);
  }

 private:
  std::vector<Observer*> all_;
};

}  // namespace fabricctl::ops

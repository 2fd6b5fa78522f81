#include "ops/session_pool.h"

namespace fabricctl::ops {

/// The session a user holds: commands go to the kept session; given back when the user is done.
class SessionPool::Lease final : public DeviceSession {
 public:
  Lease(SessionPool& pool, std::string device, DeviceSession& session)
      : pool_(pool), device_(std::move(device)), session_(session) {}
  ~Lease() override { pool_.give_back(device_, &session_, broken_); }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;

  Expected<Reply> run(const std::string& command, std::string_view input) override {
    auto reply = session_.run(command, input);
    if (!reply) broken_ = true;  // timed out, cut off, the connection gone: never used again
    return reply;
  }

 private:
  SessionPool& pool_;
  std::string device_;
  DeviceSession& session_;
  bool broken_ = false;
};

SessionPool::~SessionPool() = default;

Expected<std::unique_ptr<DeviceSession>> SessionPool::open(const DeviceMgmt& mgmt) {
  std::unique_ptr<DeviceSession> stale;  // closed outside the lock: a disconnect may take a moment
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = kept_.find(mgmt.device);
    if (it != kept_.end() && !it->second.in_use) {
      if (!it->second.broken && clock_.now() - it->second.last_used <= max_idle_) {
        it->second.in_use = true;
        return std::unique_ptr<DeviceSession>(std::make_unique<Lease>(*this, mgmt.device, *it->second.session));
      }
      stale = std::move(it->second.session);  // idle too long: a new one is opened below
      kept_.erase(it);
    }
  }
  stale.reset();
  auto fresh = inner_.open(mgmt);
  if (!fresh) return unexpected(fresh.error());
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto it = kept_.find(mgmt.device);
  if (it != kept_.end()) return fresh;  // the device's session is in use: this one is the caller's alone
  Kept& k = kept_[mgmt.device];
  k.session = std::move(*fresh);
  k.in_use = true;
  return std::unique_ptr<DeviceSession>(std::make_unique<Lease>(*this, mgmt.device, *k.session));
}

void SessionPool::give_back(const std::string& device, DeviceSession* session, bool broken) {
  std::unique_ptr<DeviceSession> closing;
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto it = kept_.find(device);
  if (it == kept_.end() || it->second.session.get() != session) return;
  it->second.in_use = false;
  it->second.last_used = clock_.now();
  if (broken) {
    closing = std::move(it->second.session);
    kept_.erase(it);
  }
}

void SessionPool::release(const std::string& device) {
  std::unique_ptr<DeviceSession> closing;  // closed outside the lock: a disconnect may take a moment
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = kept_.find(device);
    if (it == kept_.end() || it->second.in_use) return;
    closing = std::move(it->second.session);
    kept_.erase(it);
  }
}

}  // namespace fabricctl::ops

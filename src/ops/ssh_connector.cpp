#include "ops/ssh_connector.h"

#include "transport/ssh_session.h"

namespace fabricctl::ops {
namespace {

SshEndpoint endpoint_of(const DeviceMgmt& m) {
  SshEndpoint e;
  e.device = m.device;
  e.address = m.address;
  e.port = m.port;
  e.user = m.user;
  e.key_file = m.key;
  e.agent = m.agent;
  e.password_env = m.password_env;
  e.host_key = m.host_key;
  return e;
}

class SshDeviceSession final : public DeviceSession {
 public:
  explicit SshDeviceSession(SshSession session) : session_(std::move(session)) {}
  Expected<Reply> run(const std::string& command, std::string_view input) override {
    auto out = session_.run(command, input);
    if (!out) return unexpected(out.error());
    return Reply{out->exit_status, std::move(out->out), std::move(out->err)};
  }

 private:
  SshSession session_;
};

class SshConnector final : public Connector {
 public:
  explicit SshConnector(const SshSettings& s) {
    options_.known_hosts = s.known_hosts.empty() ? default_known_hosts() : s.known_hosts;
    options_.accept_new_host_keys = s.accept_new_host_keys;
    options_.connect_timeout = s.connect_timeout;
    options_.command_timeout = s.command_timeout;
  }
  Expected<std::unique_ptr<DeviceSession>> open(const DeviceMgmt& mgmt) override {
    auto session = SshSession::open(endpoint_of(mgmt), options_);
    if (!session) return unexpected(session.error());
    return std::unique_ptr<DeviceSession>(std::make_unique<SshDeviceSession>(std::move(*session)));
  }
  [[nodiscard]] bool worth_retrying(const std::string& error) const override { return connection_refused(error); }

 private:
  SshOptions options_;
};

}  // namespace

std::unique_ptr<Connector> ssh_connector(const SshSettings& settings) {
  return std::make_unique<SshConnector>(settings);
}

}  // namespace fabricctl::ops

#include "ops/acceptance_run.h"

#include <future>
#include <set>
#include <thread>

#include "util/escape.h"
#include "util/file_io.h"
#include "util/names.h"

namespace fabricctl::ops {
namespace {

struct End {
  const DeviceDesired* device = nullptr;
  const PortDesired* port = nullptr;
  const DeviceMgmt* mgmt = nullptr;
};

End end_of(const Fabric& fabric, const std::string& endpoint) {
  const acceptance::PortRef at = acceptance::find_port(fabric.desired, endpoint);
  if (at.device == nullptr) return {};
  return {at.device, at.port, &fabric.mgmt[static_cast<size_t>(at.device - fabric.desired.devices.data())]};
}

/// perftest's client when nothing listens yet at the server's port (perftest_communication.c).
bool not_listening(const Reply& r) {
  return r.exit_status != 0 && (r.out + r.err).find("Couldn't connect to") != std::string::npos;
}

std::string failure(const std::string& who, const Expected<Reply>& r) {
  if (!r) return who + ": " + r.error();
  std::string first = r->err.substr(0, r->err.find('\n'));
  if (first.empty()) first = r->out.substr(0, r->out.find('\n'));
  return who + ": ib_write_bw exited with status " + std::to_string(r->exit_status) +
         (first.empty() ? "" : ": " + terminal_line(first.substr(0, 200)));
}

Expected<std::string> run_pair(const Fabric& fabric, const acceptance::Pair& pair, const AcceptanceRunOptions& o,
                               Context& ctx, const PauseFor& pause) {
  const End client = end_of(fabric, pair.client), server = end_of(fabric, pair.server);
  auto server_line = ib_write_bw_command(fabric, pair, false, o);
  auto client_line = ib_write_bw_command(fabric, pair, true, o);
  if (!server_line) return unexpected(server_line.error());
  if (!client_line) return unexpected(client_line.error());
  auto server_session = ctx.connector.open(*server.mgmt);
  if (!server_session) return unexpected(server_session.error());
  auto client_session = ctx.connector.open(*client.mgmt);
  if (!client_session) return unexpected(client_session.error());
  // The server runs until its client has run, or until the connector's command time ends it.
  std::future<Expected<Reply>> served =
      std::async(std::launch::async, [&] { return (*server_session)->run(*server_line, {}); });
  Expected<Reply> got = unexpected(std::string("not run"));
  for (int i = 0; i < o.connect_tries; ++i) {
    if (i > 0 && (!pause(std::chrono::seconds(1)) || ctx.stop.stop_requested())) break;
    if (served.wait_for(std::chrono::seconds(0)) == std::future_status::ready) break;  // the server ended
    got = (*client_session)->run(*client_line, {});
    if (!got || !not_listening(*got)) break;
  }
  const Expected<Reply> server_reply = served.get();  // ended by its client, or by `timeout`
  if (got && got->exit_status == 0) return got->out;
  if (got && not_listening(*got) && server_reply && server_reply->exit_status == 124)
    return unexpected(failure(pair.client + " (client)", got) + ", in " + std::to_string(o.connect_tries) +
                      " tries while its server ran");
  if (!server_reply || server_reply->exit_status != 0)
    return unexpected(failure(pair.server + " (server)", server_reply));
  return unexpected(failure(pair.client + " (client)", got));
}

}  // namespace

Expected<std::string> ib_write_bw_command(const Fabric& fabric, const acceptance::Pair& pair, bool client,
                                          const AcceptanceRunOptions& o) {
  const End here = end_of(fabric, client ? pair.client : pair.server);
  const End there = end_of(fabric, client ? pair.server : pair.client);
  if (here.port == nullptr || there.port == nullptr) return unexpected(pair.name() + ": not a pair of the fabric");
  if (here.port->rdma_device.empty() || !valid_rdma_device_name(here.port->rdma_device))
    return unexpected((client ? pair.client : pair.server) + ": no RDMA device in the inventory (rdma_device)");
  // The RoCE traffic class fabricctl gives the host's RDMA traffic (the profile's DSCP, and ECT(0) with
  // DCQCN): what its jobs send with.
  const int tos = here.device->qos.roce_tos();
  // The server under coreutils' timeout: a server whose client never came ends when the test could no
  // longer start (the client's tries and the test), not at the connector's command time.
  std::string line = client ? "" : "timeout " + std::to_string(o.seconds + o.connect_tries + 30) + " ";
  line += "ib_write_bw -d " + shell_quote(here.port->rdma_device) + " -i " + std::to_string(here.port->rdma_port) +
          " -F --report_gbits -D " + std::to_string(o.seconds) + " --tclass=" + std::to_string(tos) + " -p " +
          std::to_string(o.tcp_port);
  if (client) line += " " + shell_quote(there.mgmt->address);
  return line;
}

Expected<std::map<std::string, std::string>> read_reports(const std::filesystem::path& dir) {
  constexpr size_t kMaxReport = size_t{4} << 20;  // bytes: the readers' own limit (nccl-tests')
  constexpr size_t kMaxReports = 100000;
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return out;
  for (const std::filesystem::directory_entry& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() < 5 || name.substr(name.size() - 4) != ".txt")
      return unexpected(e.path().string() + ": not a report (REPORT.txt)");
    if (out.size() >= kMaxReports) return unexpected(dir.string() + ": more than 100000 reports");
    auto text = read_regular_file(e.path(), {kMaxReport, "report"});
    if (!text) return unexpected(text.error().message);
    out.emplace(name.substr(0, name.size() - 4), std::move(*text));
  }
  if (ec) return unexpected(dir.string() + ": cannot read: " + ec.message());
  return out;
}

Expected<void> save_text(const std::filesystem::path& file, std::string_view text) {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  if (ec) return unexpected(file.parent_path().string() + ": cannot create: " + ec.message());
  return write_file_atomic(file, text);
}

std::map<std::string, Expected<std::string>> run_acceptance(const Fabric& fabric,
                                                            const std::vector<acceptance::Pair>& pairs,
                                                            const AcceptanceRunOptions& o, Context& ctx,
                                                            const PauseFor& pause) {
  std::map<std::string, Expected<std::string>> out;
  size_t i = 0;
  while (i < pairs.size()) {
    // One rail's pairs at once, `jobs` at a time, a port in one test at a time (a rail's odd one out
    // writes to a port of the first pair: it runs after it).
    size_t end = i;
    std::set<std::string> busy;
    while (end < pairs.size() && pairs[end].rail == pairs[i].rail && end - i < std::max<size_t>(1, o.jobs) &&
           !busy.count(pairs[end].client) && !busy.count(pairs[end].server)) {
      busy.insert(pairs[end].client);
      busy.insert(pairs[end].server);
      ++end;
    }
    std::vector<std::future<Expected<std::string>>> running;
    for (size_t k = i; k < end; ++k)
      running.push_back(std::async(std::launch::async, [&, k] { return run_pair(fabric, pairs[k], o, ctx, pause); }));
    for (size_t k = i; k < end; ++k) out.insert_or_assign(pairs[k].name(), running[k - i].get());
    i = end;
    if (ctx.stop.stop_requested()) break;
  }
  return out;
}

}  // namespace fabricctl::ops

#include "ops/host_apply.h"

#include <fcntl.h>
#include <linux/dcbnl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <utility>

#include "ops/host_files.h"
#include "ops/host_nic.h"
#include "platform/linux/dcbnl.h"
#include "platform/linux/hex_dump.h"
#include "platform/linux/host_changes.h"
#include "platform/linux/host_sysfs.h"
#include "platform/linux/nic.h"
#include "transport/rtnl_link.h"
#include "util/escape.h"
#include "util/file_io.h"
#include "util/file_lock.h"
#include "util/names.h"

namespace fabricctl::ops {
namespace {

namespace fs = std::filesystem;
using linux_host::ChangeKind;
using linux_host::HostChange;
using nlohmann::json;

constexpr size_t kMaxFile = size_t{1} << 20;

/// What apply read of the host: the neutral state the diff compares, and each port's DCB reply as the
/// kernel (or the saved reply) gave it, which the sets start from and the record keeps.
struct HostNow {
  DeviceObserved observed;
  std::map<std::string, std::optional<DcbState>> dcb;  // nullopt: the driver has no DCB (EOPNOTSUPP)
};

fs::path under(const HostTxOptions& o, std::string_view abs) { return o.root / fs::path(abs).relative_path(); }
fs::path tx_dir(const HostTxOptions& o) { return o.root / "var/lib/fabricctl/transactions"; }
fs::path record_path(const HostTxOptions& o) { return tx_dir(o) / (o.transaction + ".json"); }
fs::path dcb_file(const HostTxOptions& o, const std::string& netdev) { return o.dcb_from / (netdev + ".dcbnl"); }

Expected<std::optional<std::string>> read_optional(const fs::path& p) {
  auto text = read_regular_file(p, {kMaxFile, "file"});
  if (!text) {
    if (text.error().kind == FileError::Kind::missing) return std::optional<std::string>{};
    return unexpected(text.error().message);
  }
  return std::optional<std::string>(std::move(*text));
}

Expected<DcbState> saved_dcb(const HostTxOptions& o, const std::string& netdev) {
  return read_saved_dcb(o.dcb_from, netdev);
}

std::string hex_dump(const NetlinkBytes& b, const std::string& netdev) {
  std::string out = "# DCB_CMD_IEEE_GET reply of " + netdev + " (fabricctl host apply)\n";
  char buf[4];
  for (size_t i = 0; i < b.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%02x", b[i]);
    out += buf;
    out += (i % 16 == 15 || i + 1 == b.size()) ? '\n' : ' ';
  }
  return out;
}

/// The host as `host collect` reads it (host_nic.h, the same reader), for the desired ports only; a port
/// without DCB support keeps its other fields, so the diff asks for DCB and the set names the refusal.
Expected<HostNow> read_host(const HostTxOptions& o, const json& state) {
  HostNow h;
  h.observed.name = o.device;
  h.observed.platform = Platform::linux_host;
  auto links = link_states();
  if (!links) return unexpected(links.error());
  for (const auto& port : state.at("ports")) {
    const std::string name = port.at("netdev").get<std::string>();
    const auto link = std::find_if(links->begin(), links->end(), [&](const LinkState& l) { return l.name == name; });
    if (link == links->end()) {
      h.observed.unreadable_ports.emplace(terminal_line(name), "no network interface " + terminal_line(name));
      continue;
    }
    auto read = read_nic_port({o.root, o.dcb_from, /*counters=*/false}, *link);
    if (!read) return unexpected(name + ": " + read.error());
    h.dcb[name] = std::move(read->dcb);
    h.observed.ports.push_back(std::move(read->port));
  }
  auto nccl = linux_host::read_nccl_conf(o.root);
  if (!nccl) return unexpected(nccl.error());
  h.observed.nccl = *nccl;
  return h;
}

// ---- the rollback record --------------------------------------------------------------------------

/// The value to write to the attribute at `p` (under the root) to bring back what it shows now.
Expected<std::string> stored_value(const fs::path& p) {
  auto text = read_optional(p);
  if (!text) return unexpected(text.error());
  if (!*text) return unexpected(p.string() + ": missing, so its value cannot be saved for a rollback");
  auto value = linux_host::value_to_restore(p.filename().string(), **text);
  if (!value) return unexpected(p.string() + ": " + value.error());
  return value;
}

/// One previous value: {"kind":"mtu","netdev","mtu"} | {"kind":"dcb","netdev","reply":hex} (the kernel's
/// state before, as its own get reply) | {"kind":"attribute","path","value"} (a sysfs/configfs attribute
/// and the value that, written, restores it) | {"kind":"file","path","content"|null} (a plain file;
/// null: it did not exist). Error: a previous value that cannot be read, so no change may be made.
Expected<json> undo_of(const HostTxOptions& o, const HostNow& now, const HostChange& c) {
  switch (c.kind) {
    case ChangeKind::mtu:
      return json{{"kind", "mtu"}, {"netdev", c.netdev}, {"mtu", *now.observed.port(c.netdev)->mtu}};
    case ChangeKind::dcb_ets:
    case ChangeKind::dcb_pfc:
    case ChangeKind::dcb_app: {
      if (!o.dcb_from.empty()) {
        const fs::path p = dcb_file(o, c.netdev);
        auto text = read_optional(p);
        return json{{"kind", "file"}, {"path", p.string()}, {"content", text && *text ? json(**text) : json(nullptr)}};
      }
      const auto& s = now.dcb.at(c.netdev);
      if (!s) return json{{"kind", "none"}};  // no DCB: nothing can have changed
      auto bytes = encode_ieee_get_reply(*s);
      return json{{"kind", "dcb"}, {"netdev", c.netdev}, {"reply", bytes ? hex_dump(*bytes, c.netdev) : ""}};
    }
    case ChangeKind::file: {
      const fs::path p = under(o, c.path);
      auto value = stored_value(p);
      if (!value) return unexpected(value.error());
      return json{{"kind", "attribute"}, {"path", p.string()}, {"value", *value}};
    }
    case ChangeKind::nccl: {
      const fs::path p = under(o, linux_host::kNcclConf);
      auto text = read_optional(p);
      if (!text) return unexpected(text.error());
      return json{{"kind", "file"}, {"path", p.string()}, {"content", *text ? json(**text) : json(nullptr)}};
    }
  }
  return json{{"kind", "none"}};
}

/// rdma_cm shows a device's ToS only once its configfs group exists: made before the host is read, so
/// that the diff and the rollback record see the kernel's values, not an absent file. Making the group
/// changes no value (cma_configfs.c), but a rollback removes the groups this apply made, after writing
/// the values back, so the host is left as it was found. Appends {"kind":"group","path"} to `made`.
Expected<void> make_rdma_cm_groups(const HostTxOptions& o, const json& state, json& made) {
  for (const auto& port : state.at("ports")) {
    const auto& rdma = port.value("rdma", json());
    if (!rdma.is_object()) continue;
    const std::string dev = rdma.at("device").get<std::string>();
    if (!valid_rdma_device_name(dev)) continue;  // host_changes names it
    const fs::path group = under(o, linux_host::rdma_cm_device_dir(dev));
    std::error_code ec;
    if (fs::is_directory(group, ec)) continue;
    if (auto r = attribute_files().make_group(group); !r) return unexpected(dev + ": rdma_cm configfs: " + r.error());
    made.push_back({{"kind", "group"}, {"path", group.string()}});
  }
  return {};
}

Expected<void> write_record(const HostTxOptions& o, const json& record) {
  std::error_code ec;
  fs::create_directories(tx_dir(o), ec);
  if (ec) return unexpected(tx_dir(o).string() + ": cannot create: " + ec.message());
  return write_file_atomic(record_path(o), record.dump(2) + "\n", {.mode = 0600});
}

/// The transactions whose record is in the transactions directory (staged, neither confirmed nor rolled
/// back), sorted.
std::vector<std::string> recorded_transactions(const HostTxOptions& o) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(tx_dir(o), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.ends_with(".json") && !name.starts_with('.')) out.push_back(name.substr(0, name.size() - 5));
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// Another transaction's record in the transactions directory (its name), or empty.
std::string pending_transaction(const HostTxOptions& o) {
  for (const std::string& tx : recorded_transactions(o))
    if (tx != o.transaction) return terminal_line(tx);
  return "";
}

/// The host's transaction lock (flock on host.lock, one file for every transaction, so that none piles
/// up): apply, confirm and rollback each hold it for their whole run, so the timer never races a confirm
/// and two transactions never interleave.
Expected<FileLock> lock(const HostTxOptions& o) {
  std::error_code ec;
  fs::create_directories(tx_dir(o), ec);
  auto held = lock_file(tx_dir(o) / "host.lock", true);
  if (!held) return unexpected(held.error().message);
  return std::move(*held);
}

// ---- making a change ------------------------------------------------------------------------------

/// The saved reply as the kernel would answer after the set: the request built by the real codec, decoded
/// as the kernel decodes it, applied as dcbnl_ieee_set applies it (ETS, PFC, app entries replacing the
/// one of the same selector and protocol), and for a del the entries matching all three fields removed.
Expected<void> set_saved(const HostTxOptions& o, const std::string& netdev, Expected<NetlinkBytes> request) {
  if (!request) return unexpected(request.error());
  auto req = decode_ieee_set_request(*request);
  if (!req) return unexpected(req.error());
  auto state = saved_dcb(o, netdev);
  if (!state) return unexpected(state.error());
  if (req->set.ets) state->ets = *req->set.ets;
  if (req->set.pfc) {
    DcbPfc pfc = *req->set.pfc;
    if (state->pfc) pfc.requests = state->pfc->requests, pfc.indications = state->pfc->indications;
    state->pfc = pfc;
  }
  for (const DcbApp& a : req->set.apps) {
    const bool del = req->cmd == DCB_CMD_IEEE_DEL;
    auto& apps = state->apps;
    apps.erase(std::remove_if(apps.begin(), apps.end(),
                              [&](const DcbApp& x) {
                                return x.selector == a.selector && x.protocol == a.protocol &&
                                       (!del || x.priority == a.priority);
                              }),
               apps.end());
    if (!del) apps.push_back(a);
  }
  auto reply = encode_ieee_get_reply(*state);
  if (!reply) return unexpected(reply.error());
  return write_file_atomic(dcb_file(o, netdev), hex_dump(*reply, netdev));
}

Expected<void> dcb_set(const HostTxOptions& o, const std::string& netdev, const DcbIeeeSet& set) {
  if (!o.dcb_from.empty()) return set_saved(o, netdev, encode_ieee_set(netdev, set));
  return dcb_ieee_set(netdev, set);
}

Expected<void> dcb_del(const HostTxOptions& o, const std::string& netdev, const std::vector<DcbApp>& apps) {
  if (apps.empty()) return {};
  if (!o.dcb_from.empty()) return set_saved(o, netdev, encode_ieee_del_apps(netdev, apps));
  return dcb_ieee_del_apps(netdev, apps);
}

/// DCB failures in a network engineer's words: EOPNOTSUPP is the driver's, not a fault of the request.
std::string dcb_error(const std::string& e) {
  if (e.find("EOPNOTSUPP") != std::string::npos) return "not supported by the driver (EOPNOTSUPP)";
  return e;
}

std::string nccl_file(const std::optional<std::string>& now, const std::string& lines) {
  std::string out;
  if (now)
    for (size_t pos = 0; pos < now->size();) {
      const size_t eol = std::min(now->find('\n', pos), now->size());
      const std::string_view line = std::string_view(*now).substr(pos, eol - pos);
      pos = eol + 1;
      const bool ours =
          std::any_of(linux_host::kNcclKeys.begin(), linux_host::kNcclKeys.end(), [&](std::string_view k) {
            return line.size() > k.size() && line.substr(0, k.size()) == k && line[k.size()] == '=';
          });
      if (!ours) out += std::string(line) + "\n";
    }
  return out + lines;
}

Expected<void> make(const HostTxOptions& o, const HostNow& now, const HostChange& c) {
  switch (c.kind) {
    case ChangeKind::mtu: return set_link_mtu(c.netdev, c.mtu);
    case ChangeKind::dcb_ets: {
      DcbIeeeSet set;
      set.ets = c.ets;
      if (const auto& s = now.dcb.at(c.netdev); s && s->ets) set.ets->ets_cap = s->ets->ets_cap;
      return dcb_set(o, c.netdev, set);
    }
    case ChangeKind::dcb_pfc: {
      DcbIeeeSet set;
      set.pfc = DcbPfc{};
      const auto& s = now.dcb.at(c.netdev);
      set.pfc->pfc_cap = s && s->pfc ? s->pfc->pfc_cap : kDcbMaxTcs;
      set.pfc->enabled = c.pfc;
      set.pfc->delay = static_cast<uint16_t>(c.pfc_delay);
      return dcb_set(o, c.netdev, set);
    }
    case ChangeKind::dcb_app: {
      // The missing entries first (mlx5 replaces a DSCP's entry on set), then the ones no longer wanted:
      // deleting the last DSCP entry first would switch an mlx5 port to PCP trust in between.
      const auto& s = now.dcb.at(c.netdev);
      std::vector<DcbApp> have = s ? s->apps : std::vector<DcbApp>{};
      DcbIeeeSet set;
      for (const DcbApp& a : c.apps)
        if (std::find(have.begin(), have.end(), a) == have.end()) set.apps.push_back(a);
      if (!set.apps.empty())
        if (auto r = dcb_set(o, c.netdev, set); !r) return r;
      if (!s && set.apps.empty()) return unexpected(std::string("the interface has no DCB support (EOPNOTSUPP)"));
      std::vector<DcbApp> del;
      for (const DcbApp& a : have)
        if (a.selector == kAppSelDscp &&
            std::none_of(c.apps.begin(), c.apps.end(), [&](const DcbApp& w) { return w.protocol == a.protocol; }))
          del.push_back(a);
      return dcb_del(o, c.netdev, del);
    }
    case ChangeKind::file: return attribute_files().write(under(o, c.path), c.value);
    case ChangeKind::nccl: {
      const fs::path p = under(o, linux_host::kNcclConf);
      auto text = read_optional(p);
      if (!text) return unexpected(text.error());
      std::error_code ec;
      fs::create_directories(p.parent_path(), ec);  // a fixture tree may have no etc/ yet
      return write_file_atomic(p, nccl_file(*text, c.value));
    }
  }
  return {};
}

// ---- restoring ------------------------------------------------------------------------------------

Expected<void> restore(const json& u) {
  const std::string kind = u.value("kind", "");
  if (kind == "mtu") return set_link_mtu(u.at("netdev").get<std::string>(), u.at("mtu").get<int>());
  if (kind == "attribute")
    return attribute_files().write(u.at("path").get<std::string>(), u.at("value").get<std::string>());
  if (kind == "group") return attribute_files().remove_group(u.at("path").get<std::string>());
  if (kind == "file") {
    const fs::path p = u.at("path").get<std::string>();
    if (u.at("content").is_null()) {
      std::error_code ec;
      if (!fs::remove(p, ec) && ec) return unexpected(p.string() + ": cannot remove: " + ec.message());
      return {};
    }
    return write_file_atomic(p, u.at("content").get<std::string>());
  }
  if (kind == "dcb") {
    const std::string netdev = u.at("netdev").get<std::string>();
    auto bytes = linux_host::parse_hex_dump(u.at("reply").get<std::string>());
    if (!bytes) return unexpected(bytes.error());
    auto before = decode_ieee_get_reply(*bytes);
    if (!before) return unexpected(before.error());
    auto now = dcb_ieee_get(netdev);
    if (!now) return unexpected(now.error());
    DcbIeeeSet set;
    set.ets = before->ets;
    set.pfc = before->pfc;
    set.apps = before->apps;
    if (set.ets || set.pfc || !set.apps.empty())
      if (auto r = dcb_ieee_set(netdev, set); !r) return r;
    std::vector<DcbApp> del;
    for (const DcbApp& a : now->state.apps)
      if (std::find(before->apps.begin(), before->apps.end(), a) == before->apps.end()) del.push_back(a);
    return del.empty() ? Expected<void>{} : dcb_ieee_del_apps(netdev, del);
  }
  if (kind == "none") return {};
  return unexpected("unknown kind \"" + terminal_line(kind) + "\"");
}

/// Restores `undo` from the last entry to the first; every entry is tried, the first error is returned.
Expected<void> restore_all(const json& undo, size_t count) {
  Expected<void> result;
  for (size_t i = count; i-- > 0;) {
    auto r = [&]() -> Expected<void> {
      try {
        return restore(undo.at(i));
      } catch (const std::exception& e) {
        return unexpected(std::string("bad rollback record entry: ") + e.what());
      }
    }();
    if (!r && result) result = unexpected(r.error());
  }
  return result;
}

bool valid_transaction(const std::string& id) {
  return !id.empty() && id.size() <= 64 &&
         id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789T-") == std::string::npos;
}

HostTxResult fail(const std::string& message, HostTxStatus status = HostTxStatus::failed, std::string out = {}) {
  return {status, std::move(out), message};
}

/// The revert timer: this program, detached (its own session, so the SSH session's end does not reach it).
Expected<pid_t> arm_timer(const HostTxOptions& o) {
  std::vector<std::string> argv = {o.self,
                                   "host",
                                   "rollback",
                                   "--transaction",
                                   o.transaction,
                                   "--after",
                                   std::to_string(o.confirm_timeout_s),
                                   "--root",
                                   o.root.string()};
  if (!o.dcb_from.empty()) argv.insert(argv.end(), {"--dcb-from", o.dcb_from.string()});
  // Built before fork: the child of a threaded process calls only async-signal-safe functions.
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (std::string& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return unexpected("cannot start the revert timer: " + errno_text(errno));
  if (pid == 0) {
    ::setsid();
    const int null = ::open("/dev/null", O_RDWR);
    for (int fd = 0; fd < 3; ++fd) ::dup2(null, fd);
    ::execv(o.self.c_str(), args.data());
    ::_exit(127);
  }
  return pid;
}

Expected<std::optional<json>> read_record(const HostTxOptions& o) {
  auto text = read_optional(record_path(o));
  if (!text) return unexpected(text.error());
  if (!*text) return std::optional<json>{};
  try {
    return std::optional<json>(json::parse(**text));
  } catch (const std::exception& e) {
    return unexpected(record_path(o).string() + ": not a rollback record: " + e.what());
  }
}

void stop_timer(const json& record) {
  const pid_t pid = record.value("timer_pid", 0);
  if (pid > 0 && pid != ::getpid()) ::kill(pid, SIGTERM);
}

/// Arms the revert timer for o.confirm_timeout_s from now; the record names it (its process, and when
/// it fires: seconds since the epoch, for `host pending`).
Expected<void> arm_recorded_timer(const HostTxOptions& o, json& record) {
  auto pid = arm_timer(o);
  if (!pid) return unexpected(pid.error());
  record["timer_pid"] = *pid;
  record["deadline"] =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch() +
                                                       std::chrono::seconds(o.confirm_timeout_s))
          .count();
  if (auto w = write_record(o, record); !w) {
    ::kill(*pid, SIGTERM);
    return unexpected(w.error());
  }
  return {};
}

/// A staged transaction's record, read under the host lock (held as long as this is), for confirm and
/// extend: an error when the transaction is not pending.
struct PendingRecord {
  FileLock lock;
  json record;
};
Expected<PendingRecord> pending_record(const HostTxOptions& o) {
  auto fd = lock(o);
  if (!fd) return unexpected(fd.error());
  auto record = read_record(o);
  if (!record) return unexpected(record.error());
  if (!*record)
    return unexpected("transaction " + o.transaction + " is not pending (reverted by its timer, or never staged)");
  return PendingRecord{std::move(*fd), std::move(**record)};
}

}  // namespace

HostTxResult host_apply(const HostTxOptions& o, const std::string& nic_state_json) {
  if (!o.dry_run && !valid_transaction(o.transaction))
    return fail("host apply needs --transaction ID ([a-z0-9T-]) or --dry-run", HostTxStatus::invalid);
  if (!o.dry_run && o.confirm_timeout_s < 1)
    return fail("host apply needs --confirm-timeout S (S >= 1)", HostTxStatus::invalid);
  json state;
  try {
    state = json::parse(nic_state_json);
    state.at("ports");
  } catch (const std::exception& e) {
    return fail(std::string("stdin is not a nic-state.json: ") + e.what(), HostTxStatus::invalid);
  }
  const nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(nic_state_json);
  HostTxOptions opt = o;
  if (opt.device.empty()) opt.device = ordered.value("device", "");
  std::optional<FileLock> held;
  if (!o.dry_run) {
    auto l = lock(opt);
    if (!l) return fail(l.error());
    held.emplace(std::move(*l));
  }
  if (!o.dry_run)
    if (auto r = read_record(opt); !r || *r)
      return fail(r ? "transaction " + o.transaction + " exists already" : r.error());
  // One transaction at a time: another's record is a change not yet confirmed or rolled back, whose timer
  // may revert it while this one runs.
  if (!o.dry_run)
    if (const std::string other = pending_transaction(opt); !other.empty())
      return fail("transaction " + other +
                  " is pending on this host: confirm it or roll it back first (`host "
                  "rollback --transaction " +
                  other + "`), or wait for its timer to revert it; nothing was changed");
  // The rdma_cm groups this apply made, as undo entries: removed again on every way out that changes
  // nothing, restored last (so after the values in them) by a rollback.
  json groups = json::array();
  auto unmade = [&](const std::string& why, HostTxStatus status = HostTxStatus::failed) {
    auto back = restore_all(groups, groups.size());
    return fail(why + (back ? "" : "; removing the rdma_cm configfs group made failed too: " + back.error()), status);
  };
  Expected<HostNow> now = unexpected(std::string("not read"));
  try {
    if (!o.dry_run)
      if (auto g = make_rdma_cm_groups(opt, state, groups); !g) return unmade(g.error() + "; nothing was changed");
    now = read_host(opt, state);
  } catch (const std::exception& e) {
    return unmade(std::string("nic-state.json: ") + e.what(), HostTxStatus::invalid);
  }
  if (!now) return unmade(now.error());
  auto changes = linux_host::host_changes(ordered, now->observed);
  if (!changes) return unmade(changes.error(), HostTxStatus::invalid);
  if (o.dry_run) {
    return {changes->empty() ? HostTxStatus::done : HostTxStatus::would_change, linux_host::change_text(*changes), {}};
  }
  if (changes->empty() && !groups.empty()) {
    if (auto back = restore_all(groups, groups.size()); !back)
      return fail("nothing to change, but removing the rdma_cm configfs group made failed: " + back.error());
    groups = json::array();
  }
  json record = {{"transaction", o.transaction}, {"device", opt.device}, {"timer_pid", 0}, {"undo", groups}};
  for (const HostChange& c : *changes) {
    auto u = undo_of(opt, *now, c);
    if (!u)
      return unmade((c.netdev.empty() ? "" : c.netdev + ": ") + c.what + ": " + u.error() + "; nothing was changed");
    record["undo"].push_back(std::move(*u));
  }
  // The record first, then the timer, then the changes: whenever this process dies, the timer restores.
  if (auto w = write_record(opt, record); !w) return unmade(w.error());
  if (!changes->empty())
    if (auto armed = arm_recorded_timer(opt, record); !armed) return fail(armed.error());
  std::string made;
  for (size_t i = 0; i < changes->size(); ++i) {
    const HostChange& c = (*changes)[i];
    if (auto r = make(opt, *now, c); !r) {
      const bool dcb = c.kind == ChangeKind::dcb_ets || c.kind == ChangeKind::dcb_pfc || c.kind == ChangeKind::dcb_app;
      // A refused DCB set may have applied parts (dcbnl.h): restore it too; a refused write changed nothing.
      auto back = restore_all(record["undo"], groups.size() + (dcb ? i + 1 : i));
      stop_timer(record);
      std::error_code ec;
      if (back) fs::remove(record_path(opt), ec);
      const std::string who = c.netdev.empty() ? "" : c.netdev + ": ";
      return fail(who + c.what + ": " + (dcb ? dcb_error(r.error()) : r.error()) +
                      (back ? "; what was changed before is restored" : "; restoring failed too: " + back.error()),
                  HostTxStatus::failed, made);
    }
    made += c.line + "\n";
  }
  if (changes->empty()) made = "nothing to change\n";
  return {HostTxStatus::done, made, {}};
}

HostTxResult host_confirm(const HostTxOptions& o) {
  if (!valid_transaction(o.transaction)) return fail("host confirm needs --transaction ID", HostTxStatus::invalid);
  auto pending = pending_record(o);
  if (!pending) return fail(pending.error());
  stop_timer(pending->record);
  std::error_code ec;
  fs::remove(record_path(o), ec);
  if (ec) return fail(record_path(o).string() + ": cannot remove: " + ec.message());
  return {HostTxStatus::done, "confirmed " + o.transaction + "\n", {}};
}

HostTxResult host_rollback(const HostTxOptions& o) {
  if (!valid_transaction(o.transaction)) return fail("host rollback needs --transaction ID", HostTxStatus::invalid);
  if (o.after_s > 0) std::this_thread::sleep_for(std::chrono::seconds(o.after_s));
  auto fd = lock(o);
  if (!fd) return fail(fd.error());
  auto record = read_record(o);
  if (!record) return fail(record.error());
  if (!*record) {
    return {HostTxStatus::done, "nothing to roll back for " + o.transaction + "\n", {}};
  }
  if (o.after_s < 0) stop_timer(**record);
  const json& undo = (**record)["undo"];
  if (auto back = restore_all(undo, undo.is_array() ? undo.size() : 0); !back)
    return fail("rollback of " + o.transaction + ": " + back.error());
  std::error_code ec;
  fs::remove(record_path(o), ec);
  return {HostTxStatus::done, "rolled back " + o.transaction + "\n", {}};
}

HostTxResult host_extend(const HostTxOptions& o) {
  if (!valid_transaction(o.transaction) || o.confirm_timeout_s < 1)
    return fail("host extend needs --transaction ID and --confirm-timeout S (S >= 1)", HostTxStatus::invalid);
  auto pending = pending_record(o);
  if (!pending) return fail(pending.error());
  // Under the lock: a timer that woke waits for it, and dies here before it can roll anything back.
  stop_timer(pending->record);
  if (auto armed = arm_recorded_timer(o, pending->record); !armed) return fail(armed.error());
  return {HostTxStatus::done,
          "extended " + o.transaction + ": reverts in " + std::to_string(o.confirm_timeout_s) + " s unless confirmed\n",
          {}};
}

HostTxResult host_pending(const HostTxOptions& o) {
  std::string out;
  for (const std::string& tx : recorded_transactions(o)) {
    HostTxOptions one = o;
    one.transaction = tx;
    auto record = valid_transaction(tx) ? read_record(one) : Expected<std::optional<json>>(std::optional<json>{});
    const long long deadline = record && *record ? (**record).value("deadline", 0LL) : 0;
    out += terminal_line(tx) + " " + std::to_string(deadline) + "\n";
  }
  return {HostTxStatus::done, out, {}};
}

}  // namespace fabricctl::ops

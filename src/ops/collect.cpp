#include "ops/collect.h"

#include <algorithm>
#include <mutex>
#include <set>
#include <utility>

#include "ops/command_batch.h"
#include "ops/device_session.h"
#include "platform/raw_outputs.h"
#include "platform/transaction.h"
#include "state/snapshot.h"
#include "util/escape.h"
#include "util/file_io.h"
#include "util/parallel.h"

namespace fabricctl::ops {
namespace {

// One raw output, at most: a whole switch's CONFIG_DB is a few MB.
constexpr size_t kMaxRawBytes = size_t{64} << 20;

/// An output as its platform keeps it (CollectCommand::keep), read live or from a raw file alike.
std::string keep(const CollectCommand& cmd, std::string&& output) {
  return cmd.keep ? cmd.keep(output) : std::move(output);
}

/// The raw outputs of `device`, read from RAWDIR/<device>/<file>.
Expected<RawOutputs> read_raw(const Collector& c, const DeviceDesired& d, const std::filesystem::path& dir,
                              bool counters) {
  RawOutputs raw;
  for (const CollectCommand& cmd : c.commands) {
    if (cmd.counter && !counters) continue;
    for (const CommandRun& run : command_runs(c, cmd, d, {})) {
      std::error_code ec;
      if (cmd.counter && !std::filesystem::exists(dir / run.file, ec)) continue;
      auto text = read_regular_file(dir / run.file, {kMaxRawBytes, "raw output"});
      if (!text) return unexpected(text.error().message);
      // Kept as a live read keeps it (a file saved by hand may hold what collect never keeps): what is
      // read from raw outputs and from the device is judged alike.
      raw.emplace(run.file, keep(cmd, std::move(*text)));
    }
  }
  return raw;
}

/// One command's output as its platform keeps it, or why a required command failed.
Expected<std::string> kept(const CollectCommand& cmd, Reply&& out) {
  if (out.exit_status != 0) {
    std::string first = out.err.substr(0, out.err.find('\n'));
    if (first.empty()) first = out.out.substr(0, out.out.find('\n'));
    return unexpected("`" + std::string(cmd.command) + "` " + ended_text(out.exit_status) +
                      (first.empty() ? "" : ": " + terminal_line(first.substr(0, 200))));
  }
  return keep(cmd, std::move(out.out));
}

/// Runs the platform's commands on the device, one session for all of them; each output as its
/// platform keeps it. Where the login shell runs lists, they all share one exec (command_batch.h): a
/// channel costs the device a fork, a login shell and its CLI's start, and a large fleet pays that per
/// command. A required command that failed in the batch, or that the split did not reach, runs again
/// alone, so that its error is its own (the batch's standard error is all commands' at once).
Expected<RawOutputs> read_live(const Collector& c, const DeviceDesired& d, const DeviceMgmt& m, Connector& connector,
                               bool counters) {
  auto session = connector.open(m);
  if (!session) return unexpected(session.error());
  std::vector<std::pair<const CollectCommand*, CommandRun>> runs;
  for (const CollectCommand& cmd : c.commands) {
    if (cmd.counter && !counters) continue;
    for (CommandRun& run : command_runs(c, cmd, d, m.fabricctl)) runs.emplace_back(&cmd, std::move(run));
  }
  std::vector<BatchPart> parts;
  const bool batched = c.shell_lists && runs.size() > 1;
  if (batched) {
    std::vector<std::string> lines;
    lines.reserve(runs.size());
    for (const auto& [cmd, run] : runs) lines.push_back(run.line);
    const std::string mark = batch_mark();
    auto out = (*session)->run(batch_line(lines, mark), {});
    if (!out) return unexpected(out.error());
    parts = split_batch(out->out, mark, runs.size());
  }
  RawOutputs raw;
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto& [cmd, run] = runs[i];
    Reply reply;
    if (i < parts.size() && (parts[i].exit_status == 0 || cmd->counter)) {
      reply.exit_status = parts[i].exit_status;
      reply.out = std::move(parts[i].out);
    } else if (batched && cmd->counter) {
      continue;  // the split did not reach it: no counters (never zeros)
    } else {
      auto out = (*session)->run(run.line, {});
      if (!out) return unexpected(out.error());
      reply = std::move(*out);
    }
    if (reply.exit_status != 0 && cmd->counter) continue;  // the device lacks these counters
    auto text = kept(*cmd, std::move(reply));
    if (!text) return unexpected(text.error());
    raw.emplace(run.file, std::move(*text));
  }
  return raw;
}

/// Writes DIR/raw/<device>/<file> for every output, each atomically.
Expected<void> write_raw(const std::filesystem::path& dir, const RawOutputs& raw) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return unexpected("cannot create " + dir.string() + ": " + ec.message());
  for (const auto& [file, text] : raw)
    if (auto w = write_file_atomic(dir / file, text, {.mode = 0600, .sync = false}); !w) return unexpected(w.error());
  return {};
}

}  // namespace

FabricObserved collect_devices(const Fabric& fabric, const std::vector<std::string>& devices, const CollectOptions& o,
                               Context& ctx, RawByDevice* raws) {
  const std::set<std::string> wanted(devices.begin(), devices.end());
  std::vector<size_t> picked;
  for (size_t i = 0; i < fabric.desired.devices.size(); ++i)
    if (wanted.empty() || wanted.count(fabric.desired.devices[i].name) > 0) picked.push_back(i);
  const bool live = !o.from_raw;
  std::mutex mutex;
  FabricObserved observed;
  size_t done = 0, failed = 0;
  ctx.observer.phase("reading " + std::to_string(picked.size()) + " devices");
  const size_t workers = std::min<size_t>(static_cast<size_t>(std::max(1, o.jobs)), std::max<size_t>(1, picked.size()));
  parallel_for(picked.size(), workers, [&](size_t, size_t k) {
    const size_t i = picked[k];
    const DeviceDesired& d = fabric.desired.devices[i];
    const Collector& c = adapter(d.platform).collector;
    // Every platform has a collector (platform_test.cpp holds the table to it).
    auto raw = live ? read_live(c, d, fabric.mgmt[i], ctx.connector, o.counters)
                    : read_raw(c, d, *o.from_raw / d.name, o.counters);
    if (raw && live && o.raw_out)
      if (auto w = write_raw(*o.raw_out / d.name, *raw); !w) raw = unexpected(w.error());
    Expected<DeviceObserved> got = raw ? c.observe(d.name, *raw) : unexpected(raw.error());
    // What a device answered becomes a snapshot: a value no snapshot takes that its reader let through is
    // this device's failure here, not the whole collect's when the snapshots are written.
    if (got)
      if (std::string why = snapshot_problem(d.name, *got); !why.empty()) got = unexpected(std::move(why));
    const std::lock_guard<std::mutex> lock(mutex);
    ++done;
    if (raw && raws) raws->insert_or_assign(d.name, std::move(*raw));
    if (got) {
      got->collected_at = utc_text_ms(ctx.clock.now());
      got->source = live ? "fabricctl collect" : "fabricctl collect --from-raw";
      observed.devices.emplace(d.name, std::move(*got));
    } else {
      ++failed;
      // The reason may carry what a device said (an SSH disconnect message): one printable line.
      observed.record_failure({d.name, FailureStage::collect, terminal_line(got.error())});
    }
    ctx.observer.phase("read " + std::to_string(done) + "/" + std::to_string(picked.size()) + " devices, " +
                       std::to_string(failed) + " failed");
  });
  ctx.observer.clear();
  return observed;
}

}  // namespace fabricctl::ops

// `fabricctl health`: the fabric's counters judged as rates between two readings (health/health.h):
// a saved one (--since DIR, snapshots a collect wrote) and a second one, saved too (--snapshots DIR) or
// read from the devices now (cli/two_readings.h).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/args.h"
#include "cli/color.h"
#include "cli/command.h"
#include "cli/fabric_options.h"
#include "cli/report_outputs.h"
#include "cli/sleep.h"
#include "cli/two_readings.h"
#include "health/health.h"
#include "ops/health_watch.h"
#include "render/stop_signals.h"
#include "util/diag.h"
#include "util/escape.h"
#include "verify/engine.h"

namespace fabricctl {

namespace po = boost::program_options;

namespace {

constexpr size_t kHtmlSamples = 60;  // judgements an --html page charts: an hour at --watch 60

/// health --watch (and --interval, one judgement): the devices read every `seconds`, each judgement
/// written as it comes: to stdout in `format`, or as Prometheus text replacing `textfile` and as the HTML
/// page replacing `html` (its charts over the last kHtmlSamples judgements). Ends after
/// `samples` (0: until SIGINT or SIGTERM, whose status it then exits with). The exit code is the
/// worst of the judgements' (verify's codes), or 3 when a text file could not be written.
int watch(FabricOptions& o, const TwoReadingsOptions& readings, const std::string& baseline_dir, ReportFormat format,
          ColorWhen color_when, int seconds, size_t samples, const std::string& textfile, const std::string& html) {
  if (seconds < 1 || seconds > 86'400) {
    std::cerr << usage_error(std::to_string(seconds) + " s is not an interval of 1-86400 seconds");
    return kExitInvalid;
  }
  if (!readings.snapshots.empty()) {
    std::cerr << usage_error("--watch reads the devices itself: it takes no --snapshots");
    return kExitInvalid;
  }
  if (const std::string e = check_read_options(readings.live); !e.empty()) {
    std::cerr << usage_error(e);
    return kExitInvalid;
  }
  auto loaded = load_scoped_fabric(o, readings.limit, baseline_dir);
  if (!loaded) return kExitInvalid;
  const Fabric* fabric = &loaded->fabric;
  const auto needed = devices_to_read(*fabric, loaded->scope, true, "health --watch");
  if (!needed) return kExitInvalid;
  std::optional<SnapshotSet> first;
  if (!readings.since.empty()) first = read_snapshot_dir(readings.since, {needed->begin(), needed->end()});

  ops::WatchOptions w;
  w.interval = std::chrono::seconds(seconds);
  w.samples = samples;
  w.devices.assign(needed->begin(), needed->end());
  w.jobs = readings.live.jobs;
  if (!readings.limit.empty()) w.health.scope = loaded->scope;
  if (loaded->baseline) w.health.baseline = &*loaded->baseline;
  ReportStyle style;
  style.color = use_color(color_when, ::isatty(STDOUT_FILENO) == 1, std::getenv("NO_COLOR"), std::getenv("TERM"));
  style.fabric = &fabric->desired;
  StopSignals signals;
  Progress progress = stderr_progress(readings.quiet);
  const auto connector = connector_of(readings.live);
  ops::Context ctx{*connector, progress, ops::system_clock(), ops::StopToken(stop_signal)};
  int written = kExitOk, judged = kExitOk;
  std::vector<RateSample> history;
  ops::watch_health(
      *fabric, w, ctx, sleep_unless_stopped,
      [&](VerifyReport&& report) {
        report.ran_at = std::chrono::system_clock::now();
        judged = std::max(judged, verify_exit_code(report));
        progress.clear();
        for (const auto& [device, why] : report.unreadable)
          std::cerr << "fabricctl: " << device << ": " << terminal_line(why) << "\n";
        const auto keep = [&](ReportFormat f, const std::string& path, const ReportStyle& st) {
          auto ok = write_report_file(report, {f, path}, st);
          if (!ok) {
            std::cerr << "fabricctl: error: " << ok.error() << "\n";
            written = kExitDevice;
          }
          return ok.has_value();
        };
        if (!html.empty()) {  // the page, its charts over the last judgements
          history.push_back({*report.ran_at, report.rates});
          if (history.size() > kHtmlSamples) history.erase(history.begin());
          ReportStyle page = style;
          page.history = &history;
          keep(ReportFormat::html, html, page);
        }
        if (!textfile.empty() && keep(ReportFormat::prometheus, textfile, style) && !readings.quiet) {
          const ReportTally t = tally(report);
          std::cerr << "fabricctl: " << ops::utc_text(std::chrono::system_clock::now()) << ": " << t.errors
                    << " errors, " << t.warnings << " warnings; wrote " << textfile << "\n";
        }
        if (html.empty() && textfile.empty()) {
          write_report(report, format, style, std::cout);
          std::cout.flush();
        }
      },
      first ? &first->observed : nullptr);
  progress.clear();
  signals.reraise();  // stopped by a signal: its status
  return written != kExitOk ? written : judged;
}

}  // namespace

int cmd_health(const std::vector<std::string>& args) {
  FabricOptions o;
  TwoReadingsOptions readings;
  std::string output = "table", color = "auto", baseline_dir, textfile, html;
  int watch_s = 0, interval_s = 0;
  size_t samples = 0;
  po::options_description desc("health options");
  add_fabric_options(desc, o);
  desc.add_options()("output,o", po::value(&output)->value_name("FORMAT"),
                     "report on stdout: table (default), json, junit, prometheus or html")(
      "color", po::value(&color)->value_name("WHEN"), "colour the table: auto (default), always, never")(
      "interval", po::value(&interval_s)->value_name("S"),
      "read the devices now and again S seconds later, and judge the second reading against the first")(
      "watch", po::value(&watch_s)->value_name("S"),
      "read the devices every S seconds and judge each reading against the one before, until stopped")(
      "samples", po::value(&samples)->value_name("N"), "with --watch: stop after N judgements")(
      "textfile", po::value(&textfile)->value_name("FILE"),
      "with --watch: each judgement as Prometheus text, FILE replaced atomically (node_exporter's textfile "
      "collector)")(
      "html", po::value(&html)->value_name("FILE"),
      "with --watch: each judgement as the HTML page, FILE replaced atomically, its rate charts over the last 60");
  add_baseline_option(desc, baseline_dir);
  add_two_readings_options(desc, readings);
  int exit = kExitOk;
  if (!parse_args(
          args, desc,
          "fabricctl health -i INVENTORY --since DIR [--snapshots DIR] [-p DIR]... [-o FORMAT] [--limit GLOB]... "
          "[-q]\n       fabricctl health -i INVENTORY --interval S ...\n"
          "       fabricctl health -i INVENTORY --watch S [--samples N] [--textfile FILE] [--html FILE] [--since DIR] ...",
          exit))
    return exit;
  const auto format = parse_report_format(output);
  if (!format) {
    std::cerr << usage_error("-o: " + format.error());
    return kExitInvalid;
  }
  const auto color_when = parse_color_when(color);
  if (!color_when) {
    std::cerr << usage_error(check_choice("--color value", color, {"auto", "always", "never"}));
    return kExitInvalid;
  }
  if (interval_s != 0 && (watch_s != 0 || !readings.since.empty())) {
    std::cerr << usage_error(std::string("--interval takes both readings itself: not with ") +
                             (watch_s != 0 ? "--watch" : "--since"));
    return kExitInvalid;
  }
  if (interval_s != 0) return watch(o, readings, baseline_dir, *format, *color_when, interval_s, 1, "", "");
  if (watch_s != 0) return watch(o, readings, baseline_dir, *format, *color_when, watch_s, samples, textfile, html);
  if (samples != 0 || !textfile.empty() || !html.empty()) {
    std::cerr << usage_error(std::string(samples != 0        ? "--samples"
                                         : !textfile.empty() ? "--textfile"
                                                             : "--html") +
                             " goes with --watch S");
    return kExitInvalid;
  }
  if (const std::string e = check_two_readings_options(readings); !e.empty()) {
    std::cerr << usage_error(e);
    return kExitInvalid;
  }
  auto loaded = load_scoped_fabric(o, readings.limit, baseline_dir);
  if (!loaded) return kExitInvalid;
  const Fabric* fabric = &loaded->fabric;
  const auto read = read_two_readings(*fabric, readings, std::move(loaded->scope), "health");
  if (!read) return kExitInvalid;

  HealthOptions options;
  options.scope = read->scope;
  if (loaded->baseline) options.baseline = &*loaded->baseline;
  VerifyReport report = run_health(fabric->desired, read->first.observed, read->second.observed, options);
  report.ran_at = std::chrono::system_clock::now();
  ReportStyle style;
  style.color = use_color(*color_when, ::isatty(STDOUT_FILENO) == 1, std::getenv("NO_COLOR"), std::getenv("TERM"));
  style.fabric = &fabric->desired;
  for (const auto& [device, why] : report.unreadable) std::cerr << "fabricctl: " << device << ": " << why << "\n";
  write_report(report, *format, style, std::cout);
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "fabricctl: error: cannot write the report to standard output\n";
    return kExitDevice;
  }
  return verify_exit_code(report);
}

}  // namespace fabricctl

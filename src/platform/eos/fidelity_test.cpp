// EOS fidelity: session.cfg read the way a `configure session` would take it. Every line is a command of
// the EOS vocabulary fabricctl uses (shared/reference/switch-nos.md, EOS; aristanetworks/avd templates;
// EOS's own running-config), in the mode it belongs to, with values in EOS's ranges; and a session uses
// one queue vocabulary only, EOS rejecting one that mixes `uc-tx-queue` and `tx-queue`.
#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

#include "fidelity_support.h"
#include "regex_cache.h"
#include "text_lines.h"

using namespace fabricctl;

namespace {

enum class Mode { global, interface, queue };

struct Command {
  Mode mode;
  const char* pattern;  // the whole line, indentation included (3 spaces per mode level)
};

// The commands session.cfg may hold. Numbers are checked by range below.
const Command kVocabulary[] = {
    {Mode::global, R"(! fabricctl: \S+ profile \S+)"},
    {Mode::global, R"(!)"},
    {Mode::global, R"(qos map dscp (\d+ )*\d+ to traffic-class [0-7])"},
    {Mode::global, R"(qos map cos [0-7] to traffic-class [0-7])"},
    {Mode::global, R"(qos map traffic-class ([0-7] )*[0-7] to (uc-)?tx-queue [0-7])"},
    {Mode::global,
     R"(priority-flow-control pause watchdog default (timeout|recovery-time|polling-interval) \d+(\.\d{1,3})?)"},
    {Mode::global, R"(priority-flow-control pause watchdog action (drop|errdisable|notify-only))"},
    {Mode::global,
     R"(no priority-flow-control pause watchdog (default (timeout|recovery-time|polling-interval)|action))"},
    {Mode::global, R"(interface Ethernet\d+(/\d+){0,2})"},
    {Mode::interface, R"(   mtu \d+)"},
    {Mode::interface, R"(   qos trust (dscp|cos))"},
    {Mode::interface, R"(   priority-flow-control on)"},
    {Mode::interface, R"(   no priority-flow-control)"},
    {Mode::interface, R"(   (no )?priority-flow-control priority [0-7] no-drop)"},
    {Mode::interface, R"(   (no )?priority-flow-control pause watchdog)"},
    {Mode::interface, R"(   !)"},
    {Mode::interface, R"(   (uc-)?tx-queue [0-7])"},
    {Mode::queue, R"(      priority strict)"},
    {Mode::queue, R"(      no priority)"},
    {Mode::queue, R"(      bandwidth percent \d+)"},
    {Mode::queue, R"(      no bandwidth percent)"},
    {Mode::queue, R"(      no random-detect ecn minimum-threshold)"},
    {Mode::queue,
     R"(      random-detect ecn minimum-threshold \d+ bytes maximum-threshold \d+ bytes max-mark-probability \d+ weight 0)"},
};

/// The numbers of a line, in order.
std::vector<long> numbers(const std::string& line) {
  std::vector<long> out;
  for (auto it = std::sregex_iterator(line.begin(), line.end(), test::re(R"(\d+(\.\d+)?)"));
       it != std::sregex_iterator(); ++it)
    out.push_back(std::stol(it->str()));
  return out;
}

/// Every problem EOS would have with `session`, one line each.
std::vector<std::string> problems(const std::string& session) {
  std::vector<std::string> out;
  bool uc = false, voq = false;
  Mode mode = Mode::global;
  for (const std::string& line : test::lines_of(session)) {
    const Command* hit = nullptr;
    for (const Command& c : kVocabulary)
      if (std::regex_match(line, test::re(c.pattern))) hit = &c;
    if (!hit) {
      out.push_back("not an EOS command fabricctl knows: " + line);
      continue;
    }
    // A line belongs to the mode its indentation says; a queue line needs a queue block open.
    if (hit->mode == Mode::queue && mode != Mode::queue) out.push_back("outside a queue block: " + line);
    if (hit->mode == Mode::interface && mode == Mode::global) out.push_back("outside an interface: " + line);
    if (line.rfind("interface ", 0) == 0) mode = Mode::interface;
    else if (line == "!") mode = Mode::global;
    else if (std::regex_match(line, test::re(R"(   (uc-)?tx-queue [0-7])"))) mode = Mode::queue;
    else if (hit->mode == Mode::interface) mode = Mode::interface;
    uc = uc || line.find("uc-tx-queue") != std::string::npos;
    voq = voq || std::regex_search(line, test::re(R"((^|\s)tx-queue)"));
    const std::vector<long> n = numbers(line);
    if (line.find("   mtu ") == 0 && (n[0] < 68 || n[0] > 9214)) out.push_back("MTU out of EOS's range: " + line);
    if (line.rfind("      bandwidth percent", 0) == 0 && (n[0] < 1 || n[0] > 100))
      out.push_back("bandwidth out of 1-100: " + line);
    if (line.rfind("      random-detect ecn", 0) == 0 && (n[0] >= n[1] || n[2] < 1 || n[2] > 100))
      out.push_back("ECN thresholds or probability out of range: " + line);
  }
  if (uc && voq) out.push_back("uc-tx-queue and tx-queue in one session: EOS rejects it");
  return out;
}

}  // namespace

TEST_CASE("eos fidelity: every rendered session is EOS's vocabulary, one queue kind per chip") {
  for (const bool voq : {false, true})
    for (const auto& v : test::intent_variants()) {
      const auto& [name, change] = v;
      DeviceDesired d = test::example_switch(Platform::eos, {"Ethernet1/1", "Ethernet2/1", "Ethernet48/1"});
      d.hardware.voq = voq;
      change(d);
      CAPTURE(v.first);
      CAPTURE(voq);
      const std::string session = test::render_template_of("eos/session.cfg.mustache", eos_context(d));
      const std::vector<std::string> found = problems(session);
      CHECK_MESSAGE(found.empty(), (found.empty() ? "" : found.front()) << "\n" << session);
      CHECK(session.find(voq ? "uc-tx-queue" : " tx-queue") == std::string::npos);
    }
  test::check_goldens("session.cfg", problems);
}

TEST_CASE("eos fidelity: the reader fails on what EOS would reject") {
  const std::string good = test::render_template_of("eos/session.cfg.mustache",
                                                    eos_context(test::example_switch(Platform::eos, {"Ethernet1/1"})));
  REQUIRE(problems(good).empty());
  auto with = [&](const std::string& from, const std::string& to) { return test::replaced(good, from, to); };
  CHECK_FALSE(problems(with("   uc-tx-queue 0\n", "   tx-queue 0\n")).empty());  // mixed vocabulary
  CHECK_FALSE(problems(with("153600 bytes", "150 kbytes")).empty());             // undocumented kbyte base
  CHECK_FALSE(problems(with("action drop", "action no-drop")).empty());          // "% Unavailable command"
  CHECK_FALSE(problems(with("   mtu 9100", "   mtu 9216")).empty());             // EOS's L3 MTU ends at 9214
  CHECK_FALSE(problems(with("      bandwidth percent 50\n", "   bandwidth percent 50\n")).empty());  // wrong mode
}

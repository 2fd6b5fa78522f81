// NVUE fidelity: commands.nvue read the way `nv` would take it. Every command is one of the `nv set`
// forms of NVIDIA's documentation (Cumulus Linux 5.x, Quality-of-Service, RoCE and the NVUE command
// reference; shared/reference/switch-nos.md, NVUE), with values in the documented ranges.
#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

#include "fidelity_support.h"
#include "regex_cache.h"
#include "text_lines.h"

using namespace fabricctl;

namespace {

struct Form {
  const char* pattern;
  long lo, hi;  // the range of the line's last number; lo > hi: no number to check
};

const Form kVocabulary[] = {
    {R"(#.*)", 1, 0},
    {R"(nv set qos roce mode lossless)", 1, 0},
    // RoCE's on/off switch: `enable on` until 5.14, `state enabled` from 5.15 (5.15 New-and-Changed-NVUE-Commands).
    {R"(nv set qos roce (enable on|state enabled))", 1, 0},
    {R"(nv set qos roce cable-length \d+)", 1, 100000},
    {R"(nv set qos mapping default-global trust (l2|l3|both|port))", 1, 0},
    {R"(nv set qos mapping default-global dscp \d+(,\d+)* switch-priority [0-7])", 0, 7},
    {R"(nv set qos mapping default-global pcp [0-7] switch-priority [0-7])", 0, 7},
    {R"(nv set qos traffic-pool default-(lossless|lossy) memory-percent \d+)", 0, 100},
    {R"(nv set qos pfc default-global switch-priority [0-7](,[0-7])*)", 0, 7},
    {R"(nv set qos pfc default-global (tx|rx) enable)", 1, 0},
    {R"(nv set qos pfc default-global cable-length \d+)", 1, 100000},
    {R"(nv set qos egress-queue-mapping default-global switch-priority [0-7] traffic-class [0-7])", 0, 7},
    {R"(nv set qos egress-scheduler default-global traffic-class [0-7] mode (dwrr|strict))", 1, 0},
    {R"(nv set qos egress-scheduler default-global traffic-class [0-7] bw-percent \d+)", 1, 100},
    {R"(nv set qos congestion-control default-global traffic-class [0-7] ecn (enable|disable))", 1, 0},
    {R"(nv set qos congestion-control default-global traffic-class [0-7] (min|max)-threshold \d+)", 1, 4294967295},
    {R"(nv set qos congestion-control default-global traffic-class [0-7] probability \d+)", 1, 100},
    {R"(nv set qos pfc-watchdog polling-interval \d+)", 100, 5000},
    {R"(nv set qos pfc-watchdog robustness \d+)", 1, 1000},
    {R"(nv set interface swp\d+(s\d+)? link mtu \d+)", 552, 9216},
    {R"(nv set interface swp\d+(s\d+)? qos pfc-watchdog)", 1, 0},
    // NVUE command reference, QoS: `qos pfc-watchdog state enable|disable`, Cumulus Linux 5.6 and later.
    {R"(nv set interface swp\d+(s\d+)? qos pfc-watchdog state (enable|disable))", 1, 0},
    // Removals, paths from the NVUE command reference's `nv unset` list.
    {R"(nv unset qos roce)", 1, 0},
    {R"(nv unset qos pfc default-global( switch-priority [0-7](,[0-7])*)?)", 1, 0},
    {R"(nv unset qos congestion-control default-global traffic-class [0-7](,[0-7])*)", 1, 0},
    {R"(nv unset qos traffic-pool default-(lossless|lossy) memory-percent)", 1, 0},
    {R"(nv unset qos egress-scheduler default-global traffic-class [0-7] bw-percent)", 1, 0},
    {R"(nv unset qos pfc-watchdog)", 1, 0},
    {R"(nv unset qos (egress-queue-mapping|egress-scheduler|congestion-control) default-global)", 1, 0},
    {R"(nv unset qos mapping default-global (pcp|dscp))", 1, 0},
    {R"(nv unset interface swp\d+(s\d+)? qos pfc-watchdog)", 1, 0},
};

std::vector<std::string> problems(const std::string& commands) {
  std::vector<std::string> out;
  for (const std::string& line : test::lines_of(commands)) {
    const Form* hit = nullptr;
    for (const Form& f : kVocabulary)
      if (std::regex_match(line, test::re(f.pattern))) hit = &f;
    if (!hit) {
      out.push_back("not a documented nv command: " + line);
      continue;
    }
    if (hit->lo > hit->hi) continue;
    const long n = std::stol(line.substr(line.find_last_of(' ') + 1));
    if (n < hit->lo || n > hit->hi)
      out.push_back("out of " + std::to_string(hit->lo) + "-" + std::to_string(hit->hi) + ": " + line);
  }
  return out;
}

}  // namespace

TEST_CASE("nvue fidelity: every rendered command is a documented nv set form, values in range") {
  for (const auto& entry : test::intent_variants()) {
    const auto& [name, change] = entry;
    DeviceDesired d = test::example_switch(Platform::nvue, {"swp1", "swp2", "swp32s1"});
    change(d);
    CAPTURE(entry.first);
    const std::string out = test::render_template_of("nvue/commands.nvue.mustache", nvue_context(d));
    const std::vector<std::string> found = problems(out);
    CHECK_MESSAGE(found.empty(), (found.empty() ? "" : found.front()) << "\n" << out);
  }
  test::check_goldens("commands.nvue", problems);
}

TEST_CASE("nvue fidelity: the reader fails on what NVUE would reject") {
  const std::string good = test::render_template_of("nvue/commands.nvue.mustache",
                                                    nvue_context(test::example_switch(Platform::nvue, {"swp1"})));
  REQUIRE(problems(good).empty());
  auto with = [&](const std::string& from, const std::string& to) { return test::replaced(good, from, to); };
  CHECK_FALSE(problems(with("bw-percent 50", "bandwidth 50")).empty());    // the keyword is bw-percent
  CHECK_FALSE(problems(with("probability 20", "probability 0")).empty());  // 1-100
  CHECK_FALSE(problems(with("link mtu 9100", "link mtu 9300")).empty());   // 552-9216
  CHECK_FALSE(problems(with("robustness 2", "robustness 0")).empty());
  CHECK_FALSE(problems(with("dscp 0 switch-priority", "dscp 0-7 switch-priority")).empty());  // ranges undocumented
}

// Host fidelity: apply.sh read the way the host would run it. Every `ip` and `dcb` command follows the
// grammar of its man page (ip-link(8); dcb-ets(8), dcb-pfc(8), dcb-app(8) of iproute2 6.1), and every
// sysfs or configfs path apply.sh writes is one the drivers expose (shared/reference/host-nic.md: the
// MLNX_OFED mlx5 ecn files, rdma_cm's configfs, the RDMA traffic class override), with a value in range.
// (The real dcb cannot judge the syntax here: on a veth it stops at the kernel's EOPNOTSUPP answer to
// its first read, before it parses the rest.)
#include <doctest/doctest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "fidelity_support.h"
#include "platform/linux/nic_state.h"
#include "regex_cache.h"

using namespace fabricctl;

namespace {

/// apply.sh's commands: continuation lines joined, comments and blank lines dropped, words split as
/// sh splits them (single quotes only: apply.sh quotes nothing else).
std::vector<std::vector<std::string>> commands(const std::string& script) {
  std::vector<std::vector<std::string>> out;
  std::string joined;
  size_t pos = 0;
  while (pos < script.size()) {
    size_t end = script.find('\n', pos);
    if (end == std::string::npos) end = script.size();
    std::string line = script.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\\') {
      joined += line.substr(0, line.size() - 1);
      continue;
    }
    joined += line;
    const std::string trimmed = joined.substr(std::min(joined.find_first_not_of(' '), joined.size()));
    joined.clear();
    if (trimmed.empty() || trimmed[0] == '#') continue;
    std::vector<std::string> words;
    std::string word;
    bool quoted = false, any = false;
    for (char c : trimmed) {
      if (c == '\'') {
        quoted = !quoted;
        any = true;
      } else if (c == ' ' && !quoted) {
        if (any) words.push_back(word);
        word.clear();
        any = false;
      } else {
        word += c;
        any = true;
      }
    }
    if (any) words.push_back(word);
    out.push_back(words);
  }
  return out;
}

bool integer_in(const std::string& s, long lo, long hi) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 10) return false;
  const long v = std::stol(s);
  return v >= lo && v <= hi;
}

/// A dcb KEY:VALUE map (dcb-ets(8) "PRIO-MAP", dcb-app(8) "DSCP-MAP"...): each key once, in range, each
/// value accepted by `value`. Returns the pairs, or a problem.
std::string check_map(const std::vector<std::string>& words, size_t from, size_t to, long key_hi,
                      const std::function<bool(const std::string&)>& value,
                      std::vector<std::pair<long, std::string>>* pairs = nullptr) {
  std::set<long> keys;
  for (size_t i = from; i < to; ++i) {
    const size_t colon = words[i].find(':');
    if (colon == std::string::npos) return "not a KEY:VALUE mapping: " + words[i];
    const std::string k = words[i].substr(0, colon), v = words[i].substr(colon + 1);
    if (!integer_in(k, 0, key_hi) || !keys.insert(std::stol(k)).second) return "bad or repeated key: " + words[i];
    if (!value(v)) return "bad value: " + words[i];
    if (pairs) pairs->emplace_back(std::stol(k), v);
  }
  return from == to ? "empty map" : "";
}

/// The index of the next keyword of `keywords` at or after `i`, or the end.
size_t next_keyword(const std::vector<std::string>& w, size_t i, const std::set<std::string>& keywords) {
  while (i < w.size() && !keywords.count(w[i])) ++i;
  return i;
}

std::string dcb_problem(const std::vector<std::string>& w) {
  auto tc = [](const std::string& v) { return integer_in(v, 0, 7); };
  if (w.size() >= 5 && w[1] == "ets" && w[2] == "set" && w[3] == "dev") {
    // dcb ets set dev DEV [ tc-tsa TSA-MAP ] [ tc-bw BW-MAP ] [ prio-tc PRIO-MAP ]
    const std::set<std::string> keys = {"prio-tc", "tc-tsa", "tc-bw", "willing", "reco-tc-tsa", "reco-tc-bw"};
    std::vector<std::pair<long, std::string>> tsa, bw;
    for (size_t i = 5; i < w.size();) {
      if (!keys.count(w[i])) return "not a dcb ets set parameter: " + w[i];
      const size_t end = next_keyword(w, i + 1, keys);
      std::string p;
      if (w[i] == "prio-tc") p = check_map(w, i + 1, end, 7, tc);
      else if (w[i] == "tc-tsa")
        p = check_map(
            w, i + 1, end, 7,
            [](const std::string& v) { return v == "strict" || v == "cbs" || v == "ets" || v == "vendor"; }, &tsa);
      else if (w[i] == "tc-bw")
        p = check_map(
            w, i + 1, end, 7, [](const std::string& v) { return integer_in(v, 0, 100); }, &bw);
      else return "parameter fabricctl does not use: " + w[i];
      if (!p.empty()) return w[i] + ": " + p;
      i = end;
    }
    // mlx5 refuses ETS shares that do not add up to 100 across the ets classes.
    long sum = 0;
    for (const auto& [c, t] : tsa)
      if (t == "ets")
        for (const auto& [c2, b] : bw)
          if (c2 == c) sum += std::stol(b);
    if (!tsa.empty() && std::any_of(tsa.begin(), tsa.end(), [](const auto& x) { return x.second == "ets"; }) &&
        sum != 100)
      return "ets bandwidths add up to " + std::to_string(sum);
    return "";
  }
  if (w.size() >= 5 && w[1] == "pfc" && w[2] == "set" && w[3] == "dev") {
    // dcb pfc set dev DEV [ prio-pfc PFC-MAP ] [ delay INTEGER ]
    const std::set<std::string> keys = {"prio-pfc", "delay"};
    for (size_t i = 5; i < w.size();) {
      if (w[i] == "delay") {
        if (i + 1 >= w.size() || !integer_in(w[i + 1], 0, 65535)) return "delay takes an integer";
        i += 2;
      } else if (w[i] == "prio-pfc") {
        const size_t end = next_keyword(w, i + 1, keys);
        const std::string p = check_map(w, i + 1, end, 7, [](const std::string& v) { return v == "on" || v == "off"; });
        if (!p.empty()) return "prio-pfc: " + p;
        i = end;
      } else {
        return "not a dcb pfc set parameter: " + w[i];
      }
    }
    return "";
  }
  if (w.size() >= 6 && w[1] == "app" && (w[2] == "replace" || w[2] == "add" || w[2] == "del") && w[3] == "dev" &&
      w[5] == "dscp-prio") {
    // dcb app { add | del | replace } dev DEV dscp-prio DSCP-MAP
    const std::string p = check_map(w, 6, w.size(), 63, [](const std::string& v) { return integer_in(v, 0, 7); });
    return p.empty() ? "" : "dscp-prio: " + p;
  }
  if (w.size() == 6 && w[1] == "app" && w[2] == "flush" && w[3] == "dev" && w[5] == "dscp-prio") return "";
  return "not a dcb command fabricctl uses: " + w[1] + " " + (w.size() > 2 ? w[2] : "");
}

/// The sysfs and configfs files apply.sh may write, with the values each takes.
std::string sysfs_problem(const std::string& path, const std::string& value) {
  static const std::string ifname = R"([A-Za-z0-9_.-]{1,15})", dev = R"([A-Za-z0-9_.-]{1,63})";
  std::smatch m;
  if (std::regex_match(path, m, test::re("/sys/class/net/" + ifname + "/ecn/roce_(rp|np)/enable/[0-7]")))
    return value == "0" || value == "1" ? "" : "enable takes 0 or 1";
  if (std::regex_match(path, test::re("/sys/class/net/" + ifname + "/ecn/roce_np/cnp_dscp")))
    return integer_in(value, 0, 63) ? "" : "cnp_dscp takes 0-63";
  if (std::regex_match(path, test::re("/sys/class/net/" + ifname + "/ecn/roce_np/cnp_802p_prio")))
    return integer_in(value, 0, 7) ? "" : "cnp_802p_prio takes 0-7";
  if (std::regex_match(path, test::re("/sys/class/net/" + ifname + "/ecn/roce_np/min_time_between_cnps")))
    return integer_in(value, 0, 2147483647) ? "" : "not a microsecond count";
  if (std::regex_match(path, m, test::re("/sys/class/net/" + ifname + "/ecn/roce_rp/([a-z_]+)"))) {
    const bool known = std::find(kDcqcnRpParams.begin(), kDcqcnRpParams.end(), m[1].str()) != kDcqcnRpParams.end();
    return !known ? "no such mlx5 roce_rp file" : integer_in(value, 0, 2147483647) ? "" : "not a firmware value";
  }
  if (std::regex_match(path, test::re("/sys/kernel/config/rdma_cm/" + dev + "/ports/[0-9]+/default_roce_mode")))
    return value == "RoCE v2" || value == "IB/RoCE v1" ? "" : "default_roce_mode takes RoCE v2 or IB/RoCE v1";
  if (std::regex_match(path, test::re("/sys/kernel/config/rdma_cm/" + dev + "/ports/[0-9]+/default_roce_tos")))
    return integer_in(value, 0, 255) ? "" : "a ToS byte is 0-255";
  if (std::regex_match(path, test::re("/sys/class/infiniband/" + dev + "/tc/[0-9]+/traffic_class")))
    return "traffic_class shows \"Global tclass=N\", not N: set_tclass compares it";
  return "not a file the drivers expose: " + path;
}

std::vector<std::string> problems(const std::string& script) {
  std::vector<std::string> out;
  for (const std::vector<std::string>& w : commands(script)) {
    const std::string& cmd = w[0];
    std::string p;
    if (cmd == "ip") {
      // ip link set dev DEV mtu MTU
      if (w.size() != 7 || w[1] != "link" || w[2] != "set" || w[3] != "dev" || w[5] != "mtu" ||
          !integer_in(w[6], 68, 9978))
        p = "not ip link set dev DEV mtu MTU (68-9978)";
    } else if (cmd == "dcb") {
      p = dcb_problem(w);
    } else if (cmd == "set_sysfs") {
      p = w.size() == 3 ? sysfs_problem(w[1], w[2]) : "set_sysfs PATH VALUE";
    } else if (cmd == "set_tclass") {
      // MLNX_OFED main_ext.c traffic_class_store: N (0-255) sets the port's override.
      if (w.size() != 3 ||
          !std::regex_match(w[1], test::re(R"(/sys/class/infiniband/[A-Za-z0-9_.-]{1,63}/tc/[0-9]+/traffic_class)")) ||
          !integer_in(w[2], 0, 255))
        p = "not set_tclass TRAFFIC_CLASS_PATH 0-255";
    } else if (cmd == "make_dir") {
      if (w.size() != 2 || !std::regex_match(w[1], test::re(R"(/sys/kernel/config/rdma_cm/[A-Za-z0-9_.-]{1,63})")))
        p = "not an rdma_cm configfs directory";
    } else if (cmd == "set_conf") {
      if (w.size() < 2 || w[1] != "/etc/nccl.conf") p = "set_conf writes /etc/nccl.conf only";
      for (size_t i = std::find(w.begin(), w.end(), "--") - w.begin() + 1; i < w.size(); ++i)
        if (!std::regex_match(w[i], test::re(R"(NCCL_IB_(HCA|TC|GID_INDEX)=\S+)")))
          p = "not an NCCL setting fabricctl owns: " + w[i];
    }
    // The script's own helpers and shell plumbing are read by sh -n elsewhere (context_test.cpp).
    if (!p.empty())
      out.push_back(p + "  [" + [&] {
        std::string s;
        for (const std::string& x : w) s += (s.empty() ? "" : " ") + x;
        return s;
      }() + "]");
  }
  // check_app reads the table back with `dcb -j app show dev DEV dscp-prio` (dcb-app(8)).
  if (script.find("dcb -j app show dev \"$dev\" dscp-prio") == std::string::npos)
    out.emplace_back("check_app does not read the DSCP app table back as dcb-app(8) shows it");
  return out;
}

std::string apply_sh(const DeviceDesired& host) {
  return test::render_template_of("linux/apply.sh.mustache", linux_context(host));
}

}  // namespace

TEST_CASE("linux fidelity: apply.sh speaks ip-link(8) and dcb(8), and writes only files the drivers expose") {
  for (const auto& entry : test::intent_variants()) {
    const auto& [name, change] = entry;
    for (const bool pcp : {false, true}) {
      DeviceDesired host = test::example_host();
      change(host);
      if (pcp) host.qos.trust = Trust::pcp;
      host.qos.dcqcn.rp = {{"rpg_ai_rate", 10}};
      host.qos.dcqcn.np_min_time_between_cnps = 0;
      CAPTURE(entry.first);
      CAPTURE(pcp);
      const std::string sh = apply_sh(host);
      const std::vector<std::string> found = problems(sh);
      CHECK_MESSAGE(found.empty(), (found.empty() ? "" : found.front()));
    }
  }
  test::check_goldens("apply.sh", problems);
}

TEST_CASE("linux fidelity: the reader fails on what the tools and drivers would reject") {
  const std::string good = apply_sh(test::example_host());
  REQUIRE(problems(good).empty());
  auto with = [&](const std::string& from, const std::string& to) { return test::replaced(good, from, to); };
  CHECK_FALSE(problems(with("tc-tsa 0:ets", "tc-tsa 0:wrr")).empty());  // dcb-ets(8): strict|cbs|ets|vendor
  CHECK_FALSE(problems(with("tc-bw 0:50", "tc-bw 0:40")).empty());      // shares no longer add up to 100
  CHECK_FALSE(problems(with("3:on", "3:yes")).empty());                 // dcb-pfc(8): on|off
  CHECK_FALSE(problems(with("26:3", "26:8")).empty());                  // priorities are 0-7
  CHECK_FALSE(problems(with("mtu 9000", "mtu 65000")).empty());         // beyond mlx5's maximum
  CHECK_FALSE(problems(with("ecn/roce_np/cnp_dscp' 48", "ecn/roce_np/cnp_dscp' 64")).empty());
  CHECK_FALSE(problems(with("/ecn/roce_np/cnp_802p_prio'", "/ecn/roce_np/cnp_prio'")).empty());  // no such file
  CHECK_FALSE(problems(with("default_roce_mode' 'RoCE v2'", "default_roce_mode' 'RoCEv2'")).empty());
}

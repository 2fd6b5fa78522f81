// Mutated snapshots must produce one-line errors, never crashes or escaping exceptions, and whatever
// the reader accepts must survive a write and a re-read unchanged. Every snapshot under tests/snapshots/
// is mutated at the byte level (random bytes, control and non-ASCII bytes included; deletions,
// duplicated slices, truncation) and at the token level (a JSON token replaced by a boundary value, a
// hostile string, another token of the same file, deleted, duplicated or swapped). Seeded and bounded,
// so it is repeatable and fast; under the ASan build it also catches memory errors in the reader.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "state/snapshot.h"
#include "util/json_locate.h"
#include "util/json_reader.h"

using namespace fabricctl;
namespace fs = std::filesystem;

namespace {

std::string read_back(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// One JSON token of a text: its start and length (strings with their quotes).
struct Token {
  size_t at = 0;
  size_t len = 0;
};

/// A tolerant lexer: strings, numbers and literals as one token each, every other non-space byte as a
/// token of its own. Good enough to find the places to mutate; it never has to be right.
std::vector<Token> tokens(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    size_t j = i + 1;
    if (c == '"') {
      while (j < s.size() && s[j] != '"') j += s[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, s.size());
    } else if (c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) {
      while (j < s.size() &&
             std::string_view("0123456789+-.eEabcdefghijklmnopqrstuvwxyz").find(s[j]) != std::string_view::npos)
        ++j;
    }
    out.push_back({i, j - i});
    i = j;
  }
  return out;
}

/// Values that sit on or just past a limit of the format, of the wrong type, or hostile to a terminal.
const std::vector<std::string>& dictionary() {
  static const std::vector<std::string> words = {
      // integers at and past the ranges of docs/snapshots.md, and numbers that are not integers
      "0", "-1", "1", "7", "8", "63", "64", "100", "101", "255", "256", "4096", "4097", "65535", "65536", "60000",
      "60001", "3600000", "3600001", "10000000", "10000001", "2147483647", "2147483648", "4294967295", "4294967296",
      "9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616",
      "-9223372036854775809", "1e3", "9100.0", "-0", "1E400", "0.5", "01",
      // wrong types and structures
      "true", "false", "null", "[]", "{}", "[3, 3]", "[0, 0, 0, 0, 0, 0, 0, 0]", "{\"tc\": 3}", "\"3\"",
      "[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]", "{\"a\": {\"b\": {\"c\": {\"d\": {\"e\": {\"f\": {\"g\": 1}}}}}}}",
      // strings: empty, control characters (escaped, as JSON allows), C1, bidi, non-ASCII, long
      "\"\"", "\"\\u0000\"", "\"\\u001b[2J\"", "\"a\\nb\"", "\"\\u0085\"", "\"\\u009b31m\"", "\"\\u007f\"",
      "\"\\u202e\"", "\"\\ud800\"", "\"\\ud83d\\ude00\"", "\"\\u00e9\"", "\"\xc3\xa9\"", "\"\\\"\"", "\"\\\\\"",
      "\"" + std::string(300, 'a') + "\"", "\"" + std::string(64, 'x') + "\"",
      // choices and names right and wrong
      "\"dscp\"", "\"DSCP\"", "\"pcp\"", "\"up\"", "\"down\"", "\"ets\"", "\"strict\"", "\"drop\"", "\"forward\"",
      "\"alert\"", "\"active\"", "\"RoCE v2\"", "\"IB\"", "\"sonic\"", "\"linux\"", "\"fe80::1\"",
      "\"::ffff:10.0.0.1\"", "\"fe80::zz\"", "\"2026-11-30T06:00:00Z\"", "\"2026-02-30T06:00:00Z\"",
      "\"2026-11-30T06:00:00.1234567890Z\"", "\"fabricctl.snapshot/v1\"", "\"fabricctl.snapshot/v2\"", "\"openconfig\"",
      "\"../etc\"", "\".\"", "\"Ethernet0;reboot\"", "\"Ethernet0\"", "\"leaf1\"", "\"host1\"", "\"mlx5_0\"",
      // keys
      "\"mtu\"", "\"mtuu\"", "\"ports\"", "\"device\"", "\"schema\"", "\"ecn\"", "\"counters\"", "\"gids\"", "\"lldp\"",
      "\"rdma\"", "\"pfc_watchdog\"", "\"enabled\"", "\"tc\"", "\"bandwidth_pct\"",
      // punctuation
      "{", "}", "[", "]", ",", ":", "\"", "\\"};
  return words;
}

size_t below(std::mt19937& rng, size_t n) { return n == 0 ? 0 : rng() % n; }

/// 1-4 byte-level edits.
std::string mutate_bytes(std::string s, std::mt19937& rng) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !s.empty(); ++e) {
    const size_t at = below(rng, s.size());
    const char byte = static_cast<char>(rng() % 256);
    switch (rng() % 6) {
      case 0: s[at] = byte; break;
      case 1: s.insert(s.begin() + static_cast<long>(at), byte); break;
      case 2: s.erase(at, 1 + below(rng, 16)); break;
      case 3: s.insert(at, s.substr(below(rng, s.size()), 1 + below(rng, 200))); break;
      case 4: s.resize(at); break;
      default: s[at] = static_cast<char>(s[at] ^ (1 << (rng() % 8))); break;
    }
  }
  return s;
}

/// 1-4 token-level edits, mostly one: many mutants stay valid JSON, so they reach the schema checks,
/// and some stay valid snapshots, so they reach the writer.
std::string mutate_tokens(std::string s, std::mt19937& rng) {
  const int edits = rng() % 4 == 0 ? 2 + static_cast<int>(rng() % 3) : 1;
  for (int e = 0; e < edits; ++e) {
    const std::vector<Token> toks = tokens(s);
    if (toks.empty()) break;
    const Token t = toks[below(rng, toks.size())];
    const Token u = toks[below(rng, toks.size())];
    switch (rng() % 6) {
      case 0:
      case 1: s.replace(t.at, t.len, dictionary()[below(rng, dictionary().size())]); break;
      case 2: s.replace(t.at, t.len, s.substr(u.at, u.len)); break;  // another token of the same file
      case 3: s.erase(t.at, t.len); break;
      case 4: {  // a run of tokens copied elsewhere: duplicate keys, members in the wrong object
        const size_t first = below(rng, toks.size());
        const size_t last = std::min(toks.size() - 1, first + below(rng, 12));
        const std::string run = s.substr(toks[first].at, toks[last].at + toks[last].len - toks[first].at);
        s.insert(t.at, run + (rng() % 2 ? "," : ""));
        break;
      }
      default: {  // two tokens swapped
        if (t.at == u.at) break;
        const Token& lo = t.at < u.at ? t : u;
        const Token& hi = t.at < u.at ? u : t;
        if (lo.at + lo.len > hi.at) break;
        const std::string a = s.substr(lo.at, lo.len), b = s.substr(hi.at, hi.len);
        s.replace(hi.at, hi.len, a);
        s.replace(lo.at, lo.len, b);
        break;
      }
    }
  }
  return s;
}

/// Why `msg` is not one line of printable text ("" when it is): valid UTF-8 without C0 controls
/// (newlines included), DEL or C1 controls (U+0080-U+009F).
std::string unprintable(const std::string& msg) {
  if (msg.empty()) return "empty";
  for (size_t i = 0; i < msg.size();) {
    const auto c = static_cast<unsigned char>(msg[i]);
    if (c < 0x20 || c == 0x7f) return "control byte at " + std::to_string(i);
    if (c < 0x80) {
      ++i;
      continue;
    }
    const size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
    if (n == 0 || c > 0xf4 || i + n > msg.size()) return "invalid UTF-8 at " + std::to_string(i);
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(msg[i + k]) & 0xc0) != 0x80) return "invalid UTF-8 at " + std::to_string(i);
    if (c == 0xc2 && static_cast<unsigned char>(msg[i + 1]) <= 0x9f) return "C1 control at " + std::to_string(i);
    i += n;
  }
  return "";
}

/// A mutant for a failure message: printable, and not too long.
std::string shown(const std::string& s) {
  std::string out;
  for (char c : s.substr(0, 600)) {
    const auto u = static_cast<unsigned char>(c);
    out += u >= 0x20 && u < 0x7f
               ? std::string(1, c)
               : "\\x" + std::string(1, "0123456789abcdef"[u >> 4]) + std::string(1, "0123456789abcdef"[u & 15]);
  }
  return s.size() > 600 ? out + "..." : out;
}

}  // namespace

TEST_CASE("mutated snapshots never crash the reader, and what it accepts writes back and re-reads the same") {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(FABRICCTL_SOURCE_DIR) / "tests" / "snapshots"))
    if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());  // the directory order differs between file systems; the seed must not
  REQUIRE(files.size() >= 10);
  std::vector<std::string> originals;
  for (const fs::path& f : files) {
    originals.push_back(read_back(f));
    REQUIRE_MESSAGE(parse_snapshot(originals.back()).has_value(), f.string());  // the corpus itself is good
  }

  std::mt19937 rng(20261201);
  constexpr int kMutants = 2000;
  int rejected = 0, accepted = 0, with_bad_ports = 0, problems = 0;
  auto problem = [&](int i, const std::string& what, const std::string& mutant) {
    // The first few in full; a run with hundreds of failures stays readable.
    if (++problems <= 5)
      FAIL_CHECK("mutant " << i << " of " << files[static_cast<size_t>(i) % files.size()].string() << ": " << what
                           << "\n  mutant: " << shown(mutant));
  };
  for (int i = 0; i < kMutants; ++i) {
    const std::string& original = originals[static_cast<size_t>(i) % originals.size()];
    const std::string mutant = i % 2 == 0 ? mutate_tokens(original, rng) : mutate_bytes(original, rng);
    try {
      // The fast parser (simdjson and the reader's rules) accepts exactly what the located one
      // (nlohmann) accepts, and a refused mutant gets the located one's message.
      const auto fast = jsonr::parse_json(mutant, {kMaxSnapshotBytes, 16});
      const std::string located = jsonr::locate_json_error(mutant, 16);
      if (fast.has_value() != located.empty() || (!fast && fast.error() != located))
        problem(i,
                "simdjson and nlohmann disagree: \"" + (fast ? std::string("<ok>") : fast.error()) + "\" vs \"" +
                    located + "\"",
                mutant);
      auto d = parse_snapshot(mutant);
      if (!d) {
        ++rejected;
        if (const std::string why = unprintable(d.error()); !why.empty())
          problem(i, "error is not one printable line (" + why + "): " + shown(d.error()), mutant);
        continue;
      }
      ++accepted;
      for (const auto& [port, reason] : d->unreadable_ports) {
        ++with_bad_ports;
        if (const std::string why = unprintable(reason); !why.empty())
          problem(i, "unreadable port reason is not one printable line (" + why + "): " + shown(reason), mutant);
      }
      const std::string written = write_snapshot(*d);
      auto again = parse_snapshot(written);
      if (!again) {
        problem(i, "written back, it does not read: " + again.error() + "\n  written: " + shown(written), mutant);
      } else if (const std::string rewritten = write_snapshot(*again); rewritten != written) {
        problem(i,
                "written back and re-read, it writes different text\n  first:  " + shown(written) +
                    "\n  second: " + shown(rewritten),
                mutant);
      }
    } catch (const std::exception& e) {
      problem(i, std::string("exception: ") + e.what(), mutant);
    } catch (...) {
      problem(i, "unknown exception", mutant);
    }
  }
  CHECK(problems == 0);
  MESSAGE(kMutants << " mutants: " << rejected << " rejected, " << accepted << " accepted (" << with_bad_ports
                   << " unreadable ports)");
  // Both paths are exercised: if nearly everything were rejected (or accepted), the mutator is not
  // doing its job.
  CHECK(rejected > kMutants / 4);
  CHECK(accepted > kMutants / 20);
  CHECK(with_bad_ports > 0);
}

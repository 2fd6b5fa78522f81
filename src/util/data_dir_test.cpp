#include "util/data_dir.h"
#include "temp_dir.h"

#include <doctest/doctest.h>

#include <fstream>

using namespace fabricctl;
namespace fs = std::filesystem;
using fabricctl::test::spit;
using fabricctl::test::TempDir;

namespace {

const DataDirRule kRule{"tool.datadir", "../share/tool", ""};

}  // namespace

TEST_CASE("data dir: beside the executable, then the built-in prefix, else none") {
  TempDir t;
  fs::create_directories(t.path / "prefix/bin");
  const fs::path exe = t.path / "prefix/bin/tool";
  const DataDirRule with_builtin{kRule.marker, kRule.exe_relative, t.path / "builtin"};
  CHECK_FALSE(find_data_dir(exe, kRule));
  CHECK_FALSE(find_data_dir(exe, with_builtin));  // the built-in one does not exist either

  fs::create_directories(t.path / "builtin");
  auto d = find_data_dir(exe, with_builtin);
  REQUIRE(d);
  CHECK(d->path == t.path / "builtin");
  CHECK(d->how == "built-in");

  fs::create_directories(t.path / "prefix/share/tool");
  d = find_data_dir(exe, with_builtin);
  REQUIRE(d);
  CHECK(d->path == t.path / "prefix/share/tool");  // a moved tree beats the prefix it was built for
  CHECK(d->how == "beside the executable");
  CHECK_FALSE(find_data_dir(std::nullopt, kRule));
}

TEST_CASE("data dir: a marker beside the executable names it, relative to the executable's directory") {
  TempDir t;
  fs::create_directories(t.path / "build");
  fs::create_directories(t.path / "src/profiles");
  fs::create_directories(t.path / "share/tool");  // <exe>/../share/tool exists too: the marker wins
  const fs::path exe = t.path / "build/tool";
  spit(t.path / "build/tool.datadir", "../src\n");
  auto d = find_data_dir(exe, kRule);
  REQUIRE(d);
  CHECK(d->path == t.path / "src");
  CHECK(d->how == "named by " + (t.path / "build/tool.datadir").string());

  spit(t.path / "build/tool.datadir", (t.path / "src/profiles").string() + "  \n");
  d = find_data_dir(exe, kRule);
  REQUIRE(d);
  CHECK(d->path == t.path / "src/profiles");

  // A marker naming nothing that exists is passed over.
  spit(t.path / "build/tool.datadir", "../gone\n");
  d = find_data_dir(exe, kRule);
  REQUIRE(d);
  CHECK(d->path == t.path / "share/tool");
}

TEST_CASE("data dir: the candidates a message lists") {
  const DataDirRule r{kRule.marker, kRule.exe_relative, "/usr/local/share/tool"};
  CHECK(data_dir_candidates(fs::path("/opt/x/bin/tool"), r) ==
        std::vector<fs::path>{"/opt/x/share/tool", "/usr/local/share/tool"});
  CHECK(data_dir_candidates(std::nullopt, r) == std::vector<fs::path>{"/usr/local/share/tool"});
}

TEST_CASE("split_path_list drops empty entries") {
  CHECK(split_path_list("a::b:") == std::vector<std::string>{"a", "b"});
  CHECK(split_path_list("/x/y") == std::vector<std::string>{"/x/y"});
  CHECK(split_path_list(":").empty());
  CHECK(split_path_list("").empty());
}

TEST_CASE("display_path: relative below the working directory, absolute elsewhere") {
  CHECK(display_path("/repo/profiles/a.yaml", "/repo") == fs::path("profiles/a.yaml"));
  CHECK(display_path("/repo/x/../profiles", "/repo/") == fs::path("profiles"));
  CHECK(display_path("/usr/share/tool", "/repo") == fs::path("/usr/share/tool"));
  CHECK(display_path("/repo2/p", "/repo") == fs::path("/repo2/p"));
  CHECK(display_path("rel/p", "/repo") == fs::path("rel/p"));
}

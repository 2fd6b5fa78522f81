#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "render/render.h"
#include "temp_dir.h"

using namespace fabricctl;
namespace fs = std::filesystem;
using fabricctl::test::TempDir;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> tree(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) out.push_back(fs::relative(e.path(), dir).string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("write_rendered: writes every artifact atomically, scripts executable, nothing else") {
  TempDir tmp;
  const fs::path out = tmp.path / "out";
  std::vector<RenderedDevice> rendered = {
      {"leaf1", Platform::sonic, {{"config_db.json", "{}\n"}}},
      {"host1", Platform::linux_host, {{"apply.sh", "#!/bin/sh\n"}}},
  };
  REQUIRE(write_rendered(rendered, out));
  CHECK(tree(out) ==
        std::vector<std::string>{".fabricctl-render", "host1", "host1/apply.sh", "leaf1", "leaf1/config_db.json"});
  CHECK(slurp(out / "leaf1" / "config_db.json") == "{}\n");
  CHECK((fs::status(out / "host1" / "apply.sh").permissions() & fs::perms::owner_exec) != fs::perms::none);
  CHECK((fs::status(out / "leaf1" / "config_db.json").permissions() & fs::perms::owner_exec) == fs::perms::none);
  CHECK(tree(tmp.path) == std::vector<std::string>{"out", "out/.fabricctl-render", "out/host1", "out/host1/apply.sh",
                                                   "out/leaf1", "out/leaf1/config_db.json"});

  // A second render replaces the whole directory: devices no longer rendered disappear.
  rendered.pop_back();
  REQUIRE(write_rendered(rendered, out));
  CHECK(tree(out) == std::vector<std::string>{".fabricctl-render", "leaf1", "leaf1/config_db.json"});
}

TEST_CASE("write_rendered: refuses a directory it did not write, and says why") {
  TempDir tmp;
  fs::create_directory(tmp.path / "mine");
  std::ofstream(tmp.path / "mine" / "notes.txt") << "keep";
  const auto written = write_rendered({{"leaf1", Platform::sonic, {{"config_db.json", "{}\n"}}}}, tmp.path / "mine");
  REQUIRE_FALSE(written);
  CHECK(written.error() == "refusing to replace \"" + (tmp.path / "mine").string() +
                               "\": it is not empty and does not hold a previous fabricctl render (.fabricctl-render)");
  CHECK(slurp(tmp.path / "mine" / "notes.txt") == "keep");

  // A device directory that cannot be created (a name with a file in its way) writes nothing.
  const auto bad =
      write_rendered({{"leaf1", Platform::sonic, {{"config_db.json", "{}\n"}, {"sub/x", "x"}}}}, tmp.path / "new");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().starts_with("cannot write rendered files under \""));
  CHECK_FALSE(fs::exists(tmp.path / "new"));
  CHECK(tree(tmp.path) == std::vector<std::string>{"mine", "mine/notes.txt"});
}

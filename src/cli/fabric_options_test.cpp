#include "cli/fabric_options.h"
#include "temp_dir.h"

#include <doctest/doctest.h>

using namespace fabricctl;
namespace fs = std::filesystem;
using fabricctl::test::TempDir;

namespace {

Field<std::string> site_dir(const std::string& path, int line) {
  return {path, {std::make_shared<const std::string>("fabricctl.yaml"), line, 11}};
}

std::vector<std::string> listed(const std::vector<ChosenDir>& dirs) {
  std::vector<std::string> out;
  for (const ChosenDir& d : dirs) out.push_back(d.path + " (" + d.origin + (d.shipped ? ", shipped)" : ")"));
  return out;
}

}  // namespace

TEST_CASE("choose_dirs: flag, then environment, then fabricctl.yaml; the shipped directory last") {
  TempDir t;
  fs::create_directories(t.path / "shipped");
  DirSources s{"-p", {"a", "b"}, "FABRICCTL_PROFILES", "e1::e2", {site_dir("s1", 1)}, t.path / "shipped", "data"};
  const std::string shipped = (t.path / "shipped").string() + " (data, shipped)";
  CHECK(listed(choose_dirs(s)) == std::vector<std::string>{"a (-p)", "b (-p)", shipped});
  s.flag_values.clear();
  CHECK(listed(choose_dirs(s)) ==
        std::vector<std::string>{"e1 (FABRICCTL_PROFILES)", "e2 (FABRICCTL_PROFILES)", shipped});
  s.env_value.reset();
  CHECK(listed(choose_dirs(s)) == std::vector<std::string>{"s1 (fabricctl.yaml:1:11)", shipped});
  s.site.clear();
  CHECK(listed(choose_dirs(s)) == std::vector<std::string>{shipped});
  s.shipped.reset();
  CHECK(choose_dirs(s).empty());
}

TEST_CASE("choose_dirs: the shipped directory is not listed twice when a site names it") {
  TempDir t;
  fs::create_directories(t.path / "shipped");
  const DirSources s{
      "--templates", {t.path.string() + "/./shipped"}, "FABRICCTL_TEMPLATES", std::nullopt, {}, t.path / "shipped",
      "data"};
  const auto dirs = choose_dirs(s);
  REQUIRE(dirs.size() == 1);
  CHECK_FALSE(dirs[0].shipped);
  CHECK(dirs[0].origin == "--templates");
}

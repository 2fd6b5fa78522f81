#include "model/profile_set.h"
#include "temp_dir.h"

#include <doctest/doctest.h>

#include <fstream>

using namespace fabricctl;
namespace fs = std::filesystem;
using fabricctl::test::spit;
using fabricctl::test::TempDir;

namespace {

const fs::path kShipped = fs::path(FABRICCTL_SOURCE_DIR) / "profiles";

struct LoadedSet {
  Diags diags;
  std::optional<ProfileSet> set;
};

LoadedSet load_dirs(const std::vector<ProfileDir>& dirs) {
  LoadedSet l;
  l.set = load_profiles(dirs, l.diags);
  return l;
}

}  // namespace

TEST_CASE("profile dirs: a site profile extends a shipped one and keeps where each key was written") {
  TempDir t;
  const fs::path site = t.path / "site";
  spit(site / "site-lossless.yaml",
       "extends: roce-lossless\nmtu:\n  switch: 9216\necn:\n  tc:\n    3: {probability: 5}\n");
  LoadedSet l = load_dirs({{site, false}, {kShipped, true}});
  REQUIRE(l.set);
  CHECK(l.diags.str() == "");
  const ProfileLayer& m = l.set->merged.at("site-lossless");
  CHECK(*m.mtu_switch == 9216);
  CHECK(*m.mtu_switch.loc.file == (site / "site-lossless.yaml").string());
  CHECK(*m.mtu_host == 9000);  // inherited, located in the shipped file
  CHECK(*m.mtu_host.loc.file == (kShipped / "roce-lossless.yaml").string());
  // Maps merge per key and field: the site's probability, the shipped thresholds.
  CHECK(*m.ecn_tc.entries.at(3).probability == 5);
  CHECK(*m.ecn_tc.entries.at(3).min_bytes == 153600);
  CHECK(l.set->merged.count("roce-pfc-only") == 1);  // the shipped profiles are all there
}

TEST_CASE("profile dirs: an error in the merged profile points at the file that wrote the key") {
  TempDir t;
  const fs::path site = t.path / "site";
  spit(site / "bad.yaml", "extends: roce-lossless\nlossless_priorities: [3, 6]\n");
  LoadedSet l = load_dirs({{site, false}, {kShipped, true}});
  CHECK(l.diags.str() == (kShipped / "roce-lossless.yaml").string() +
                             ":15:27: cnp.priority: \"6\" is lossless; CNPs must not be paused (lossless_priorities: "
                             "[3, 6])\n");
}

TEST_CASE("profile dirs: unknown bases and cycles across directories are located errors") {
  TempDir t;
  spit(t.path / "a/x.yaml", "extends: roce-losless\n");
  spit(t.path / "a/p.yaml", "extends: q\n");
  spit(t.path / "b/q.yaml", "extends: p\n");
  LoadedSet l = load_dirs({{t.path / "a", false}, {t.path / "b", false}, {kShipped, true}});
  const std::string a = (t.path / "a").string(), b = (t.path / "b").string();
  CHECK(l.diags.str() ==
        a + "/p.yaml:1:10: extends: profile \"q\" extends itself through \"p\"\n" +  //
            a + "/x.yaml:1:10: extends: unknown profile \"roce-losless\"; did you mean \"roce-lossless\"?\n" + b +
            "/q.yaml:1:10: extends: profile \"p\" extends itself through \"q\"\n");
}

TEST_CASE("profile dirs: one name in two site directories is an error naming both files") {
  TempDir t;
  const std::string text = "extends: roce-lossless\n";
  spit(t.path / "a/site.yaml", text);
  spit(t.path / "b/site.yaml", text);
  LoadedSet l = load_dirs({{t.path / "a", false}, {t.path / "b", false}, {kShipped, true}});
  CHECK(l.diags.str() == (t.path / "b/site.yaml").string() + ":1:1: profile \"site\" is also defined in " +
                             (t.path / "a/site.yaml").string() + "\n");
}

TEST_CASE("profile dirs: a site profile named like a shipped one replaces the shipped file") {
  TempDir t;
  const fs::path site = t.path / "site";
  // The shipped roce-lossless.yaml would be valid; this one is a complete profile of its own with
  // host MTU 4200, and the shipped roce-pfc-only now builds on it.
  std::ifstream in(kShipped / "roce-lossless.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = text.find("host: 9000");
  REQUIRE(at != std::string::npos);
  text.replace(at, 10, "host: 4200");
  spit(site / "roce-lossless.yaml", text);
  LoadedSet l = load_dirs({{site, false}, {kShipped, true}});
  REQUIRE(l.set);
  CHECK(l.diags.str() == "");
  CHECK(*l.set->sources.at("roce-lossless").loc.file == (site / "roce-lossless.yaml").string());
  CHECK(*l.set->merged.at("roce-pfc-only").mtu_host == 4200);
}

TEST_CASE("profile dirs: a directory that cannot be read fails the load") {
  TempDir t;
  LoadedSet l = load_dirs({{t.path / "none", false}, {kShipped, true}});
  CHECK_FALSE(l.set);
  CHECK(l.diags.str() == (t.path / "none").string() + ": not a directory of profiles\n");
}

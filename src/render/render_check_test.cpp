#include "render/render_check.h"

#include <doctest/doctest.h>

#include <fstream>

#include "temp_dir.h"

using namespace fabricctl;
namespace fs = std::filesystem;
using fabricctl::test::TempDir;

namespace {

std::vector<std::string> lines(const std::vector<StaleFile>& stale) {
  std::vector<std::string> out;
  for (const StaleFile& f : stale) {
    out.push_back(std::string(to_string(f.why)) + " " + f.path);
  }
  return out;
}

}  // namespace

TEST_CASE("render check: a fresh render is current; edits, removals, additions and lost +x are stale") {
  TempDir tmp;
  const fs::path out = tmp.path / "out";
  std::vector<RenderedDevice> rendered = {
      {"leaf1", Platform::sonic, {{"config_db.json", "{}\n"}}},
      {"host1", Platform::linux_host, {{"apply.sh", "#!/bin/sh\n"}, {"nccl.conf", "NCCL_IB_TC=106\n"}}},
  };
  REQUIRE(write_rendered(rendered, out));
  auto stale = check_rendered(rendered, out);
  REQUIRE(stale);
  CHECK(stale->empty());

  std::ofstream(out / "leaf1" / "config_db.json") << "{\"edited\": 1}\n";
  fs::remove(out / "host1" / "nccl.conf");
  std::ofstream(out / "host1" / "notes.txt") << "by hand\n";
  fs::permissions(out / "host1" / "apply.sh", fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::remove);
  stale = check_rendered(rendered, out);
  REQUIRE(stale);
  CHECK(lines(*stale) == std::vector<std::string>{"modified host1/apply.sh", "missing host1/nccl.conf",
                                                  "extra host1/notes.txt", "modified leaf1/config_db.json"});
  // A device no longer rendered: its files are extra.
  rendered.pop_back();
  stale = check_rendered(rendered, out);
  REQUIRE(stale);
  CHECK(lines(*stale).front() == "extra host1/apply.sh");
}

TEST_CASE("render check: a directory that is not a render is an error, not 'stale'") {
  TempDir tmp;
  CHECK(check_rendered({}, tmp.path / "none").error().ends_with("is not a directory: nothing to check"));
  fs::create_directories(tmp.path / "plain");
  CHECK(check_rendered({}, tmp.path / "plain")
            .error()
            .ends_with("does not hold a fabricctl render (no .fabricctl-render)"));
}

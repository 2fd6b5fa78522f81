#include "ops/audit_log.h"

#include <doctest/doctest.h>

#include <fstream>
#include <vector>

#include "temp_dir.h"

using namespace fabricctl;
using namespace fabricctl::ops;

TEST_CASE("ops audit log: one JSON object per line, private, and a name is used once") {
  test::TempDir dir;
  auto log = AuditLog::open(dir.path / "audit", "fabricctl-20261203T120000-abcdef");
  REQUIRE_MESSAGE(log, log.error());
  log->event("start", {{"who", audit_actor()}});
  log->event("staged", {{"device", "leaf1"}});
  CHECK(log->error().empty());
  std::ifstream in(log->path());
  std::string line;
  std::vector<nlohmann::json> events;
  while (std::getline(in, line)) events.push_back(nlohmann::json::parse(line));
  REQUIRE(events.size() == 2);
  CHECK(events[0]["event"] == "start");
  CHECK(events[1]["device"] == "leaf1");
  CHECK(events[1]["at"].get<std::string>().back() == 'Z');
  CHECK((std::filesystem::status(log->path()).permissions() & std::filesystem::perms::all) ==
        (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
  CHECK_FALSE(AuditLog::open(dir.path / "audit", "fabricctl-20261203T120000-abcdef"));
}

#include "util/file_io.h"
#include "temp_dir.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

using namespace fabricctl;
namespace fs = std::filesystem;
using fabricctl::test::spit;
using fabricctl::test::TempDir;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

size_t entries(const fs::path& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace

TEST_CASE("read_regular_file: reads regular files up to the limit") {
  TempDir tmp;
  const fs::path f = tmp.path / "a.json";
  spit(f, "0123456789");
  auto text = read_regular_file(f, {10, "snapshot file"});
  REQUIRE(text);
  CHECK(*text == "0123456789");
  spit(f, "");
  CHECK(read_regular_file(f, {10}).value().empty());
}

TEST_CASE("read_regular_file: refuses, with a clear message, what is not a small regular file") {
  TempDir tmp;
  const std::string d = tmp.path.string();
  using K = FileError::Kind;
  auto error = [](const fs::path& p, size_t max = 10) {
    auto r = read_regular_file(p, {max, "snapshot file"});
    REQUIRE_FALSE(r);
    return r.error();
  };

  FileError e = error(tmp.path / "absent.json");
  CHECK(e.kind == K::missing);
  CHECK(e.message == "no snapshot file " + d + "/absent.json");
  CHECK(error(tmp.path / "absent" / "x.json").kind == K::missing);

  spit(tmp.path / "big.json", "01234567890");
  e = error(tmp.path / "big.json");
  CHECK(e.kind == K::too_large);
  CHECK(e.size == 11);
  CHECK(e.message == d + "/big.json: is 11 bytes, more than the limit of 10 bytes");

  spit(tmp.path / "good.json", "{}");
  REQUIRE(::symlink("good.json", (tmp.path / "link.json").c_str()) == 0);
  e = error(tmp.path / "link.json");
  CHECK(e.kind == K::symlink);
  CHECK(e.message == d + "/link.json: is a symbolic link; snapshot files are not read through links");
  REQUIRE(::symlink("link-loop.json", (tmp.path / "link-loop.json").c_str()) == 0);
  CHECK(error(tmp.path / "link-loop.json").kind == K::symlink);

  fs::create_directory(tmp.path / "dir.json");
  e = error(tmp.path / "dir.json");
  CHECK(e.kind == K::not_regular);
  CHECK(e.message == d + "/dir.json: is a directory, not a regular file");

  REQUIRE(::mkfifo((tmp.path / "fifo.json").c_str(), 0600) == 0);
  e = error(tmp.path / "fifo.json");  // must not block: nobody writes to the FIFO
  CHECK(e.kind == K::not_regular);
  CHECK(e.message == d + "/fifo.json: is a FIFO, not a regular file");

  e = error("/dev/null");
  CHECK(e.kind == K::not_regular);
  CHECK(e.message == "/dev/null: is a character device, not a regular file");

  if (::geteuid() != 0) {  // root reads anything
    spit(tmp.path / "secret.json", "{}");
    fs::permissions(tmp.path / "secret.json", fs::perms::none);
    e = error(tmp.path / "secret.json");
    CHECK(e.kind == K::io);
    CHECK(e.message == d + "/secret.json: cannot read: permission denied");
  }

  // A name with control characters is quoted in the message, never printed raw.
  e = error(tmp.path / "evil\x1b[2J.json");
  CHECK(e.message == "no snapshot file \"" + d + "/evil\\x1b[2J.json\"");
}

TEST_CASE("write_new_file: creates the file, refuses one that exists or a link, leaves nothing on failure") {
  TempDir tmp;
  const fs::path f = tmp.path / "apply.sh";
  REQUIRE(write_new_file(f, "#!/bin/sh\n", {.mode = 0755, .sync = false, .start_writeback = true}));
  CHECK(slurp(f) == "#!/bin/sh\n");
  CHECK((fs::status(f).permissions() & fs::perms::owner_exec) != fs::perms::none);

  // An existing file is not overwritten, and neither is a link (nor what it points to).
  auto again = write_new_file(f, "other\n");
  REQUIRE_FALSE(again);
  CHECK(again.error() == display_path(f) + ": cannot create: file exists");
  CHECK(slurp(f) == "#!/bin/sh\n");
  spit(tmp.path / "victim", "keep");
  fs::create_symlink(tmp.path / "victim", tmp.path / "link");
  CHECK_FALSE(write_new_file(tmp.path / "link", "x"));
  CHECK(slurp(tmp.path / "victim") == "keep");

  // A directory that does not exist: an error, and no file.
  CHECK_FALSE(write_new_file(tmp.path / "missing" / "f", "x"));
  CHECK(entries(tmp.path) == 3);
}

TEST_CASE("write_file_atomic: replaces the file whole, leaves no temporary file") {
  TempDir tmp;
  const fs::path f = tmp.path / "out.json";
  REQUIRE(write_file_atomic(f, "first\n"));
  CHECK(slurp(f) == "first\n");
  CHECK((fs::status(f).permissions() & fs::perms::owner_write) != fs::perms::none);
  REQUIRE(write_file_atomic(f, "second\n", {0755, false}));
  CHECK(slurp(f) == "second\n");
  CHECK((fs::status(f).permissions() & fs::perms::owner_exec) != fs::perms::none);
  CHECK(entries(tmp.path) == 1);
  // Writeback started early (a staging directory synced as a whole later) writes the same bytes.
  const std::string big(3 * 65536 + 7, 'x');
  REQUIRE(write_file_atomic(f, big, {.mode = 0644, .sync = false, .start_writeback = true}));
  CHECK(slurp(f) == big);
  CHECK(entries(tmp.path) == 1);

  // An existing link is replaced, not written through.
  spit(tmp.path / "victim", "keep");
  fs::remove(f);
  fs::create_symlink(tmp.path / "victim", f);
  REQUIRE(write_file_atomic(f, "third\n"));
  CHECK(slurp(tmp.path / "victim") == "keep");
  CHECK_FALSE(fs::is_symlink(f));
  CHECK(slurp(f) == "third\n");
}

TEST_CASE("write_file_atomic: a failure leaves the target untouched and says why") {
  TempDir tmp;
  const auto missing = write_file_atomic(tmp.path / "no" / "such" / "dir.json", "x");
  REQUIRE_FALSE(missing);
  // The error names the file the user asked for, not the temporary name beside it.
  CHECK(missing.error() ==
        display_path(tmp.path / "no" / "such" / "dir.json") + ": cannot create: no such file or directory");

  // Renaming a file over a directory fails after the temporary file was written: it is removed.
  fs::create_directory(tmp.path / "taken");
  spit(tmp.path / "taken" / "inside", "x");
  const auto over_dir = write_file_atomic(tmp.path / "taken", "x");
  REQUIRE_FALSE(over_dir);
  CHECK(over_dir.error().starts_with(tmp.path.string() + "/taken: cannot write: "));
  CHECK(entries(tmp.path) == 1);
  CHECK(fs::is_directory(tmp.path / "taken"));
}

TEST_CASE("write_file_atomic: concurrent writers of one file never mix their bytes") {
  TempDir tmp;
  const fs::path f = tmp.path / "shared.json";
  const std::string a(100000, 'a'), b(100000, 'b');
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t)
    writers.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i)
        if (!write_file_atomic(f, t % 2 ? a : b, {0644, false})) ++failures;
    });
  for (auto& w : writers) w.join();
  CHECK(failures == 0);
  const std::string final_text = slurp(f);
  CHECK((final_text == a || final_text == b));
  CHECK(entries(tmp.path) == 1);
}

TEST_CASE("sync_filesystem") {
  TempDir tmp;
  CHECK(sync_filesystem(tmp.path));
  CHECK_FALSE(sync_filesystem(tmp.path / "absent"));
}

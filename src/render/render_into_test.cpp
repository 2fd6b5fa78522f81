#include <doctest/doctest.h>

#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <sstream>

#include "fixtures.h"
#include "render/render.h"
#include "render/stop_signals.h"
#include "temp_dir.h"

using namespace fabricctl;
namespace fs = std::filesystem;
using fabricctl::test::TempDir;

namespace {

const std::vector<fs::path> kTemplates = {fs::path(FABRICCTL_SOURCE_DIR) / "templates"};

/// Every file under `dir` with its content, sorted by path.
std::vector<std::pair<std::string, std::string>> files_of(const fs::path& dir) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    out.emplace_back(fs::relative(e.path(), dir).string(), s.str());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

FabricDesired lab() {
  FabricDesired f;
  f.devices = {test::example_host(), test::example_switch(Platform::eos, {"Ethernet1/1"}),
               test::example_switch(Platform::sonic, {"Ethernet0", "Ethernet8"})};
  f.devices[1].name = "leaf2";
  return f;
}

/// A temporary directory holding a render of lab() in "out", as a failed render must leave it.
struct PreviousRender {
  TempDir tmp;
  FabricDesired fabric = lab();
  Diags diags;
  std::vector<std::pair<std::string, std::string>> files;

  PreviousRender() {
    REQUIRE(render_fabric_into(fabric, kTemplates, out(), diags));
    files = files_of(out());
  }
  [[nodiscard]] fs::path out() const { return tmp.path / "out"; }
};

/// While alive, no file of this process may grow past `bytes`: a write beyond fails with EFBIG, as
/// on a full disk (SIGXFSZ, which would kill the process, is ignored meanwhile).
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &saved_) == 0);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit lower = saved_;
    lower.rlim_cur = bytes;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &lower) == 0);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, old_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit saved_{};
  void (*old_handler_)(int) = SIG_DFL;
};

}  // namespace

TEST_CASE("render_fabric_into writes what render_fabric and write_rendered write, and lists it") {
  TempDir tmp;
  const FabricDesired f = lab();
  Diags diags;
  REQUIRE(write_rendered(render_fabric(f, kTemplates, diags), tmp.path / "two-steps"));
  const auto listed = render_fabric_into(f, kTemplates, tmp.path / "streamed", diags);
  REQUIRE(listed);
  CHECK(diags.empty());
  CHECK(files_of(tmp.path / "streamed") == files_of(tmp.path / "two-steps"));
  REQUIRE(listed->size() == f.devices.size());
  for (size_t i = 0; i < f.devices.size(); ++i) {
    CAPTURE(f.devices[i].name);
    CHECK((*listed)[i].device == f.devices[i].name);
    CHECK_FALSE((*listed)[i].files.empty());
    for (const std::string& file : (*listed)[i].files)
      CHECK(fs::exists(tmp.path / "streamed" / f.devices[i].name / file));
  }
}

TEST_CASE("render_fabric_into: a template error leaves the previous render and no staging directory") {
  PreviousRender prev;
  const fs::path& tmp = prev.tmp.path;

  // A site template directory whose EOS template does not parse.
  fs::create_directories(tmp / "site");
  fs::copy(kTemplates[0], tmp / "site", fs::copy_options::recursive);
  std::ofstream(tmp / "site" / "eos" / "session.cfg.mustache") << "{{#ports}}unclosed";
  const auto listed = render_fabric_into(prev.fabric, {tmp / "site"}, prev.out(), prev.diags);
  REQUIRE(listed);  // no write error: the failure is in diags
  CHECK(prev.diags.has_errors());
  CHECK(files_of(prev.out()) == prev.files);
  CHECK(entries(tmp) == std::vector<std::string>{"out", "site"});
}

TEST_CASE("render_fabric_into refuses a directory it did not write before rendering anything") {
  TempDir tmp;
  fs::create_directory(tmp.path / "mine");
  std::ofstream(tmp.path / "mine" / "notes.txt") << "keep";
  Diags diags;
  const auto listed = render_fabric_into(lab(), kTemplates, tmp.path / "mine", diags);
  REQUIRE_FALSE(listed);
  CHECK(listed.error().find("refusing to replace") != std::string::npos);
  CHECK(entries(tmp.path) == std::vector<std::string>{"mine"});
  CHECK(entries(tmp.path / "mine") == std::vector<std::string>{"notes.txt"});
}

TEST_CASE("render_fabric_into: a write error leaves the previous render and no staging directory") {
  PreviousRender prev;
  std::optional<Expected<std::vector<RenderedFiles>>> listed;
  {
    const FileSizeLimit limit(1024);  // every device has a file larger than this
    listed = render_fabric_into(prev.fabric, kTemplates, prev.out(), prev.diags);
  }
  REQUIRE_FALSE(*listed);
  CHECK(listed->error().starts_with("cannot write rendered files under \""));
  CHECK(listed->error().find("file too large") != std::string::npos);
  CHECK_FALSE(prev.diags.has_errors());
  CHECK(files_of(prev.out()) == prev.files);
  CHECK(entries(prev.tmp.path) == std::vector<std::string>{"out"});
}

TEST_CASE("render_fabric_into: SIGINT stops it, removes the staging directory and leaves the previous render") {
  PreviousRender prev;
  struct sigaction before {};
  REQUIRE(::sigaction(SIGINT, nullptr, &before) == 0);
  std::optional<Expected<std::vector<RenderedFiles>>> listed;
  {
    StopSignals stop;
    REQUIRE(std::raise(SIGINT) == 0);  // handled: sets the flag instead of ending the test runner
    CHECK(stop_signal() == SIGINT);
    listed = render_fabric_into(prev.fabric, kTemplates, prev.out(), prev.diags);
  }
  REQUIRE_FALSE(*listed);
  CHECK(listed->error() == "interrupted");
  CHECK(files_of(prev.out()) == prev.files);
  CHECK(entries(prev.tmp.path) == std::vector<std::string>{"out"});
  // Once StopSignals is gone, SIGINT has its previous action again and a new run starts unstopped.
  struct sigaction now {};
  REQUIRE(::sigaction(SIGINT, nullptr, &now) == 0);
  CHECK((now.sa_handler == before.sa_handler));
  const StopSignals again;
  CHECK_FALSE(stop_requested());
}

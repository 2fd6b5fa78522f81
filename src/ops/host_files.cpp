#include "ops/host_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "util/file_io.h"

namespace fabricctl::ops {
namespace {

namespace fs = std::filesystem;

class KernelFiles final : public AttributeFiles {
 public:
  Expected<void> write(const fs::path& path, std::string_view text) override {
    // No O_CREAT: sysfs and configfs attributes exist or not; a missing one is an error, not a new file.
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return unexpected(path.string() + ": cannot write: " + errno_text(errno));
    // One write(2): sysfs hands the store function the whole buffer of a single write.
    const std::string line = std::string(text) + "\n";
    const ssize_t n = ::write(fd, line.data(), line.size());
    const int err = errno;
    ::close(fd);
    if (n != static_cast<ssize_t>(line.size()))
      return unexpected(path.string() + ": cannot write: " + (n < 0 ? errno_text(err) : std::string("short write")));
    return {};
  }

  Expected<void> make_group(const fs::path& path) override {
    if (::mkdir(path.c_str(), 0755) == 0 || errno == EEXIST) return {};
    return unexpected(path.string() + ": cannot create: " + errno_text(errno));
  }

  Expected<void> remove_group(const fs::path& path) override {
    if (::rmdir(path.c_str()) == 0) return {};
    return unexpected(path.string() + ": cannot remove: " + errno_text(errno));
  }
};

KernelFiles g_kernel;
AttributeFiles* g_files = &g_kernel;

}  // namespace

AttributeFiles& attribute_files() { return *g_files; }

void install_attribute_files(AttributeFiles& files) { g_files = &files; }

}  // namespace fabricctl::ops

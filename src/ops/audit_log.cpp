#include "ops/audit_log.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/diag.h"

namespace fabricctl::ops {

Expected<AuditLog> AuditLog::open(const std::filesystem::path& dir, const std::string& name, const Clock& clock) {
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    std::filesystem::create_directories(dir, ec);
    if (ec) return unexpected("cannot create the audit directory " + quote(dir.string()) + ": " + ec.message());
    std::filesystem::permissions(dir, std::filesystem::perms::owner_all, ec);
  }
  std::filesystem::path path = dir / (name + ".jsonl");
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return unexpected("cannot create the audit record " + quote(path.string()) + ": " + std::strerror(errno));
  // Held until the apply ends (the fd closes): `apply --resume` and `--undo` refuse a record in use.
  ::flock(fd, LOCK_EX | LOCK_NB);
  return AuditLog(fd, std::move(path), clock);
}

AuditLog::AuditLog(int fd, std::filesystem::path path, const Clock& clock)
    : fd_(fd), path_(std::move(path)), clock_(&clock), mutex_(std::make_unique<std::mutex>()) {}

AuditLog::AuditLog(AuditLog&& o) noexcept
    : fd_(o.fd_),
      path_(std::move(o.path_)),
      clock_(o.clock_),
      mutex_(std::move(o.mutex_)),
      error_(std::move(o.error_)) {
  o.fd_ = -1;
}

AuditLog& AuditLog::operator=(AuditLog&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    path_ = std::move(o.path_);
    clock_ = o.clock_;
    mutex_ = std::move(o.mutex_);
    error_ = std::move(o.error_);
    o.fd_ = -1;
  }
  return *this;
}

AuditLog::~AuditLog() {
  if (fd_ >= 0) ::close(fd_);
}

void AuditLog::event(std::string_view event, const nlohmann::ordered_json& fields) {
  nlohmann::ordered_json line;
  line["event"] = std::string(event);
  line["at"] = utc_text(clock_->now());
  for (const auto& [k, v] : fields.items()) line[k] = v;
  // Replace: device output that is not UTF-8 must not make the record unwritable.
  const std::string text = line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  const std::lock_guard<std::mutex> lock(*mutex_);
  size_t off = 0;
  while (off < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + off, text.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (error_.empty()) error_ = "writing the audit record " + quote(path_.string()) + ": " + std::strerror(errno);
      return;
    }
    off += static_cast<size_t>(n);
  }
  if (::fsync(fd_) != 0 && error_.empty())
    error_ = "syncing the audit record " + quote(path_.string()) + ": " + std::strerror(errno);
}

std::string AuditLog::error() const {
  const std::lock_guard<std::mutex> lock(*mutex_);
  return error_;
}

std::string audit_actor() {
  const uid_t uid = ::getuid();
  const passwd* pw = ::getpwuid(uid);
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return std::string(pw ? pw->pw_name : "?") + " (uid " + std::to_string(uid) + ") on " + host;
}

}  // namespace fabricctl::ops

// Safe file I/O for input that may be hostile and output that must never be half-written.
//
// Reading: only a regular file is read, never through a symbolic link, never a FIFO or a device
// (either could block forever or stream without end), and never more than a size limit.
// Writing: one atomic write for the whole product (snapshots, rendered artifacts, later apply
// state): a temporary file in the target's directory, written, fsync'ed, renamed over the target.
// A reader sees the old file or the new one, never a mix.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "util/expected.h"

namespace fabricctl {

/// Why a file could not be read; `message` is one lowercase line naming the path.
struct FileError {
  enum class Kind {
    missing,      // no such file (or a path component is not a directory)
    symlink,      // a symbolic link, refused even when it points at a good file
    not_regular,  // a directory, FIFO, socket or device
    too_large,    // more than the limit; `size` holds the size in bytes
    io,           // open or read failed (permissions, I/O error)
  };
  Kind kind = Kind::io;
  std::string message;
  uint64_t size = 0;  // bytes, for too_large
};

/// Limits and wording for read_regular_file.
struct ReadOptions {
  size_t max_bytes = 0;            // largest accepted size, bytes
  std::string_view what = "file";  // names the file in messages: "no snapshot file DIR/x.json"
};

/// Reads a whole regular file of at most `max_bytes`. Refuses, with a clear message:
///   missing      "no <what> PATH"
///   symlink      "PATH: is a symbolic link; <what>s are not read through links"
///   not_regular  "PATH: is a FIFO, not a regular file" (a directory, a socket, ...)
///   too_large    "PATH: is N bytes, more than the limit of M bytes"
///   io           "PATH: cannot read: permission denied"
/// The file is opened with O_NOFOLLOW|O_NONBLOCK and checked again after opening, so a link or a
/// FIFO swapped in after the first check is refused too; a file that grows while it is read stops
/// at max_bytes + 1 and is refused as too large.
Expected<std::string, FileError> read_regular_file(const std::filesystem::path& path, const ReadOptions& options);

/// Options of write_file_atomic.
struct WriteOptions {
  mode_t mode = 0644;  // permission bits of the new file, before the umask
  /// fsync the file before the rename (and its directory after). A caller that writes many files
  /// into a staging directory and renames the directory as a whole may turn this off and call
  /// sync_filesystem() once before that rename instead.
  bool sync = true;
  /// Without `sync`: start writing the data to disk now without waiting for it (Linux
  /// sync_file_range), so that the final sync_filesystem() finds little left to write. Rendering a
  /// large fabric writes ~1 GB; its writeback then overlaps the render instead of following it.
  bool start_writeback = false;
};

/// Writes `content` to `target` atomically: a hidden temporary file ".NAME.PID.N.tmp" in the same
/// directory (created exclusively, never following a link), the content, fsync, close, rename over
/// `target`. On any failure the temporary file is removed, `target` is untouched, and the error
/// says "PATH: cannot write: <reason>" (or "cannot create").
Expected<void> write_file_atomic(const std::filesystem::path& target, std::string_view content,
                                 const WriteOptions& options = {});

/// Writes `content` into `path`, which must not exist yet (created exclusively, never following a
/// link): for a private staging directory that is renamed into place as a whole, where a temporary
/// name and a rename per file would only add work. With `sync`, the file (not its directory) is
/// fsynced. On failure the file is removed; the error says "PATH: cannot create: <reason>" or
/// "PATH: cannot write: <reason>".
Expected<void> write_new_file(const std::filesystem::path& path, std::string_view content,
                              const WriteOptions& options = {});

/// Flushes the file system that holds `path` (syncfs(2)): one call makes many unsynced writes durable.
Expected<void> sync_filesystem(const std::filesystem::path& path);

/// A path for a message: as is when it is printable ASCII, else quoted with escapes.
std::string display_path(const std::filesystem::path& path);

/// strerror text in lowercase, as messages use it: "permission denied".
std::string errno_text(int error_number);

}  // namespace fabricctl

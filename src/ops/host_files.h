// The kernel's file interfaces `fabricctl host apply|rollback` write through: sysfs and configfs
// attributes, and configfs groups. An attribute is not a file: the kernel parses what is written (and
// may refuse it), shows it back in its own format, and cannot be created or unlinked. Behind this
// interface a program that models the kernel over a fixture tree (tests/unit/fixture_kernel.h, the lab's
// stand-in NIC) takes the kernel's place; the host agent itself never asks which one it talks to.
#pragma once

#include <filesystem>
#include <string_view>

#include "util/expected.h"

namespace fabricctl::ops {

class AttributeFiles {
 public:
  virtual ~AttributeFiles() = default;
  /// Writes `text` and a newline to the existing attribute at `path` in one write(2), as `echo` does.
  /// Error: "PATH: cannot write: <errno>", the kernel's refusal (EINVAL for a value it does not store).
  virtual Expected<void> write(const std::filesystem::path& path, std::string_view text) = 0;
  /// mkdir(2) of a configfs group whose parent exists; one that exists already is fine. The subsystem
  /// fills it in (rdma_cm: ports/N/ with the device's current values). Error: the kernel's refusal
  /// (rdma_cm: ENODEV when there is no such RDMA device).
  virtual Expected<void> make_group(const std::filesystem::path& path) = 0;
  /// rmdir(2) of a configfs group made by make_group; the values it showed stay where the subsystem
  /// keeps them (rdma_cm: in the cma device). Error: the kernel's refusal.
  virtual Expected<void> remove_group(const std::filesystem::path& path) = 0;
};

/// The files of this process: the kernel's, unless install_attribute_files() replaced them.
AttributeFiles& attribute_files();

/// Replaces the process's files for the rest of its life (`files` must outlive every use): for a program
/// that runs the CLI against a model of the kernel. Production's main never calls it.
void install_attribute_files(AttributeFiles& files);

}  // namespace fabricctl::ops

// The output directory of a render, written as a whole or not at all: files go into a staging
// directory beside OUT, which replaces OUT only on commit(). An existing OUT is replaced only if it
// holds a previous render (the marker file .fabricctl-render): fabricctl never deletes a directory
// it did not write. The staging directory is locked (flock) while its render runs, so the next render
// can tell one left behind by a killed process from one in use, and removes it.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "util/expected.h"

namespace fabricctl {

struct RenderedDevice;

class StagedOutput {
 public:
  /// Checks OUT (not the current directory or one that holds it: a render replaces OUT whole), removes
  /// staging directories of OUT that renders killed before they finished left behind, and creates
  /// and locks a new one. Errors are one lowercase message.
  static Expected<std::unique_ptr<StagedOutput>> open(const std::filesystem::path& out);
  /// Removes the staging directory unless it was committed.
  ~StagedOutput();
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;

  /// Writes STAGE/<device>/<file> for every artifact (scripts executable). Threads may write
  /// different devices at once.
  Expected<void> write(const RenderedDevice& device) const;
  /// Makes every file durable (one syncfs), then swaps the staging directory in for OUT in one
  /// rename (RENAME_EXCHANGE) where the file system has it, so that OUT never goes missing. A stop
  /// signal (render/stop_signals.h) received by then cancels the swap: the error is "interrupted".
  Expected<void> commit();

 private:
  StagedOutput(std::filesystem::path target, std::filesystem::path parent, std::filesystem::path stage, int lock)
      : target_(std::move(target)), parent_(std::move(parent)), stage_(std::move(stage)), lock_(lock) {}

  std::filesystem::path target_, parent_, stage_;
  int lock_ = -1;  // the staging directory, open and flock'ed until this object goes
  bool committed_ = false;
};

}  // namespace fabricctl

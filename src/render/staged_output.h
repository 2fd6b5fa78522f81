// The output directory of a render, written as a whole or not at all: files go into a staging
// directory beside OUT, which replaces OUT only on commit(). An existing OUT is replaced only if it
// holds a previous render (the marker file .fabricctl-render): fabricctl never deletes a directory
// it did not write.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "util/expected.h"

namespace fabricctl {

struct RenderedDevice;

class StagedOutput {
 public:
  /// Checks OUT and creates the staging directory beside it. Errors are one lowercase message.
  static Expected<std::unique_ptr<StagedOutput>> open(const std::filesystem::path& out);
  /// Removes the staging directory unless it was committed.
  ~StagedOutput();
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;

  /// Writes STAGE/<device>/<file> for every artifact (scripts executable). Threads may write
  /// different devices at once.
  Expected<void> write(const RenderedDevice& device) const;
  /// Makes every file durable (one syncfs), then swaps the staging directory in for OUT.
  Expected<void> commit();

 private:
  StagedOutput(std::filesystem::path target, std::filesystem::path parent, std::filesystem::path stage)
      : target_(std::move(target)), parent_(std::move(parent)), stage_(std::move(stage)) {}

  std::filesystem::path target_, parent_, stage_;
  bool committed_ = false;
};

}  // namespace fabricctl

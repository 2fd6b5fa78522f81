// The output directory of a render, a collect or a saved plan, written as a whole or not at all: files go
// into a staging directory beside OUT, which replaces OUT only on commit(), so OUT holds exactly one run.
// An existing OUT is replaced only if it holds a previous run of the same command (its marker file:
// .fabricctl-render, .fabricctl-collect or .fabricctl-plan): fabricctl never deletes a directory it did
// not write. The staging directory is locked (flock) while its run goes on, so the next run can tell one
// left behind by a killed process from one in use, and removes it.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "util/expected.h"

namespace fabricctl {

struct RenderedDevice;

/// Which command's output a staged directory is.
struct OutputKind {
  const char* command;  // "render", "collect", "plan": in messages
  const char* files;    // "rendered files", "snapshots", "the plan": in messages
  const char* marker;   // the file that says OUT holds a previous run of it
  /// An OUT without the marker that is still one of the command's (a collect or a saved plan of a release
  /// before the marker), or nullptr.
  bool (*earlier_run)(const std::filesystem::path& out);
};
extern const OutputKind kRenderOutput;
extern const OutputKind kCollectOutput;
extern const OutputKind kPlanOutput;

class StagedOutput {
 public:
  /// Checks OUT (not the current directory or one that holds it: a run replaces OUT whole), removes
  /// staging directories of OUT that runs killed before they finished left behind, and creates
  /// and locks a new one. Errors are one lowercase message.
  static Expected<std::unique_ptr<StagedOutput>> open(const std::filesystem::path& out,
                                                      const OutputKind& kind = kRenderOutput);
  /// Removes the staging directory unless it was committed.
  ~StagedOutput();
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;

  /// The staging directory, where the run writes what OUT will hold.
  const std::filesystem::path& stage() const { return stage_; }
  /// Writes STAGE/<device>/<file> for every artifact (scripts executable). Threads may write
  /// different devices at once.
  Expected<void> write(const RenderedDevice& device) const;
  /// Makes every file durable (one syncfs), then swaps the staging directory in for OUT in one
  /// rename (RENAME_EXCHANGE) where the file system has it, so that OUT never goes missing. A stop
  /// signal (render/stop_signals.h) received by then cancels the swap: the error is "interrupted".
  Expected<void> commit();

 private:
  StagedOutput(std::filesystem::path target, std::filesystem::path parent, std::filesystem::path stage, int lock,
               const OutputKind& kind)
      : target_(std::move(target)), parent_(std::move(parent)), stage_(std::move(stage)), lock_(lock), kind_(&kind) {}

  std::filesystem::path target_, parent_, stage_;
  int lock_ = -1;  // the staging directory, open and flock'ed until this object goes
  const OutputKind* kind_;
  bool committed_ = false;
};

}  // namespace fabricctl

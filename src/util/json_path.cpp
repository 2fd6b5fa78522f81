#include "util/json_path.h"

#include <algorithm>

#include "util/diag.h"

namespace fabricctl::jsonr {
namespace {

constexpr size_t kMaxPlainSegment = 63;  // bytes; longer keys are quoted (and cut) in paths

bool plain_segment(std::string_view key) {
  return !key.empty() && key.size() <= kMaxPlainSegment && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' || c == '.' ||
           c == '_' || c == ':' || c == '-';
  });
}

}  // namespace

std::string child_text(const std::string& path, std::string_view key) {
  const std::string seg = plain_segment(key) ? std::string(key) : quote(key);
  return path.empty() ? seg : path + "." + seg;
}

std::string element_text(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

std::string Path::str() const {
  switch (step_) {
    case Step::key: return child_text(parent_->str(), text_);
    case Step::index: return element_text(parent_->str(), index_);
    default: return std::string(text_);
  }
}

Path child(const Path& path, std::string_view key) noexcept {
  Path p;
  p.parent_ = &path;
  p.text_ = key;
  p.step_ = Path::Step::key;
  return p;
}

Path element(const Path& path, size_t i) noexcept {
  Path p;
  p.parent_ = &path;
  p.index_ = i;
  p.step_ = Path::Step::index;
  return p;
}

}  // namespace fabricctl::jsonr

// Shared by the fuzz targets: the repository's own inputs, and what every diagnostic must be.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "model/yaml_reader.h"
#include "util/diag.h"

namespace fabricctl::fuzz {

inline std::string text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

/// The source tree (compiled in), for the shipped profiles and templates.
inline std::filesystem::path source_dir() { return FABRICCTL_SOURCE_DIR; }

[[noreturn]] inline void fail(const char* what, const Diags& diags = {}) {
  std::fprintf(stderr, "fuzz: %s\n%s", what, diags.str().c_str());
  std::abort();
}

/// Every diagnostic is one printable line with a message: no raw control bytes reach a terminal.
inline void check_diags(const Diags& diags) {
  for (const Diag& d : diags.sorted()) {
    if (d.message.empty()) fail("empty diagnostic", diags);
    for (char c : d.str())
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) fail("control byte in a diagnostic", diags);
  }
}

/// The repository's profiles, parsed once.
inline std::vector<YamlDoc> shipped_profile_docs() {
  std::vector<YamlDoc> docs;
  Diags d;
  for (const char* name : {"roce-lossless.yaml", "roce-pfc-only.yaml"})
    if (auto doc = load_yaml(source_dir() / "profiles" / name, std::string("profiles/") + name, d))
      docs.push_back(*doc);
  return docs;
}

}  // namespace fabricctl::fuzz

// The floor for `fabricctl verify`'s snapshot read (scripts/bench, docs/performance.md): every *.json
// file of a directory read the way verify reads a snapshot (util/file_io.h) and parsed by the same
// parser with the same limits (util/json_reader.h: simdjson, then the depth and duplicate-key rules),
// on one thread, and nothing else: no schema, no DeviceObserved. --simdjson-only drops the reader's
// rules too, to show what they cost. Prints the count, bytes and wall time; exits 1 if a file fails.
// Built by CMake as `json_parse_only`.
#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "util/file_io.h"
#include "util/json_reader.h"

namespace {

constexpr size_t kMaxBytes = 16 * 1024 * 1024;  // as kMaxSnapshotBytes (state/snapshot.h)
constexpr size_t kMaxDepth = 16;                // as the snapshot reader's depth limit

}  // namespace

int main(int argc, char** argv) {
  const bool raw = argc == 3 && std::strcmp(argv[1], "--simdjson-only") == 0;
  if (argc != 2 && !raw) {
    std::fprintf(stderr, "usage: %s [--simdjson-only] DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[argc - 1];
  const auto start = std::chrono::steady_clock::now();
  size_t files = 0, bytes = 0, failed = 0;
  simdjson::dom::parser parser;  // --simdjson-only: one parser, reused
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    auto text = fabricctl::read_regular_file(e.path(), {kMaxBytes, "snapshot file"});
    if (!text) {
      std::fprintf(stderr, "%s\n", text.error().message.c_str());
      ++failed;
      continue;
    }
    ++files;
    bytes += text->size();
    bool ok = false;
    if (raw) {
      simdjson::dom::element root;
      ok = parser.parse(*text).get(root) == simdjson::SUCCESS;
    } else {
      const auto doc = fabricctl::jsonr::parse_json(*text, {kMaxBytes, kMaxDepth});
      ok = doc.has_value();
      if (!ok) std::fprintf(stderr, "%s: %s\n", e.path().c_str(), doc.error().c_str());
    }
    if (!ok) ++failed;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("parsed %zu files, %zu bytes (%s) in %.2f s; %zu failed\n", files, bytes,
              raw ? "simdjson only" : "simdjson and the reader's rules", s, failed);
  return failed == 0 ? 0 : 1;
}

// The floor for `fabricctl validate`: libfyaml's event parser over every *.yaml of a directory and
// nothing else (the parser fabricctl uses, without building its tree). Prints the wall time in
// seconds. Built beside fabricctl (CMake target yaml_parse_only); `make bench` runs it.
#include <libfyaml.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  size_t bytes = 0, events = 0;
  for (const auto& e : std::filesystem::directory_iterator(argv[1])) {
    if (e.path().extension() != ".yaml") continue;
    std::ifstream in(e.path(), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bytes += text.size();
    fy_parse_cfg cfg{};
    cfg.flags = FYPCF_QUIET;
    fy_parser* parser = fy_parser_create(&cfg);
    if (parser == nullptr || fy_parser_set_string(parser, text.data(), text.size()) != 0) {
      std::fprintf(stderr, "%s: cannot start the parser\n", e.path().c_str());
      return 1;
    }
    while (fy_event* ev = fy_parser_parse(parser)) {
      ++events;
      fy_parser_event_free(parser, ev);
    }
    const bool failed = fy_parser_get_stream_error(parser);
    fy_parser_destroy(parser);
    if (failed) {
      std::fprintf(stderr, "%s: invalid YAML\n", e.path().c_str());
      return 1;
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("parsed %zu bytes (%zu events) in %.2f s\n", bytes, events, s);
  return 0;
}

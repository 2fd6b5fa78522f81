// The floor for `fabricctl validate`: yaml-cpp parsing every *.yaml of a directory and nothing
// else (the same call fabricctl makes: YAML::Load on the file's text). Prints the wall time in
// seconds. Build: g++ -O2 -std=c++20 tests/bench/yaml_parse_only.cpp -lyaml-cpp
#include <yaml-cpp/yaml.h>

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
  size_t bytes = 0, top = 0;
  for (const auto& e : std::filesystem::directory_iterator(argv[1])) {
    if (e.path().extension() != ".yaml") continue;
    std::ifstream in(e.path(), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bytes += text.size();
    const YAML::Node root = YAML::Load(text);
    top += root.size();
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("parsed %zu bytes (%zu top-level entries) in %.2f s\n", bytes, top, s);
  return 0;
}

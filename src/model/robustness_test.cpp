// Mutated inputs must produce diagnostics, never crashes or escaping exceptions. Bounded and
// seeded, so it is repeatable; under the ASan build it also catches memory errors in the readers.
#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "model/fabric.h"

using namespace fabricctl;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string mutate(std::string s, std::mt19937& rng) {
  static const std::string alphabet = " :-[]{},\n#\"'&*!|>0123456789abcxyz\t";
  std::uniform_int_distribution<int> op(0, 3);
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !s.empty(); ++e) {
    const size_t at = rng() % s.size();
    const char c = alphabet[rng() % alphabet.size()];
    switch (op(rng)) {
      case 0: s[at] = c; break;
      case 1: s.insert(s.begin() + static_cast<long>(at), c); break;
      case 2: s.erase(at, 1 + rng() % 8); break;
      default: s.insert(at, s.substr(rng() % s.size(), 1 + rng() % 40)); break;
    }
  }
  return s;
}

}  // namespace

TEST_CASE("mutated profiles and inventories never crash the loader") {
  const std::string src = FABRICCTL_SOURCE_DIR;
  const std::string profile = slurp(src + "/profiles/roce-lossless.yaml");
  const std::string inventory = slurp(src + "/inventory/lab/fabric.yaml");
  REQUIRE(!profile.empty());
  REQUIRE(!inventory.empty());
  std::mt19937 rng(20261130);
  int rejected = 0;
  constexpr int kRounds = 400;
  for (int i = 0; i < kRounds; ++i) {
    Diags d;
    const bool mutate_profile = i % 2 == 0;
    std::vector<YamlDoc> docs;
    if (auto p = parse_yaml(mutate_profile ? mutate(profile, rng) : profile, "profiles/roce-lossless.yaml", d))
      docs.push_back(*p);
    ProfileSet set;
    CHECK_NOTHROW(set = profiles_from_docs(docs, d));
    Inventory inv;
    if (auto doc = parse_yaml(mutate_profile ? inventory : mutate(inventory, rng), "inv.yaml", d))
      CHECK_NOTHROW(read_inventory_doc(*doc, inv, d));
    CHECK_NOTHROW((void)resolve_fabric(inv, set, d));
    for (const Diag& diag : d.sorted()) CHECK(!diag.message.empty());
    rejected += d.empty() ? 0 : 1;
  }
  // Most random edits break something; if none were rejected the mutator is not mutating.
  CHECK(rejected > kRounds / 4);
}

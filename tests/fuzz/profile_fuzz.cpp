// Fuzzes profile loading: YAML parse, the profile schema, `extends` and the domain rules.
// The input is one profile file, loaded beside the repository's own profiles so that `extends`
// resolves.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.h"
#include "model/profile_set.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fabricctl;
  static const std::vector<YamlDoc> shipped = fuzz::shipped_profile_docs();
  Diags diags;
  std::vector<YamlDoc> docs = shipped;
  if (auto doc = parse_yaml(fuzz::text(data, size), "profiles/fuzz.yaml", diags)) docs.push_back(*doc);
  const ProfileSet set = profiles_from_docs(docs, diags);
  fuzz::check_diags(diags);
  return 0;
}

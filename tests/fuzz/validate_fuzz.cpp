// Fuzzes the whole offline pipeline on one inventory file with the repository's profiles and
// templates: read, resolve (cross-object and link rules, platform limits, headroom) and, when the
// input is valid, render every device in memory.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.h"
#include "model/fabric.h"
#include "render/render.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fabricctl;
  static const ProfileSet profiles = [] {
    Diags d;
    return profiles_from_docs(fuzz::shipped_profile_docs(), d);
  }();
  Diags diags;
  Inventory inv;
  if (auto doc = parse_yaml(fuzz::text(data, size), "inventory/fuzz.yaml", diags)) read_inventory_doc(*doc, inv, diags);
  const Fabric fabric = resolve_fabric(inv, profiles, diags);
  if (diags.empty()) {
    const auto rendered = render_fabric(fabric.desired, {fuzz::source_dir() / "templates"}, diags);
    // A valid fabric renders: a template or adapter failure here is a bug, not bad input.
    if (!diags.empty()) fuzz::fail("valid inventory failed to render", diags);
  }
  fuzz::check_diags(diags);
  return 0;
}

// Fuzzes inventory reading: YAML parse and the inventory schema (devices, ports, groups, links,
// management), without resolving against profiles.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.h"
#include "model/inventory.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fabricctl;
  Diags diags;
  Inventory inv;
  if (auto doc = parse_yaml(fuzz::text(data, size), "inventory/fuzz.yaml", diags)) read_inventory_doc(*doc, inv, diags);
  fuzz::check_diags(diags);
  return 0;
}

// Fuzzes a site template: the limits scan and kainjow's parser and renderer, against a context
// shaped like a device's (nested lists, booleans, strings).
#include <cstddef>
#include <cstdint>

#include "fuzz_support.h"
#include "render/template_set.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace fabricctl;
  static const nlohmann::json context = [] {
    nlohmann::json ports = nlohmann::json::array();
    for (int i = 0; i < 4; ++i)
      ports.push_back({{"name", "Ethernet" + std::to_string(i * 8)},
                       {"mtu", "9100"},
                       {"pfc", i % 2 == 0},
                       {"queues", nlohmann::json::array({{{"q", "3"}, {"last", false}}, {{"q", "4"}, {"last", true}}})},
                       {"last", i == 3}});
    return nlohmann::json{{"device", "leaf1"}, {"profile", "roce-lossless"}, {"ports", ports}, {"ecn", nullptr}};
  }();
  Diags diags;
  (void)render_template(fuzz::text(data, size), context, "templates/fuzz.mustache", diags);
  fuzz::check_diags(diags);
  return 0;
}

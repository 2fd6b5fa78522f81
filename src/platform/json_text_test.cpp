// dump_indented() must give exactly nlohmann's dump(): the golden renders and every SONiC artifact
// depend on it. Compared on hand-picked edge cases and on seeded random documents.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "platform/json_text.h"

using namespace fabricctl;
using nlohmann::ordered_json;

namespace {

std::string nlohmann_text(const ordered_json& j, int indent) {
  return j.dump(indent, ' ', false, ordered_json::error_handler_t::replace);
}

/// A random document of bounded depth: objects, arrays, every scalar type, strings that need escapes.
ordered_json random_doc(std::mt19937& rng, int depth) {
  const char* strings[] = {"Ethernet0",    "",       "a\"b",    "back\\slash",
                           "tab\there",    "nl\nx",  "\x01ctl", "é ü",
                           "\xff\xfe bad", "ROCE|3", "a/b~c",   "quite a long string that is not stored inline"};
  const int kind = static_cast<int>(rng() % (depth > 0 ? 9 : 7));
  switch (kind) {
    case 0: return nullptr;
    case 1: return rng() % 2 == 0;
    case 2: return static_cast<int64_t>(rng() % 2000) - 1000;
    case 3: return static_cast<uint64_t>(rng()) * 4096u;
    case 4: return static_cast<double>(rng() % 1000) / 8.0;
    case 5:
    case 6: return strings[rng() % std::size(strings)];
    case 7: {
      ordered_json o = ordered_json::object();
      const int n = static_cast<int>(rng() % 4);
      for (int i = 0; i < n; ++i) o[strings[rng() % std::size(strings)]] = random_doc(rng, depth - 1);
      return o;
    }
    default: {
      ordered_json a = ordered_json::array();
      const int n = static_cast<int>(rng() % 4);
      for (int i = 0; i < n; ++i) a.push_back(random_doc(rng, depth - 1));
      return a;
    }
  }
}

}  // namespace

TEST_CASE("dump_indented: the same text as nlohmann's dump") {
  const ordered_json cases[] = {
      ordered_json::object(),
      ordered_json::array(),
      42,
      "x",
      ordered_json::parse(R"({"PORT": {"Ethernet0": {"mtu": "9100"}, "Ethernet4": {}}, "L": [[], {}, [1, [2]]]})"),
      ordered_json{{"escaped \"key\"", "v"}, {"n", nullptr}, {"b", false}, {"f", 0.1}, {"neg", -5}},
  };
  for (const ordered_json& j : cases)
    for (int indent : {0, 2, 4}) CHECK(dump_indented(j, indent) == nlohmann_text(j, indent));

  std::mt19937 rng(6);
  for (int i = 0; i < 500; ++i) {
    const ordered_json j = random_doc(rng, 4);
    CAPTURE(nlohmann_text(j, -1));
    CHECK(dump_indented(j, 4) == nlohmann_text(j, 4));
  }
}

TEST_CASE("append_json_scalar and append_json_key: plain values as they are, the rest through nlohmann") {
  std::string out;
  append_json_key("pfc_enable", out);
  append_json_scalar("3,4", out);
  CHECK(out == R"("pfc_enable": "3,4")");
  out.clear();
  append_json_key("a\"b", out);
  append_json_scalar("tab\t", out);
  CHECK(out == R"("a\"b": "tab\t")");
}

// What `fabricctl design` copies from its spec (design/yaml_emit.h) reads back, through fabricctl's own
// YAML reader, as the tree it came from: scalars' texts, nulls, mappings and lists.
#include "design/yaml_emit.h"

#include <doctest/doctest.h>

#include "model/yaml_reader.h"

using namespace fabricctl;
using namespace fabricctl::design;

namespace {

/// The tree as one line of text: {k: v, ...} and [a, ...], null as ~ and scalars quoted.
std::string shape(const YamlNode& n) {
  if (n.is_scalar()) return "'" + std::string(n.scalar()) + "'";
  if (n.is_sequence()) {
    std::string out = "[";
    for (const YamlNode& i : n.items()) out += shape(i) + ",";
    return out + "]";
  }
  if (n.is_map()) {
    std::string out = "{";
    for (const YamlEntry& e : n.entries()) out += shape(e.key) + ":" + shape(e.value) + ",";
    return out + "}";
  }
  return "~";
}

YamlDoc parse(const std::string& text) {
  Diags diags;
  auto doc = parse_yaml(text, "t.yaml", diags);
  REQUIRE_MESSAGE(doc.has_value(), diags.str() << "\n" << text);
  return *doc;
}

/// Emits `text`'s `root` key under "copy:" and checks the copy's shape.
void round_trip(const std::string& text) {
  const YamlDoc in = parse(text);
  std::string out = "copy:";
  emit_yaml_value(in.root["root"], 2, out);
  const YamlDoc back = parse(out);
  CHECK_MESSAGE(shape(back.root["copy"]) == shape(in.root["root"]), out);
}

}  // namespace

TEST_CASE("groups, overrides and mgmt read back as written") {
  round_trip(
      "root:\n  spines:\n    description: spine layer, joining the rails\n    overrides:\n"
      "      pfc_watchdog: {detection_ms: 400, restoration_ms: 400}\n  hosts:\n");
  round_trip("root: {user: fabricctl, agent: true, key: /home/x/.ssh/id_ed25519}\n");
  round_trip("root:\n  nvue: {release: \"5.10\"}\n  sonic: {cable_lengths_m: [5, 40, 300]}\n");
}

TEST_CASE("text YAML would read otherwise is quoted") {
  round_trip(
      "root:\n  a: \"null\"\n  b: \"~\"\n  c: \"\"\n  d: \"x: y\"\n  e: \"# not a comment\"\n"
      "  f: \"a #b\"\n  g: \"- item\"\n  h: \"{x}\"\n  i: \"tab\\there\"\n  j: \"quote \\\" and \\\\\"\n"
      "  k: \" lead\"\n  l: \"trail \"\n  m: \"ends:\"\n  n: \"[x, y]\"\n");
  CHECK(yaml_scalar("gpu01:ens1f0np0") == "gpu01:ens1f0np0");
  CHECK(yaml_scalar("a: b") == "\"a: b\"");
  CHECK(yaml_scalar("one, two") == "\"one, two\"");
  CHECK(yaml_scalar("one, two", true) == "one, two");
  CHECK(yaml_scalar("null") == "\"null\"");
}

TEST_CASE("lists of mappings and empty collections read back") {
  round_trip("root:\n  - {a: 1}\n  - [x, y]\n  - plain\n  - {}\n  - []\n  -\n");
}

#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "model/yaml_node.h"

using namespace fabricctl;

namespace {

YamlTree parse(std::string_view text) {
  auto t = parse_yaml_tree(text, 500);
  REQUIRE_MESSAGE(t.has_value(), (t.has_value() ? "" : t.error().message));
  return std::move(t).value();
}

YamlError fail(std::string_view text, size_t max_depth = 500) {
  auto t = parse_yaml_tree(text, max_depth);
  REQUIRE_FALSE(t.has_value());
  return t.error();
}

std::string at(const YamlNode& n) { return std::to_string(n.line()) + ":" + std::to_string(n.col()); }
std::string at(const YamlError& e) { return std::to_string(e.line) + ":" + std::to_string(e.col); }

}  // namespace

TEST_CASE("yaml nodes: null is what yaml-cpp called null, nothing else") {
  const YamlTree t =
      parse("a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: \"null\"\ng: 'null'\nh: !!str null\ni: !!str\nj: nil\n");
  const YamlNode& r = t.root();
  for (const char* k : {"a", "b", "c", "d", "e"}) {
    CAPTURE(k);
    CHECK(r[k].is_null());
    CHECK(r[k]);  // written, though null
  }
  for (const char* k : {"f", "g", "h"}) {
    CAPTURE(k);
    CHECK(r[k].is_scalar());
    CHECK(r[k].scalar() == "null");
  }
  CHECK(r["i"].is_scalar());
  CHECK(r["i"].scalar().empty());
  CHECK(r["j"].scalar() == "nil");
}

TEST_CASE("yaml nodes: an absent key is a null node at 0:0 that tests false") {
  const YamlTree t = parse("a: {b: 1}\n");
  const YamlNode& missing = t.root()["nope"];
  CHECK_FALSE(missing);
  CHECK(missing.is_null());
  CHECK(missing.kind() == YamlNode::Kind::absent);
  CHECK(at(missing) == "0:0");
  CHECK(missing["deeper"].is_null());
  CHECK(missing.entries().empty());
  CHECK(t.root()["a"]["b"].scalar() == "1");
  // Lookup is by scalar key; a number-looking key is text too.
  CHECK(parse("1: x\n").root()["1"].scalar() == "x");
}

TEST_CASE("yaml nodes: lists and mappings keep document order and duplicate keys") {
  const YamlTree t = parse("m: {z: 1, a: 2, z: 3}\nl: [c, b, a]\ns: plain\n");
  const YamlNode& m = t.root()["m"];
  REQUIRE(m.is_map());
  REQUIRE(m.size() == 3);
  CHECK(m.entries()[0].key.scalar() == "z");
  CHECK(m.entries()[1].key.scalar() == "a");
  CHECK(m.entries()[2].key.scalar() == "z");
  CHECK(m["z"].scalar() == "1");  // the first one: duplicates are the readers' to report
  const YamlNode& l = t.root()["l"];
  REQUIRE(l.is_sequence());
  REQUIRE(l.items().size() == 3);
  CHECK(l.items()[0].scalar() == "c");
  CHECK(l.items()[2].scalar() == "a");
  // Other kinds have no children and no text.
  CHECK(t.root()["s"].items().empty());
  CHECK(t.root()["s"].entries().empty());
  CHECK(t.root()["s"].size() == 0);
  CHECK(l.scalar().empty());
  CHECK(parse("[]").root().is_sequence());
  CHECK(parse("{}").root().size() == 0);
}

TEST_CASE("yaml nodes: 1-based positions where yaml-cpp put them") {
  const YamlTree t = parse(
      "a: plain\n"
      "b: \"quoted\"\n"
      "c: |\n"
      "  block\n"
      "d: &x [1, 2]\n"
      "e:\n"
      "f:\n"
      "  - k: v\n"
      "g: !!str 5\n"
      "h: {p: , q: 1}\n");
  const YamlNode& r = t.root();
  CHECK(at(r) == "1:1");
  CHECK(at(r.entries()[0].key) == "1:1");
  CHECK(at(r["a"]) == "1:4");
  CHECK(at(r["b"]) == "2:4");  // the opening quote
  CHECK(at(r["c"]) == "3:4");  // the '|', not the text
  CHECK(r["c"].scalar() == "block\n");
  CHECK(at(r["d"]) == "5:4");  // its anchor
  CHECK(at(r["d"].items()[1]) == "5:11");
  CHECK(at(r["e"]) == "7:1");  // an empty value: the token after its ':'
  CHECK(at(r["f"]) == "8:3");
  CHECK(at(r["f"].items()[0]["k"]) == "8:8");
  CHECK(at(r["g"]) == "9:4");  // its tag
  CHECK(r["g"].scalar() == "5");
  CHECK(at(r["h"]["p"]) == "10:8");  // the "," after "p: "
}

TEST_CASE("yaml nodes: columns count bytes; a BOM and CRLF line ends do not shift them") {
  const YamlTree t = parse("n\xC3\xA4me: \"\xC3\xA4\"\n");
  CHECK(at(t.root().entries()[0].value) == "1:8");
  CHECK(at(parse("\xEF\xBB\xBF"
                 "a: 1\n")
               .root()["a"]) == "1:4");
  const YamlTree crlf = parse("a: 1\r\nb:\r\n  c: 2\r\n");
  CHECK(at(crlf.root()["b"]["c"]) == "3:6");
}

TEST_CASE("yaml nodes: an alias is its anchor's node; '<<' is an ordinary key") {
  const YamlTree t = parse("base: &b {mtu: 9000}\ncopy: *b\nmerged: {<<: *b}\n");
  const YamlNode& r = t.root();
  CHECK(r["copy"].is_map());
  CHECK(r["copy"]["mtu"].scalar() == "9000");
  CHECK(at(r["copy"]) == "1:7");  // shared, position included
  CHECK(r["merged"]["<<"]["mtu"].scalar() == "9000");
  CHECK_FALSE(r["merged"]["mtu"]);
  // The latest anchor of a name wins.
  CHECK(parse("a: &x 1\nb: &x 2\nc: *x\n").root()["c"].scalar() == "2");

  const YamlError unknown = fail("a: *nope\n");
  CHECK(at(unknown) == "1:4");
  CHECK(unknown.message == "alias *nope names no anchor: write &nope on a value before it");
  const YamlError loop = fail("a: &x [1, *x]\n");
  CHECK(at(loop) == "1:11");
  CHECK(loop.message.find("inside the node it names") != std::string::npos);
}

TEST_CASE("yaml nodes: empty values at the end of the file or after a lone key") {
  CHECK(at(parse("a:\n  b:").root()["a"]["b"]) == "2:1");  // the end of the file: column 1, as yaml-cpp
  CHECK(at(parse("? k\nb: 1\n").root()["k"]) == "1:1");    // no ':' at all: at the '?'
}

TEST_CASE("yaml nodes: a lone CR ends a line, as libfyaml reads it") {
  const YamlTree t = parse("# note\rdevices: 1\n");
  CHECK(at(t.root()["devices"]) == "2:10");
}

TEST_CASE("yaml nodes: the first document only, as yaml-cpp's Load") {
  CHECK(parse("a: 1\n---\nb: 2\n").root()["a"].scalar() == "1");
  CHECK_FALSE(parse("a: 1\n---\nb: 2\n").root()["b"]);
  CHECK(parse("a: 1\n---\nb: [\n").root()["a"]);  // a broken later document is not read
  CHECK(parse("a: 1\n...\nb: [\n").root()["a"]);
  // Without a marker, what follows is more of the same document: yaml-cpp read the words as the
  // whole document and silently dropped the devices.
  CHECK(at(fail("just words\n# a comment\ndevices:\n  a: 1\n")) == "3:1");
  for (const char* empty : {"", "# only a comment\n", "\n\n"}) {
    const YamlTree t = parse(empty);
    CHECK(t.root().is_null());
    CHECK(t.root());
    CHECK(at(t.root()) == "0:0");
  }
}

TEST_CASE("yaml nodes: nesting is limited while parsing, with the position of the first too deep") {
  std::string ok;
  for (int i = 0; i < 500; ++i) ok += "[";
  for (int i = 0; i < 500; ++i) ok += "]";
  CHECK(parse(ok).root().is_sequence());
  const YamlError deep = fail("[" + ok + "]");
  CHECK(deep.message == "nested more than 500 levels deep");
  CHECK(at(deep) == "1:501");
  // Far deeper input costs no stack: the parse stops at the limit.
  const YamlError deeper = fail(std::string(1'000'000, '['), 64);
  CHECK(at(deeper) == "1:65");
  std::string block = "a:\n";
  for (int i = 1; i < 20; ++i) block += std::string(2 * static_cast<size_t>(i), ' ') + "b:\n";
  CHECK(at(fail(block, 10)) == "11:21");
}

TEST_CASE("yaml nodes: syntax errors are located and readable") {
  // An unclosed bracket is noticed at the end of the file; the error names the bracket.
  const YamlError open = fail("extends: x\nmtu: {host: 9000\n");
  CHECK(at(open) == "2:6");
  CHECK(open.message == R"("{" is never closed: the "}" that ends it is missing)");
  CHECK(fail("a: [1, 2\n").message == R"("[" is never closed: the "]" that ends it is missing)");
  // Inside brackets, libfyaml's message says which bracket.
  const YamlError mismatch = fail("a: [x, {y: 1]\n");
  CHECK(at(mismatch) == "1:13");
  CHECK(mismatch.message == R"(mismatched flow sequence end (in the "{" at 1:8))");
  // A bad escape is named, control characters escaped.
  const YamlError esc = fail("a: \"\\\x1b[31m\"\n");
  CHECK(at(esc) == "1:5");
  CHECK(esc.message.starts_with("unknown escape character: \\x1b ("));
  CHECK(at(fail("\xC3\xA4: \"\\q\"\n")) == "1:6");  // columns in bytes after a two-byte character
  CHECK(fail("a:\n\tb: 1\n").message == "tab character may not be used as indentation");
  CHECK(fail("a: \"abc\nb: 1\n").message.ends_with("(is its closing quote missing?)"));
}

TEST_CASE("yaml nodes: bytes that are not text are refused, not skipped") {
  // libfyaml itself ends the stream quietly at such bytes: the rest of the file would be lost.
  const YamlError nul = fail(std::string("a: 1\nb: x\0y\nc: 3\n", 17));
  CHECK(at(nul) == "2:5");
  CHECK(nul.message == "NUL byte (\\x00): not a text file");
  const YamlError bad = fail("a: 1\nb: x\xFEy\nc: 3\n");
  CHECK(at(bad) == "2:5");
  CHECK(bad.message == "byte \\xfe is not UTF-8: save the file as UTF-8");
  CHECK(at(fail("\xFF\xFE"
                "a\0:\0")) == "1:1");  // UTF-16
}

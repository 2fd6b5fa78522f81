#include <doctest/doctest.h>

#include <string>

#include "render/template_limits.h"
#include "render/template_set.h"

using namespace fabricctl;

namespace {

std::string nested(size_t depth, const std::string& open = "{{#x}}", const std::string& close = "{{/x}}") {
  std::string s;
  for (size_t i = 0; i < depth; ++i) s += open;
  s += "v";
  for (size_t i = 0; i < depth; ++i) s += close;
  return s;
}

}  // namespace

TEST_CASE("templates nest at most 64 sections deep") {
  Diags d;
  CHECK(check_template_limits(nested(kMaxTemplateDepth), "t.mustache", d));
  CHECK(d.empty());
  // 20,000 levels overflowed kainjow's recursive parser; now it is one located error.
  CHECK_FALSE(check_template_limits("a\n  " + nested(20000), "t.mustache", d));
  CHECK(d.str() == "t.mustache:2:387: sections nested deeper than 64 levels\n");
}

TEST_CASE("inverted sections count, closed sections do not, and delimiter changes are followed") {
  Diags d;
  std::string flat;
  for (int i = 0; i < 1000; ++i) flat += "{{#a}}{{^b}}x{{/b}}{{/a}}";
  CHECK(check_template_limits(flat, "flat", d));
  CHECK(check_template_limits("{{{raw}}}{{! #comment }}{{&amp}}", "vars", d));
  CHECK(d.empty());
  CHECK_FALSE(check_template_limits("{{=<% %>=}}\n" + nested(65, "<%^x%>", "<%/x%>"), "delims", d));
  CHECK(d.str() == "delims:2:385: sections nested deeper than 64 levels\n");
}

TEST_CASE("templates over 1 MiB are refused before parsing") {
  Diags d;
  CHECK_FALSE(check_template_limits(std::string(kMaxTemplateBytes + 1, 'x'), "big", d));
  CHECK(d.str() == "big: template is 1048577 bytes; the limit is 1048576 bytes (1 MiB)\n");
}

TEST_CASE("rendering stops at 64 MiB of output") {
  // Nested sections over one list multiply the body: four levels over 64 items are 64^4 copies of
  // 64 KiB (1 TiB) without a bound; with it, one error after 64 MiB.
  nlohmann::json items = nlohmann::json::array();
  for (int i = 0; i < 64; ++i) items.push_back({{"n", i}});
  Diags d;
  std::string body;
  for (int i = 0; i < 16; ++i) body += std::string(4095, 'x') + "\n";  // kainjow hands over whole lines
  const auto out =
      render_template("{{#items}}{{#items}}{{#items}}{{#items}}" + body + "{{/items}}{{/items}}{{/items}}{{/items}}",
                      {{"items", items}}, "bomb", d);
  CHECK_FALSE(out);
  CHECK(d.str() == "bomb: template renders more than 67108864 bytes (64 MiB) for one device\n");
  Diags ok;
  CHECK(render_template("{{#items}}{{n}},{{/items}}", {{"items", items}}, "small", ok)->size() == 182);
  CHECK(ok.empty());
}

TEST_CASE("template error messages are printable") {
  Diags d;
  CHECK_FALSE(render_template("{{#a\x1b}}", nlohmann::json::object(), "ctl", d));
  CHECK(d.str().find('\x1b') == std::string::npos);
  CHECK(d.str().find("\\x1b") != std::string::npos);
}

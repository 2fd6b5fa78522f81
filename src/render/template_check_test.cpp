#include <doctest/doctest.h>

#include <fstream>

#include "render/template_set.h"
#include "temp_dir.h"

using namespace fabricctl;
using nlohmann::json;
namespace fs = std::filesystem;
using fabricctl::test::TempDir;

namespace {

/// The rendered text, or the diagnostics (one per line) when the render fails.
std::string render(const std::string& text, const json& context) {
  Diags diags;
  const auto out = render_template(text, context, "t.mustache", diags);
  if (!out) {
    CHECK(diags.has_errors());
    return diags.str();
  }
  CHECK(diags.empty());
  return *out;
}

const json kPorts = {{"device", "leaf1"},
                     {"mtu_bytes", "9100"},
                     {"ports", {{{"name", "Ethernet0"}}, {{"name", "Ethernet8"}}}},
                     {"watchdog", false},
                     {"nothing", json::array()},
                     {"note", nullptr},
                     {"qos", {{"trust", "dscp"}}}};

}  // namespace

TEST_CASE("strict templates: a name the context does not have is an error at its tag") {
  CHECK(render("mtu\n   {{mtu_byte}}\n", kPorts) ==
        "t.mustache:2:4: unknown variable \"mtu_byte\"; did you mean \"mtu_bytes\"?\n");
  CHECK(render("{{#watchdg}}x{{/watchdg}}", kPorts) ==
        "t.mustache:1:1: unknown section \"watchdg\"; did you mean \"watchdog\"?\n");
  // Looked up through every scope of the stack: an element's keys, then the enclosing ones.
  CHECK(render("{{#ports}}{{device}} {{name}};{{/ports}}", kPorts) == "leaf1 Ethernet0;leaf1 Ethernet8;");
  // Inside a section, the element's keys are suggested too; a tag repeated per element is reported once.
  CHECK(render("{{#ports}}\n{{nme}}\n{{/ports}}", kPorts) ==
        "t.mustache:2:1: unknown variable \"nme\"; did you mean \"name\"?\n");
  CHECK(render("{{qos.trust}} {{qos.mode}}", kPorts) == "t.mustache:1:15: unknown variable \"qos.mode\"\n");
  // Every unknown name of the render is reported, not only the first.
  CHECK(render("{{a}}\n{{#ports}}{{b}}{{/ports}}", kPorts) ==
        "t.mustache:1:1: unknown variable \"a\"\nt.mustache:2:11: unknown variable \"b\"\n");
  CHECK(render("{{ }}", kPorts) == "t.mustache:1:1: unknown variable \"\"\n");
}

TEST_CASE("strict templates: a key that is false, null or an empty list is how a template says 'optional'") {
  CHECK(render("a{{#watchdog}}{{anything}}{{/watchdog}}{{#nothing}}{{x}}{{/nothing}}{{#note}}{{y}}{{/note}}b",
               kPorts) == "ab");
  CHECK(render("{{^watchdog}}off{{/watchdog}} {{^nothing}}none{{/nothing}} {{^ports}}no ports{{/ports}}", kPorts) ==
        "off none ");
  // An inverted section over a missing name is an error too: a typo would silently flip the logic.
  CHECK(render("{{^watchdg}}off{{/watchdg}}", kPorts) ==
        "t.mustache:1:1: unknown section \"watchdg\"; did you "
        "mean \"watchdog\"?\n");
  CHECK(render("{{#ports}}{{.}}{{/ports}}", {{"ports", {"a", "b"}}}) == "ab");
}

TEST_CASE("strict templates: syntax errors are located") {
  CHECK(render("x\n  {{#ports}}\n{{name}}", kPorts) == "t.mustache:2:3: section \"ports\" is never closed\n");
  CHECK(render("{{#ports}}\n{{#qos}} {{/ports}}{{/qos}}", kPorts) ==
        "t.mustache:2:10: closing tag \"ports\" does not match the open section \"qos\" (opened at 2:1)\n");
  CHECK(render("{{#ports}}{{/ports}}\n{{#qos}}", kPorts) == "t.mustache:2:1: section \"qos\" is never closed\n");
  CHECK(render("ok\n{{/ports}}", kPorts) == "t.mustache:2:1: closing tag \"ports\" has no open section\n");
  CHECK(render("a {{device", kPorts) == "t.mustache:1:3: tag is never closed\n");
  CHECK(render("\n{{=<% =}}", kPorts) == "t.mustache:2:1: invalid set-delimiter tag (like {{=<% %>=}})\n");
  CHECK(render("{{=<% %>=}}\n<%device%> <%#ports%>", kPorts) == "t.mustache:2:12: section \"ports\" is never closed\n");
  CHECK(render("{{>device}}", kPorts) ==
        "t.mustache:1:1: partial \"device\": partials are not supported (each file is one template)\n");
}

namespace {

/// A template directory with `files` (relative path -> content).
fs::path template_dir(const fs::path& dir, const std::map<std::string, std::string>& files) {
  for (const auto& [name, content] : files) {
    fs::create_directories((dir / name).parent_path());
    std::ofstream(dir / name) << content;
  }
  return dir;
}

std::optional<std::string> render_with(TemplateCache& cache, const std::string& relative, const json& context,
                                       Diags& diags) {
  return cache.render(
      relative, *cache.context(json(context)), [&] { return context; }, diags);
}

}  // namespace

TEST_CASE("TemplateCache: the first directory holding a template wins; a site directory holds only overrides") {
  TempDir tmp;
  const fs::path site = template_dir(tmp.path / "site", {{"eos/session.cfg.mustache", "site {{device}}"}});
  const fs::path shipped = template_dir(tmp.path / "shipped", {{"eos/session.cfg.mustache", "shipped {{device}}"},
                                                               {"nvue/commands.nvue.mustache", "nvue {{device}}"}});
  TemplateCache cache({site, shipped});
  Diags diags;
  CHECK(render_with(cache, "eos/session.cfg.mustache", kPorts, diags) == "site leaf1");
  CHECK(render_with(cache, "nvue/commands.nvue.mustache", kPorts, diags) == "nvue leaf1");
  CHECK(diags.empty());

  // Errors name the file that was used.
  template_dir(site, {{"nvue/commands.nvue.mustache", "{{devic}}"}});
  TemplateCache fresh({site, shipped});
  CHECK_FALSE(render_with(fresh, "nvue/commands.nvue.mustache", kPorts, diags));
  CHECK(diags.str() == (site / "nvue/commands.nvue.mustache").string() +
                           ":1:1: unknown variable \"devic\"; did you mean \"device\"?\n");
}

TEST_CASE("TemplateCache: an unknown name is reported once for all devices; a missing template or directory too") {
  TempDir tmp;
  const fs::path dir = template_dir(tmp.path / "t", {{"eos/x.mustache", "{{#ports}}{{nam}}{{/ports}}"}});
  TemplateCache cache({dir});
  Diags diags;
  for (int device = 0; device < 3; ++device) CHECK_FALSE(render_with(cache, "eos/x.mustache", kPorts, diags));
  CHECK(diags.size() == 1);

  Diags missing;
  TemplateCache two({tmp.path / "nosuch", dir});
  CHECK_FALSE(render_with(two, "eos/y.mustache", kPorts, missing));
  CHECK(missing.str() == (tmp.path / "nosuch").string() + ": template directory does not exist\n" +
                             (dir / "eos/y.mustache").string() + ": cannot read template (nor is it in \"" +
                             (tmp.path / "nosuch").string() + "\")\n");
}

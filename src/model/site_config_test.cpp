#include "model/site_config.h"

#include <doctest/doctest.h>

using namespace fabricctl;

namespace {

struct Read {
  Diags diags;
  SiteConfig config;
};

Read read(const std::string& text, const std::string& base = "site") {
  Read r;
  auto doc = parse_yaml(text, base + "/fabricctl.yaml", r.diags);
  REQUIRE(doc);
  r.config = site_config_from_doc(*doc, base, r.diags);
  return r;
}

std::vector<std::string> values(const std::vector<Field<std::string>>& fields) {
  std::vector<std::string> out;
  for (const auto& f : fields) out.push_back(*f.value);
  return out;
}

}  // namespace

TEST_CASE("fabricctl.yaml: directories relative to the file, a list or one, absolute kept") {
  Read r = read("profiles: [profiles, ../shared/profiles]\ntemplates: /srv/templates\n");
  CHECK(r.diags.str() == "");
  CHECK(values(r.config.profiles) == std::vector<std::string>{"site/profiles", "shared/profiles"});
  CHECK(values(r.config.templates) == std::vector<std::string>{"/srv/templates"});
  CHECK(r.config.profiles[1].loc.str() == "site/fabricctl.yaml:1:22");

  r = read("profiles: profiles\n", "");
  CHECK(values(r.config.profiles) == std::vector<std::string>{"profiles"});
  CHECK(read("").config.profiles.empty());
}

TEST_CASE("fabricctl.yaml: strict") {
  CHECK(read("profile: p\n").diags.str() ==
        "site/fabricctl.yaml:1:1: unknown key \"profile\" in fabricctl.yaml; did you mean \"profiles\"?\n");
  CHECK(
      read("inventory: inv\n").diags.str() ==
      "site/fabricctl.yaml:1:1: unknown key \"inventory\" in fabricctl.yaml (expected one of: profiles, templates)\n");
  CHECK(read("profiles: []\n").diags.str() == "site/fabricctl.yaml:1:11: profiles: must name at least one directory\n");
  CHECK(read("templates: {a: b}\n").diags.has_errors());
  CHECK(read("- profiles\n").diags.has_errors());
}

TEST_CASE("fabricctl.yaml sits in the directory that holds the inventory") {
  CHECK(site_config_path("inventory/lab") == "inventory/fabricctl.yaml");
  CHECK(site_config_path("inventory/lab/") == "inventory/fabricctl.yaml");
  CHECK(site_config_path("inventory") == "fabricctl.yaml");
  CHECK(site_config_path("site.yaml") == "fabricctl.yaml");
  CHECK(site_config_path("/srv/site/inventory") == "/srv/site/fabricctl.yaml");
}

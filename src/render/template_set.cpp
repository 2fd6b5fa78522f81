#include "render/template_set.h"

#include <kainjow/mustache.hpp>

#include <fstream>
#include <sstream>

namespace fabricctl {
namespace {

namespace mu = kainjow::mustache;

mu::data to_data(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object: {
      mu::data d{mu::data::type::object};
      for (const auto& [k, v] : j.items()) d.set(k, to_data(v));
      return d;
    }
    case nlohmann::json::value_t::array: {
      mu::data d{mu::data::type::list};
      for (const auto& v : j) d.push_back(to_data(v));
      return d;
    }
    case nlohmann::json::value_t::boolean:
      return j.get<bool>() ? mu::data{mu::data::type::bool_true} : mu::data{mu::data::type::bool_false};
    case nlohmann::json::value_t::string:
      return mu::data{j.get<std::string>()};
    case nlohmann::json::value_t::null:
      return mu::data{mu::data::type::bool_false};
    default:
      return mu::data{j.dump()};
  }
}

}  // namespace

class TemplateCache::Context {
 public:
  explicit Context(mu::data d) : data(std::move(d)) {}
  mu::data data;
};

struct TemplateCache::Compiled {
  std::optional<mu::mustache> tmpl;  // empty when the file could not be read or parsed
};

TemplateCache::TemplateCache(std::filesystem::path dir) : dir_(std::move(dir)) {}
TemplateCache::~TemplateCache() = default;

std::shared_ptr<const TemplateCache::Context> TemplateCache::context(const nlohmann::json& json) const {
  return std::make_shared<const Context>(to_data(json));
}

std::optional<std::string> TemplateCache::render(const std::string& relative, const Context& context, Diags& diags) {
  const std::filesystem::path path = dir_ / relative;
  auto& slot = compiled_[relative];
  if (!slot) {
    // Compile once; a missing or broken template is reported once, not per device.
    slot = std::make_unique<Compiled>();
    if (const auto text = read_template(path, diags)) {
      mu::mustache tmpl{*text};
      if (!tmpl.is_valid()) {
        diags.error({std::make_shared<const std::string>(path.string()), 0, 0}, "invalid template: " + tmpl.error_message());
      } else {
        tmpl.set_custom_escape([](const std::string& s) { return s; });
        slot->tmpl.emplace(std::move(tmpl));
      }
    }
  }
  if (!slot->tmpl) return std::nullopt;
  std::string out = slot->tmpl->render(context.data);
  if (!slot->tmpl->is_valid()) {
    diags.error({std::make_shared<const std::string>(path.string()), 0, 0},
                "template failed to render: " + slot->tmpl->error_message());
    return std::nullopt;
  }
  return out;
}

std::optional<std::string> render_template(const std::string& text, const nlohmann::json& context,
                                           const std::string& file, Diags& diags) {
  auto name = std::make_shared<const std::string>(file);
  mu::mustache tmpl{text};
  if (!tmpl.is_valid()) {
    diags.error({name, 0, 0}, "invalid template: " + tmpl.error_message());
    return std::nullopt;
  }
  // Configuration text, not HTML: {{x}} must print x as it is.
  tmpl.set_custom_escape([](const std::string& s) { return s; });
  std::string out = tmpl.render(to_data(context));
  if (!tmpl.is_valid()) {
    diags.error({name, 0, 0}, "template failed to render: " + tmpl.error_message());
    return std::nullopt;
  }
  return out;
}

std::optional<std::string> read_template(const std::filesystem::path& path, Diags& diags) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error({std::make_shared<const std::string>(path.string()), 0, 0}, "cannot read template");
    return std::nullopt;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace fabricctl

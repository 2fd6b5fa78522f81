#include "render/template_set.h"

#include <kainjow/mustache.hpp>

#include <algorithm>
#include <fstream>

#include "render/template_limits.h"

namespace fabricctl {
namespace {

namespace mu = kainjow::mustache;

mu::data::type data_type(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object: return mu::data::type::object;
    case nlohmann::json::value_t::array: return mu::data::type::list;
    case nlohmann::json::value_t::boolean:
      return j.get<bool>() ? mu::data::type::bool_true : mu::data::type::bool_false;
    case nlohmann::json::value_t::null: return mu::data::type::bool_false;
    default: return mu::data::type::string;
  }
}

/// A node of j's type, with j's text when j is a scalar; the string is moved out of j, not copied.
/// kainjow keeps a string behind its own pointer and has no constructor that takes one by move, so the
/// node is made empty and its string assigned (sound: the node is new and not const).
mu::data leaf(nlohmann::json& j) {
  if (j.is_structured() || j.is_boolean() || j.is_null()) return mu::data{data_type(j)};
  mu::data d{mu::data::type::string};
  auto& text = const_cast<std::string&>(d.string_value());
  if (j.is_string()) text = std::move(j.get_ref<std::string&>());
  else text = j.dump();
  return d;
}

/// Fills `d` (already of j's type) from `j` in place, moving j's strings. kainjow's set() and
/// push_back() copy the value they are given, subtree and all; here each child is moved into place
/// (operator[] for a member, the list itself for an element), then filled where it lies. The
/// const_casts are sound: the children belong to `d`, which is not const.
void fill(mu::data& d, nlohmann::json& j) {
  if (j.is_object()) {
    for (auto& [k, v] : j.items()) {
      mu::data& child = d[k] = leaf(v);
      if (v.is_structured()) fill(child, v);
    }
  } else if (j.is_array()) {
    auto& list = const_cast<mu::list&>(d.list_value());
    list.reserve(j.size());  // so that adding an element never moves the ones already filled
    for (auto& v : j) {
      list.push_back(leaf(v));
      if (v.is_structured()) fill(list.back(), v);
    }
  }
}

mu::data to_data(nlohmann::json&& j) {
  mu::data d = leaf(j);
  fill(d, j);
  return d;
}

/// Parses a template after checking its size and nesting; nullopt (reported) when either fails.
std::optional<mu::mustache> compile(const std::string& text, const std::shared_ptr<const std::string>& name,
                                    Diags& diags) {
  if (!check_template_limits(text, *name, diags)) return std::nullopt;
  mu::mustache tmpl{text};
  if (!tmpl.is_valid()) {
    diags.error({name, 0, 0}, "invalid template: " + printable(tmpl.error_message(), 200));
    return std::nullopt;
  }
  // Configuration text, not HTML: {{x}} must print x as it is.
  tmpl.set_custom_escape([](const std::string& s) { return s; });
  return tmpl;
}

struct OutputTooLarge {};

/// Renders into one string, stopping at kMaxRenderedBytes: nested sections over the same list
/// multiply the output (a list of 64 ports nested 5 deep is 10^9 lines).
std::optional<std::string> render_bounded(mu::mustache& tmpl, const mu::data& data,
                                          const std::shared_ptr<const std::string>& name, Diags& diags,
                                          size_t expected_bytes = 0) {
  std::string out;
  // One allocation of about the right size instead of a doubling series: with every device's
  // artifacts held until they are written (~1 GB at R100k), the freed halves fragment the heap
  // and malloc's bin searches came to dominate rendering.
  out.reserve(std::min(expected_bytes, kMaxRenderedBytes));
  try {
    tmpl.render(data, [&out](const std::string& piece) {
      if (piece.size() > kMaxRenderedBytes - out.size()) throw OutputTooLarge{};
      out += piece;
    });
  } catch (const OutputTooLarge&) {
    diags.error({name, 0, 0},
                "template renders more than " + std::to_string(kMaxRenderedBytes) + " bytes (64 MiB) for one device");
    return std::nullopt;
  }
  if (!tmpl.is_valid()) {
    diags.error({name, 0, 0}, "template failed to render: " + printable(tmpl.error_message(), 200));
    return std::nullopt;
  }
  return out;
}

}  // namespace

class TemplateCache::Context {
 public:
  explicit Context(mu::data d) : data(std::move(d)) {}
  mu::data data;
};

struct TemplateCache::Compiled {
  std::optional<mu::mustache> tmpl;  // empty when the file could not be read or parsed
  std::shared_ptr<const std::string> name;
  size_t last_bytes = 0;  // size of the previous device's output: devices of a platform are alike
};

TemplateCache::TemplateCache(std::filesystem::path dir) : dir_(std::move(dir)) {}
TemplateCache::~TemplateCache() = default;

std::shared_ptr<const TemplateCache::Context> TemplateCache::context(nlohmann::json&& json) const {
  return std::make_shared<const Context>(to_data(std::move(json)));
}

std::optional<std::string> TemplateCache::render(const std::string& relative, const Context& context, Diags& diags) {
  const std::filesystem::path path = dir_ / relative;
  auto& slot = compiled_[relative];
  if (!slot) {
    // Compile once; a missing or broken template is reported once, not per device.
    slot = std::make_unique<Compiled>();
    slot->name = std::make_shared<const std::string>(path.string());
    if (const auto text = read_template(path, diags)) slot->tmpl = compile(*text, slot->name, diags);
  }
  if (!slot->tmpl) return std::nullopt;
  auto out = render_bounded(*slot->tmpl, context.data, slot->name, diags, slot->last_bytes + slot->last_bytes / 8);
  if (out) {
    slot->last_bytes = out->size();
    if (out->capacity() > out->size() + out->size() / 4) out->shrink_to_fit();  // held until written
  }
  return out;
}

std::optional<std::string> render_template(const std::string& text, const nlohmann::json& context,
                                           const std::string& file, Diags& diags) {
  auto name = std::make_shared<const std::string>(file);
  auto tmpl = compile(text, name, diags);
  if (!tmpl) return std::nullopt;
  return render_bounded(*tmpl, to_data(nlohmann::json(context)), name, diags);
}

std::optional<std::string> read_template(const std::filesystem::path& path, Diags& diags) {
  const Loc where{std::make_shared<const std::string>(path.string()), 0, 0};
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error(where, "cannot read template");
    return std::nullopt;
  }
  // Read one byte past the limit at most: a huge (or endless, like a FIFO) file costs nothing more.
  std::string text(kMaxTemplateBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (in.bad()) {
    diags.error(where, "cannot read template");
    return std::nullopt;
  }
  return text;  // check_template_limits() reports one over the limit
}

}  // namespace fabricctl

#include "render/template_set.h"

#include <kainjow/mustache.hpp>

#include <algorithm>
#include <fstream>
#include <set>

#include "render/template_check.h"
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

/// A template parsed once: kainjow's renderer, and the tree of tags with their offsets, which locates
/// an unknown name (kainjow's renderer keeps its own tree private).
struct Template {
  std::string text;
  std::shared_ptr<const std::string> name;
  mu::mustache tmpl;
  TemplateTree tree;
};

/// Parses a template after checking its size and nesting; nullopt (reported) when anything fails.
std::optional<Template> compile(std::string text, const std::shared_ptr<const std::string>& name, Diags& diags) {
  if (!check_template_limits(text, *name, diags)) return std::nullopt;
  std::optional<TemplateTree> tree = parse_template_tree(text, name, diags);
  if (!tree) return std::nullopt;
  mu::mustache tmpl{text};
  if (!tmpl.is_valid()) {  // parse_template_tree ran the same parser: not expected
    diags.error({name, 0, 0}, "invalid template: " + printable(tmpl.error_message(), 200));
    return std::nullopt;
  }
  // Configuration text, not HTML: {{x}} must print x as it is.
  tmpl.set_custom_escape([](const std::string& s) { return s; });
  return Template{std::move(text), name, std::move(tmpl), std::move(*tree)};
}

struct OutputTooLarge {};

/// Where kainjow writes the output: one string, stopping at kMaxRenderedBytes, since nested sections
/// over the same list multiply the output (a list of 64 ports nested 5 deep is 10^9 lines).
struct BoundedOutput {
  std::string& out;
  BoundedOutput& operator<<(const std::string& piece) {
    if (piece.size() > kMaxRenderedBytes - out.size()) throw OutputTooLarge{};
    out += piece;
    return *this;
  }
};

/// Reports each name of `t` that `context` lacks at its tag, once per tag (`reported` holds the offsets
/// already reported, so that thousands of devices do not report the same tag thousands of times).
void report_unknown_names(const Template& t, const nlohmann::json& context, std::set<size_t>& reported, Diags& diags) {
  const std::vector<UnknownName> names = find_unknown_names(t.tree, context);
  if (names.empty()) diags.error({t.name, 0, 0}, "template looks up a name the render context does not have");
  for (const UnknownName& n : names) {
    if (!reported.insert(n.offset).second) continue;
    diags.error(template_loc(t.text, n.offset, t.name),
                std::string(n.section ? "unknown section " : "unknown variable ") + quote(n.name) + n.hint);
  }
}

/// Renders `t` over `data`; a name `data` lacks is reported at its tag, from the JSON `json_context`
/// builds again (called only then).
std::optional<std::string> render_strict(Template& t, const mu::data& data,
                                         const std::function<nlohmann::json()>& json_context,
                                         std::set<size_t>& reported, Diags& diags, size_t expected_bytes = 0) {
  std::string out;
  // One allocation of about the right size instead of a doubling series: with every device's
  // artifacts held until they are written (~1 GB at R100k), the freed halves fragment the heap
  // and malloc's bin searches came to dominate rendering.
  out.reserve(std::min(expected_bytes, kMaxRenderedBytes));
  try {
    StrictContext context(&data);
    BoundedOutput sink{out};
    t.tmpl.render(context, sink);
  } catch (const OutputTooLarge&) {
    diags.error({t.name, 0, 0},
                "template renders more than " + std::to_string(kMaxRenderedBytes) + " bytes (64 MiB) for one device");
    return std::nullopt;
  } catch (const NameNotFound&) {
    report_unknown_names(t, json_context(), reported, diags);
    return std::nullopt;
  }
  if (!t.tmpl.is_valid()) {
    diags.error({t.name, 0, 0}, "template failed to render: " + printable(t.tmpl.error_message(), 200));
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
  std::optional<Template> tmpl;  // empty when the file could not be read or parsed
  size_t last_bytes = 0;         // size of the previous device's output: devices of a platform are alike
  std::set<size_t> reported;     // offsets of the unknown names reported
};

TemplateCache::TemplateCache(std::vector<std::filesystem::path> dirs) : dirs_(std::move(dirs)) {}
TemplateCache::~TemplateCache() = default;

std::shared_ptr<const TemplateCache::Context> TemplateCache::context(nlohmann::json&& json) const {
  return std::make_shared<const Context>(to_data(std::move(json)));
}

std::optional<std::filesystem::path> TemplateCache::find(const std::string& relative, Diags& diags) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!dirs_checked_) {
    // A misspelt site directory would otherwise fall back to the shipped templates without a word.
    dirs_checked_ = true;
    for (const fs::path& dir : dirs_)
      if (!fs::is_directory(dir, ec))
        diags.error({std::make_shared<const std::string>(dir.string()), 0, 0}, "template directory does not exist");
  }
  for (const fs::path& dir : dirs_) {
    // Anything under the name counts, a dangling link too: the error then names that file.
    if (fs::exists(fs::symlink_status(dir / relative, ec))) return dir / relative;
  }
  if (dirs_.empty()) {
    diags.error({std::make_shared<const std::string>(relative), 0, 0}, "no template directory to read it from");
    return std::nullopt;
  }
  std::string also;
  for (size_t i = 0; i + 1 < dirs_.size(); ++i) also += (also.empty() ? "" : ", ") + quote(dirs_[i].string());
  diags.error({std::make_shared<const std::string>((dirs_.back() / relative).string()), 0, 0},
              "cannot read template" + (also.empty() ? "" : " (nor is it in " + also + ")"));
  return std::nullopt;
}

std::optional<std::string> TemplateCache::render(const std::string& relative, const Context& context,
                                                 const std::function<nlohmann::json()>& json_context, Diags& diags) {
  auto& slot = compiled_[relative];
  if (!slot) {
    // Compile once; a missing or broken template is reported once, not per device.
    slot = std::make_unique<Compiled>();
    if (const auto path = find(relative, diags))
      if (auto text = read_template(*path, diags))
        slot->tmpl = compile(std::move(*text), std::make_shared<const std::string>(path->string()), diags);
  }
  if (!slot->tmpl) return std::nullopt;
  auto out = render_strict(*slot->tmpl, context.data, json_context, slot->reported, diags,
                           slot->last_bytes + slot->last_bytes / 8);
  if (out) {
    slot->last_bytes = out->size();
    if (out->capacity() > out->size() + out->size() / 4) out->shrink_to_fit();  // held until written
  }
  return out;
}

std::optional<std::string> render_template(const std::string& text, const nlohmann::json& context,
                                           const std::string& file, Diags& diags) {
  auto tmpl = compile(text, std::make_shared<const std::string>(file), diags);
  if (!tmpl) return std::nullopt;
  std::set<size_t> reported;
  return render_strict(
      *tmpl, to_data(nlohmann::json(context)), [&context] { return context; }, reported, diags);
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

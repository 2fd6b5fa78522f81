#include "render/template_check.h"

#include <charconv>
#include <string_view>
#include <unordered_set>

#include "util/spell.h"

namespace fabricctl {
namespace {

namespace mu = kainjow::mustache;
using mu::tag_type;
using json = nlohmann::json;

/// Tags the walk may visit: a list of 64 ports in sections nested 4 deep is 16 million.
constexpr size_t kMaxVisits = size_t{1} << 22;

/// The byte offset kainjow's parse errors end with (" at 123"), or npos.
size_t error_offset(const std::string& message) {
  const size_t at = message.rfind(" at ");
  if (at == std::string::npos) return std::string::npos;
  size_t offset = 0;
  const char* first = message.data() + at + 4;
  const char* last = message.data() + message.size();
  const auto [end, ec] = std::from_chars(first, last, offset);
  if (ec != std::errc() || end != last) return std::string::npos;
  return offset;
}

/// The open section of the tree whose closing tag names another section, earliest closing tag
/// first: kainjow pops whatever section is open at {{/x}} and finds the mismatch only at the end.
const TemplateTree* mismatched_section(const TemplateTree& comp, const TemplateTree* found = nullptr) {
  for (const TemplateTree& child : comp.children) {
    if (!child.tag.is_section_begin()) continue;
    if (!child.children.empty() && child.children.back().tag.is_section_end() &&
        child.children.back().tag.name != child.tag.name &&
        (!found || child.children.back().position < found->children.back().position))
      found = &child;
    found = mismatched_section(child, found);
  }
  return found;
}

const TemplateTree* first_partial(const TemplateTree& comp) {
  for (const TemplateTree& child : comp.children) {
    if (child.tag.type == tag_type::partial) return &child;
    if (const TemplateTree* inner = first_partial(child)) return inner;
  }
  return nullptr;
}

/// Reports kainjow's parse error `message` at the place it names, in our words.
void report_parse_error(const std::string& text, const std::string& message, const TemplateTree& root,
                        const std::shared_ptr<const std::string>& file, Diags& diags) {
  const auto at = [&](size_t offset) { return template_loc(text, offset, file); };
  if (message.starts_with("Unclosed section")) {
    // kainjow reports the first section, in tree order, whose last tag is not its own closing tag;
    // when a closing tag names another section, that tag is the mistake to show.
    if (const TemplateTree* s = mismatched_section(root)) {
      const TemplateTree& close = s->children.back();
      const Loc open = at(s->position);
      diags.error(at(close.position), "closing tag " + quote(close.tag.name) + " does not match the open section " +
                                          quote(s->tag.name) + " (opened at " + std::to_string(open.line) + ":" +
                                          std::to_string(open.col) + ")");
      return;
    }
  }
  const size_t offset = error_offset(message);
  const Loc where = offset == std::string::npos || offset > text.size() ? Loc{file, 0, 0} : at(offset);
  // The rest of kainjow's messages, as "<what> at <offset>".
  static constexpr std::pair<std::string_view, std::string_view> kMessages[] = {
      {"Unclosed tag", "tag is never closed"},
      {"Invalid set delimiter tag", "invalid set-delimiter tag (like {{=<% %>=}})"},
  };
  for (const auto& [theirs, ours] : kMessages) {
    if (message.starts_with(theirs)) {
      diags.error(where, std::string(ours));
      return;
    }
  }
  // "Unclosed section \"x\" at N", "Unopened section \"x\" at N".
  const auto named = [&](std::string_view theirs) {
    const size_t end = message.rfind("\" at ");
    return end == std::string::npos || end < theirs.size() ? std::string()
                                                           : message.substr(theirs.size(), end - theirs.size());
  };
  if (message.starts_with("Unclosed section \"")) {
    diags.error(where, "section " + quote(named("Unclosed section \"")) + " is never closed");
    return;
  }
  if (message.starts_with("Unopened section \"")) {
    diags.error(where, "closing tag " + quote(named("Unopened section \"")) + " has no open section");
    return;
  }
  diags.error(where, "invalid template: " + printable(message, 200));
}

/// kainjow's truth: false and null (converted to false) are false, and so is an empty list.
bool is_false(const json& j) {
  return j.is_null() || (j.is_boolean() && !j.get<bool>()) || (j.is_array() && j.empty());
}

/// The walk of find_unknown_names: kainjow's render, looking names up and writing nothing.
class Walk {
 public:
  explicit Walk(const json& root) { stack_.push_back(&root); }

  void children(const TemplateTree& comp) {
    for (const TemplateTree& child : comp.children) {
      if (visits_++ >= kMaxVisits) return;
      tag(child);
    }
  }

  std::vector<UnknownName> found;

 private:
  void tag(const TemplateTree& comp) {
    const tag_type type = comp.tag.type;
    const bool variable = type == tag_type::variable || type == tag_type::unescaped_variable;
    const bool section = type == tag_type::section_begin;
    const bool inverted = type == tag_type::section_begin_inverted;
    if (!variable && !section && !inverted) return;
    const json* value = get(comp.tag.name);
    if (!value) report(comp, !variable);
    if (section && value && !is_false(*value)) {
      if (value->is_array()) {
        for (const json& item : *value) scoped(comp, &item);
      } else {
        scoped(comp, value);
      }
    } else if (inverted && (!value || is_false(*value))) {
      // kainjow renders an inverted section over a missing name without a new scope.
      if (value) scoped(comp, value);
      else children(comp);
    }
  }

  void scoped(const TemplateTree& comp, const json* scope) {
    stack_.push_back(scope);
    children(comp);
    stack_.pop_back();
  }

  /// kainjow's context::get: "." is the innermost scope; "a.b" is looked up whole at each level.
  const json* get(const std::string& name) const {
    if (name == ".") return stack_.back();
    const std::vector<std::string> parts =
        name.find('.') == std::string::npos ? std::vector<std::string>{name} : mu::split(name, '.');
    for (size_t level = stack_.size(); level-- > 0;) {  // innermost first
      const json* value = stack_[level];
      for (const std::string& part : parts) {
        const auto it = value->find(part);  // end() when value is not an object
        value = it == value->end() ? nullptr : &*it;
        if (!value) break;
      }
      if (value) return value;
    }
    return nullptr;
  }

  void report(const TemplateTree& comp, bool is_section) {
    if (!reported_.insert(comp.position).second) return;
    std::vector<std::string_view> keys;
    for (const json* level : stack_)
      if (level->is_object())
        for (const auto& [key, value] : level->items()) keys.push_back(key);
    found.push_back({comp.position, comp.tag.name, is_section, did_you_mean(comp.tag.name, keys)});
  }

  std::vector<const json*> stack_;  // innermost scope last
  std::unordered_set<size_t> reported_;
  size_t visits_ = 0;
};

}  // namespace

Loc template_loc(const std::string& text, size_t offset, const std::shared_ptr<const std::string>& file) {
  int line = 1, col = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {file, line, col};
}

std::optional<TemplateTree> parse_template_tree(const std::string& text, const std::shared_ptr<const std::string>& file,
                                                Diags& diags) {
  mu::context<std::string> none;
  mu::context_internal<std::string> ctx{none};
  TemplateTree root;
  std::string error;
  mu::parser<std::string>{text, ctx, root, error};
  if (!error.empty()) {
    report_parse_error(text, error, root, file, diags);
    return std::nullopt;
  }
  if (const TemplateTree* p = first_partial(root)) {
    diags.error(template_loc(text, p->position, file),
                "partial " + quote(p->tag.name) + ": partials are not supported (each file is one template)");
    return std::nullopt;
  }
  return root;
}

const StrictContext::Data* StrictContext::get(const std::string& name) const {
  // The same rules as kainjow's context::get, innermost scope first.
  if (name.size() == 1 && name[0] == '.') return stack_.back();
  if (name.find('.') == std::string::npos) {
    for (size_t level = stack_.size(); level-- > 0;)  // innermost first
      if (const Data* value = stack_[level]->get(name)) return value;
    throw NameNotFound{};
  }
  const std::vector<std::string> parts = mu::split(name, '.');
  for (size_t level = stack_.size(); level-- > 0;) {
    const Data* value = stack_[level];
    for (const std::string& part : parts) {
      value = value->get(part);
      if (!value) break;
    }
    if (value) return value;
  }
  throw NameNotFound{};
}

std::vector<UnknownName> find_unknown_names(const TemplateTree& tree, const json& context) {
  Walk walk(context);
  walk.children(tree);
  return std::move(walk.found);
}

}  // namespace fabricctl

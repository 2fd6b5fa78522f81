// What makes templates strict: syntax errors located at file:line:col, and every name a template looks
// up that the render context does not have reported there too, instead of rendering as nothing. A
// typo in a site template ({{mtu_byte}}) must not quietly drop a line from a switch's configuration.
#pragma once

#include <kainjow/mustache.hpp>
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "util/diag.h"

namespace fabricctl {

/// A parsed template: kainjow's tree of text and tags, each with its byte offset in the template.
using TemplateTree = kainjow::mustache::component<std::string>;

/// Line and column (1-based; the column counts bytes) of byte `offset` of `text`.
Loc template_loc(const std::string& text, size_t offset, const std::shared_ptr<const std::string>& file);

/// Parses `text`. Reports a syntax error (unclosed tag, unclosed section, a closing tag that does not
/// match the open section, a closing tag with no open section, an invalid set-delimiter tag) or a
/// partial ({{>x}}: a template is one file) at file:line:col, and returns nullopt.
std::optional<TemplateTree> parse_template_tree(const std::string& text, const std::shared_ptr<const std::string>& file,
                                                Diags& diags);

/// Thrown by StrictContext when a name is found at no level of the context stack.
struct NameNotFound {};

/// kainjow's render context (the stack of section scopes) with the same lookup rules, except that a
/// name found at no level throws NameNotFound instead of rendering as nothing. Checking costs the
/// render nothing: kainjow's own context makes the same lookups through the same virtual call.
class StrictContext : public kainjow::mustache::basic_context<std::string> {
 public:
  using Data = kainjow::mustache::data;
  explicit StrictContext(const Data* root) { stack_.push_back(root); }
  void push(const Data* data) override { stack_.push_back(data); }
  void pop() override { stack_.pop_back(); }
  const Data* get(const std::string& name) const override;
  /// Partials are rejected when the template is parsed; none is ever looked up.
  const Data* get_partial(const std::string& /*name*/) const override { throw NameNotFound{}; }

 private:
  std::vector<const Data*> stack_;  // innermost scope last
};

/// A name the template looks up that the context does not have, where a render reaches it.
struct UnknownName {
  size_t offset = 0;  // of the tag, in the template text
  std::string name;
  bool section = false;  // {{#name}} or {{^name}}, not {{name}}
  std::string hint;      // "; did you mean ..." or ""
};

/// Walks `tree` as kainjow renders it over `context` (the JSON the render context was converted
/// from: null and false are false, an empty list is false, anything else is true) and returns each
/// name found at no level of the stack, once per tag, in render order. Names inside a section that is
/// false for this context are not looked up, as in the render. The walk visits at most a few million
/// tags (lists nested in lists multiply them); what it found by then is returned.
std::vector<UnknownName> find_unknown_names(const TemplateTree& tree, const nlohmann::json& context);

}  // namespace fabricctl

#include "platform/junos/netconf.h"

#include "util/diag.h"

namespace fabricctl::junos {
namespace {

constexpr std::string_view kEnd = "]]>]]>";
constexpr std::string_view kBase = "urn:ietf:params:xml:ns:netconf:base:1.0";
constexpr size_t kMaxText = 1024;  // an error message or a value fabricctl reads

/// Where element `name` starts (`<name` or `<prefix:name`, then `>`, `/` or a space) at or after `from`.
size_t find_element(std::string_view text, std::string_view name, size_t from = 0) {
  for (size_t at = text.find('<', from); at != std::string_view::npos; at = text.find('<', at + 1)) {
    size_t start = at + 1;
    size_t stop = start;
    // A tag name ends at the first of these; one over 64 bytes is no name fabricctl looks for (and a
    // run of `<` without names costs one step each).
    while (stop < text.size() && stop - start <= 64 && text[stop] != '>' && text[stop] != '/' && text[stop] != ' ' &&
           text[stop] != '\n' && text[stop] != '\t' && text[stop] != '\r' && text[stop] != '<')
      ++stop;
    std::string_view tag = text.substr(start, stop - start);
    if (const size_t colon = tag.find(':'); colon != std::string_view::npos) tag = tag.substr(colon + 1);
    if (tag == name && stop < text.size()) return at;
  }
  return std::string_view::npos;
}

/// The content of the element that starts at `at` ("" for <x/>), and where it ends.
std::pair<std::string_view, size_t> content(std::string_view text, size_t at, std::string_view name) {
  const size_t open_end = text.find('>', at);
  if (open_end == std::string_view::npos) return {{}, text.size()};
  if (text[open_end - 1] == '/') return {{}, open_end + 1};
  // The first closing tag of that name, any prefix.
  for (size_t close = text.find("</", open_end); close != std::string_view::npos; close = text.find("</", close + 2)) {
    const size_t gt = text.find('>', close);
    if (gt == std::string_view::npos) break;
    std::string_view tag = text.substr(close + 2, gt - close - 2);
    if (const size_t colon = tag.find(':'); colon != std::string_view::npos) tag = tag.substr(colon + 1);
    if (tag == name) return {text.substr(open_end + 1, close - open_end - 1), gt + 1};
  }
  return {text.substr(open_end + 1), text.size()};
}

/// XML character data as text: the five predefined entities and numeric references below 128; anything
/// else is kept as written. Trimmed, one printable line.
std::string unescaped(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size() && out.size() < kMaxText; ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    const size_t semi = s.find(';', i);
    const std::string_view ref = semi == std::string_view::npos ? std::string_view{} : s.substr(i + 1, semi - i - 1);
    char c = 0;
    if (ref == "lt") c = '<';
    else if (ref == "gt") c = '>';
    else if (ref == "amp") c = '&';
    else if (ref == "quot") c = '"';
    else if (ref == "apos") c = '\'';
    else if (ref.size() >= 2 && ref.size() <= 4 && ref[0] == '#' &&
             ref.find_first_not_of("0123456789", 1) == ref.npos && std::stoi(std::string(ref.substr(1))) < 128)
      c = static_cast<char>(std::stoi(std::string(ref.substr(1))));
    if (c == 0) {
      out += '&';
      continue;
    }
    out += c;
    i = semi;
  }
  const size_t first = out.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  out = out.substr(first, out.find_last_not_of(" \t\r\n") - first + 1);
  return printable(out, 300);
}

}  // namespace

std::string netconf_session(const std::vector<std::string>& rpcs) {
  std::string out = "<hello xmlns=\"" + std::string(kBase) + "\"><capabilities><capability>" + std::string(kBase) +
                    "</capability></capabilities></hello>" + std::string(kEnd) + "\n";
  int id = 0;
  for (const std::string& rpc : rpcs)
    out += "<rpc xmlns=\"" + std::string(kBase) + "\" message-id=\"" + std::to_string(++id) + "\">" + rpc + "</rpc>" +
           std::string(kEnd) + "\n";
  out += "<rpc xmlns=\"" + std::string(kBase) + "\" message-id=\"" + std::to_string(++id) +
         "\"><close-session/></rpc>" + std::string(kEnd) + "\n";
  return out;
}

std::vector<std::string_view> netconf_messages(std::string_view output) {
  std::vector<std::string_view> out;
  while (!output.empty()) {
    const size_t end = output.find(kEnd);
    std::string_view m = output.substr(0, end);
    const size_t first = m.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos) out.push_back(m.substr(first));
    if (end == std::string_view::npos) break;
    output.remove_prefix(end + kEnd.size());
  }
  return out;
}

std::vector<std::string> rpc_errors(std::string_view reply) {
  std::vector<std::string> out;
  size_t seen = 0;
  for (size_t at = find_element(reply, "rpc-error"); at != std::string_view::npos;
       at = find_element(reply, "rpc-error", at + 1)) {
    if (++seen > 20) break;  // enough to judge, and a bound on the scans a reply can ask for
    const auto [body, end] = content(reply, at, "rpc-error");
    const std::optional<std::string> severity = element_text(body, "error-severity");
    if (severity && *severity != "error") continue;
    std::string message = element_text(body, "error-message").value_or("an error without a message");
    if (const std::optional<std::string> bad = element_text(body, "bad-element"); bad && !bad->empty())
      message += " (bad element: " + *bad + ")";
    out.push_back(std::move(message));
    if (out.size() >= 20) break;  // enough to judge; the rest is more of the same
  }
  return out;
}

std::optional<std::string> element_text(std::string_view reply, std::string_view name) {
  const size_t at = find_element(reply, name);
  if (at == std::string_view::npos) return std::nullopt;
  return unescaped(content(reply, at, name).first);
}

bool has_element(std::string_view reply, std::string_view name) {
  return find_element(reply, name) != std::string_view::npos;
}

}  // namespace fabricctl::junos

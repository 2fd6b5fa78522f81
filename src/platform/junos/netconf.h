// NETCONF 1.0 as fabricctl speaks it to Junos: a whole session written at once to the standard input of
// `xml-mode netconf need-trailer` (the command Junos's own `netconf` SSH subsystem runs, and ncclient's
// Junos exec fallback), and the server's replies read from its output. Framing is RFC 6242's base 1.0:
// every message ends with `]]>]]>`. Replies are untrusted: read by element name only, bounded, their
// text unescaped and made printable.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabricctl::junos {

/// A session: fabricctl's <hello>, each of `rpcs` (the operation elements, without <rpc>) as an <rpc>
/// with message-id 1, 2, ..., then <close-session/>.
std::string netconf_session(const std::vector<std::string>& rpcs);

/// The server's messages, in order (its <hello> first), without their `]]>]]>`. Text after the last
/// delimiter (a session cut short) is the last message.
std::vector<std::string_view> netconf_messages(std::string_view output);

/// The error messages of a reply's <rpc-error> elements of severity `error` (warnings are not), each
/// one printable line with its <bad-element> when it names one: "syntax error (bad element: foo)".
std::vector<std::string> rpc_errors(std::string_view reply);

/// The text of the first element named `name` (any namespace prefix), unescaped and printable; nothing
/// when there is none.
std::optional<std::string> element_text(std::string_view reply, std::string_view name);

/// Whether the reply holds an element named `name` (<ok/>, <commit-success/>).
bool has_element(std::string_view reply, std::string_view name);

}  // namespace fabricctl::junos

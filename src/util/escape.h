// Text from devices, snapshots and users reaches terminals, XML, Prometheus, JSON and shell
// scripts. Each format is made safe in two composed steps:
//   1. clean_text: one control-character cleaner (invalid UTF-8 repaired, C0/DEL/C1 controls
//      dropped or turned into spaces, what the format can carry kept);
//   2. a per-format escaper for the characters that format gives meaning to (< & " \ ').
// The format functions below are those compositions; use them, not the steps, at call sites.
#pragma once

#include <string>
#include <string_view>

namespace fabricctl {

/// What clean_text keeps. C0 controls (U+0000-U+001F) not listed in `keep` or `to_space` are
/// dropped, and so are DEL (U+007F) and the C1 controls (U+0080-U+009F: some terminals read
/// U+009B as CSI, as dangerous as ESC).
struct CleanPolicy {
  std::string_view keep;            // C0 controls kept as they are, e.g. "\t\n\r" for XML
  std::string_view to_space;        // C0 controls that become one space each, e.g. "\t\n\r" for one line
  bool drop_noncharacters = false;  // drop U+FFFE and U+FFFF too (XML 1.0 forbids them)
};

/// Valid UTF-8 out, whatever comes in: each byte that does not start a valid UTF-8 sequence
/// becomes U+FFFD; then controls are kept, spaced or dropped as `policy` says.
std::string clean_text(std::string_view s, const CleanPolicy& policy);

/// One line of plain terminal text: tab, CR and LF become spaces, every other control is dropped.
std::string terminal_line(std::string_view s);

/// Text XML 1.0 can carry: the cleaning step of xml_text, for callers that compare or
/// de-duplicate names as they will appear (tab, LF, CR kept; U+FFFE/U+FFFF dropped).
std::string xml_clean(std::string_view s);

/// XML 1.0 element content: cleaned (tab, LF, CR kept; U+FFFE/U+FFFF dropped), & < > " ' escaped.
std::string xml_text(std::string_view s);
/// XML 1.0 attribute value (without the quotes): as xml_text, and tab, LF, CR written as character
/// references (&#9; &#10; &#13;) so that attribute-value normalization keeps them.
std::string xml_attribute(std::string_view s);

/// A Prometheus label value (text format 0.0.4, without the quotes): cleaned (LF kept), then
/// \ " LF escaped as \\ \" \n. Values that differ only in what cleaning removed become equal.
std::string prometheus_label_value(std::string_view s);

/// The body of a JSON string literal (without the quotes): invalid UTF-8 repaired to U+FFFD;
/// " \ and every control character escaped (\n, \u001b). Lossless for valid text: JSON can
/// carry controls escaped, so nothing is dropped.
std::string json_string_body(std::string_view s);

/// One word for POSIX sh: always in single quotes; an embedded ' becomes '\''. Not cleaned: inside
/// single quotes every byte is literal, and the command must receive exactly the value (names that
/// reach apply scripts are checked against strict character sets before they get here).
std::string shell_quote(std::string_view s);

}  // namespace fabricctl

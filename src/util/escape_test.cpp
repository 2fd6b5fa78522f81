#include "util/escape.h"

#include <doctest/doctest.h>

using namespace fabricctl;

TEST_CASE("clean_text: invalid UTF-8 repaired, controls kept, spaced or dropped as asked") {
  CHECK(clean_text("plain text", {}) == "plain text");
  CHECK(clean_text("a\xff"
                   "b",
                   {}) ==
        "a\xef\xbf\xbd"
        "b");  // stray byte -> U+FFFD
  CHECK(clean_text("a\xed\xa0\x80"
                   "b",
                   {}) ==
        "a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
        "b");  // surrogate: 3 bad bytes
  CHECK(clean_text("a\x1b[2J\x07\x7f"
                   "b",
                   {}) == "a[2Jb");  // ESC, BEL, DEL dropped
  CHECK(clean_text("a\xc2\x9b"
                   "31m",
                   {}) == "a31m");                                                  // C1 CSI dropped
  CHECK(clean_text("caf\xc3\xa9 \xe2\x86\x94", {}) == "caf\xc3\xa9 \xe2\x86\x94");  // other UTF-8 kept
  CHECK(clean_text("a\tb\nc\rd", {"\n", "\t", false}) == "a b\ncd");
  CHECK(clean_text("a\xef\xbf\xbe"
                   "b\xef\xbf\xbf",
                   {"", "", true}) == "ab");
  CHECK(clean_text("a\xef\xbf\xbe", {}) == "a\xef\xbf\xbe");
}

TEST_CASE("terminal_line: one line, nothing that can drive a terminal") {
  CHECK(terminal_line("evil\x1b[2J\r\nname\t\x07") == "evil[2J  name ");
  CHECK(terminal_line("x\xc2\x9b"
                      "31m") == "x31m");
  CHECK(terminal_line("x\x9b"
                      "31m") ==
        "x\xef\xbf\xbd"
        "31m");  // raw C1 byte: CSI on 8-bit terminals
}

TEST_CASE("xml_text and xml_attribute") {
  CHECK(xml_text(R"(a<b>&"c'd)") == "a&lt;b&gt;&amp;&quot;c&apos;d");
  CHECK(xml_text("line1\nline2\ttab\r") == "line1\nline2\ttab&#13;");
  CHECK(xml_attribute("line1\nline2\ttab") == "line1&#10;line2&#9;tab");
  CHECK(xml_text("sp\xffine\x1b[0m\x7f") == "sp\xef\xbf\xbdine[0m");
  CHECK(xml_text("bad\x0b\x0c x\xef\xbf\xbe") == "bad x");
  CHECK(xml_clean("a\x01<b") == "a<b");
}

TEST_CASE("prometheus_label_value") {
  CHECK(prometheus_label_value("le\"af\\9\n") == "le\\\"af\\\\9\\n");
  CHECK(prometheus_label_value("sp\xffine\x01") == "sp\xef\xbf\xbdine");
  CHECK(prometheus_label_value("a\xc2\x85"
                               "b\tc") == "abc");  // C1 NEL and tab dropped
}

TEST_CASE("json_string_body") {
  CHECK(json_string_body(R"(a"b\c)") == R"(a\"b\\c)");
  CHECK(json_string_body("a\nb\x1b") == "a\\nb\\u001b");
  CHECK(json_string_body("a\xff"
                         "b") ==
        "a\xef\xbf\xbd"
        "b");
  CHECK(json_string_body("caf\xc3\xa9") == "caf\xc3\xa9");
}

TEST_CASE("shell_quote: single quotes, nothing interpreted") {
  CHECK(shell_quote("ens1f0np0") == "'ens1f0np0'");
  CHECK(shell_quote("a'b") == "'a'\\''b'");
  CHECK(shell_quote("$(reboot)") == "'$(reboot)'");
  CHECK(shell_quote("") == "''");
}

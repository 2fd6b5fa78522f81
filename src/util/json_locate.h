// Locating what is wrong with a JSON text that the fast parser (simdjson, util/json_document.h)
// rejected. simdjson says what kind of error it met but not where; this second, slower pass with
// nlohmann's SAX parser finds the first problem in document order and says where it is. It only runs
// on the error path, so a bad file costs one more parse and a good one costs nothing.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace fabricctl::jsonr {

/// The first problem of `text` in document order, as one lowercase printable line, or "" when
/// there is none:
///   invalid JSON    "invalid JSON at line L, column C (byte offset O): <what the parser expected>"
///                   (the parser's echo of the input is dropped: it can be long and hostile)
///   too deep        "<path>: nesting deeper than N levels"
///   duplicate key   "<path>: duplicate key"
///   a big integer   "<path>: "<digits>" is an integer beyond 64 bits (...)"
///                   (nlohmann reads it as a double; simdjson, and so the reader, refuses it)
///   a NUL byte      "invalid JSON at ...: a NUL byte after the document; expected end of input"
///                   (nlohmann stops reading at a NUL byte; simdjson refuses it)
/// With `duplicates` false, a repeated key is not a problem here (JsonLimits::equal_duplicates, whose
/// check needs the values, is made on the parsed document).
std::string locate_json_error(std::string_view text, size_t max_depth, bool duplicates = true);

}  // namespace fabricctl::jsonr

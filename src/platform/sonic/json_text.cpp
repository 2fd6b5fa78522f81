#include "platform/sonic/json_text.h"

#include <nlohmann/json.hpp>

namespace fabricctl::sonic {

std::string json_escape(std::string_view s) {
  // nlohmann's serializer already knows every JSON escape; strip the quotes it adds.
  const std::string quoted =
      nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return quoted.substr(1, quoted.size() - 2);
}

std::string json_pointer_token(std::string_view s) {
  std::string token;
  token.reserve(s.size());
  for (char ch : s) {
    // RFC 6901 section 3. One pass over the input, so an escape is never escaped again.
    if (ch == '~')
      token += "~0";
    else if (ch == '/')
      token += "~1";
    else
      token += ch;
  }
  return json_escape(token);
}

}  // namespace fabricctl::sonic

#include "platform/eos/config_lines.h"

#include "platform/cli_text.h"

#include <algorithm>

namespace fabricctl::eos {
namespace {

bool block_header(const std::vector<std::string_view>& w) {
  return (w.size() == 2 && w[0] == "interface") || (w.size() == 3 && w[0] == "qos" && w[1] == "profile");
}

}  // namespace

bool queue_header(const std::vector<std::string_view>& w) {
  return w.size() == 2 && (w[0] == "tx-queue" || w[0] == "uc-tx-queue");
}

Expected<bool> walk_config(std::string_view text, const std::function<void(const ConfigLine&)>& visit) {
  if (text.size() > kMaxConfigBytes)
    return unexpected("running-config of " + std::to_string(text.size()) + " bytes is more than the limit of " +
                      std::to_string(kMaxConfigBytes));
  if (text.find('\0') != std::string_view::npos) return unexpected("running-config holds a NUL byte");
  bool in_block = false;     // the last column-0 line opened an interface or qos profile block
  Scope sub = Scope::block;  // what indent-6 lines of the current block are in
  size_t number = 0;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (line.size() > kMaxLineBytes)
      return unexpected("running-config line " + std::to_string(number) + ": longer than " +
                        std::to_string(kMaxLineBytes) + " bytes");
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t indent = std::min(line.find_first_not_of(' '), line.size());
    const std::string_view content = line.substr(indent);
    if (content.empty()) continue;
    ConfigLine l{number, content, words_of(content), Scope::elsewhere, content.front() == '!'};
    if (indent == 0) {
      l.scope = Scope::top;
      if (!l.separator || content.rfind("!!", 0) != 0) in_block = !l.separator && block_header(l.words);
      sub = Scope::block;
    } else if (in_block && indent == 3) {
      l.scope = Scope::block;
      if (l.separator && content.rfind("!!", 0) != 0) sub = Scope::block;
      else if (!l.separator)
        sub = queue_header(l.words) ? Scope::queue : l.words[0] == "mc-tx-queue" ? Scope::elsewhere : Scope::block;
    } else if (in_block && indent == 6) {
      l.scope = sub == Scope::queue ? Scope::queue : Scope::elsewhere;
    }
    visit(l);
  }
  return true;
}

}  // namespace fabricctl::eos

// For the collectors' tests: the command of a platform's collection that writes one raw file.
#pragma once

#include <doctest/doctest.h>

#include <string_view>

#include "platform/platform.h"

namespace fabricctl::test {

inline const CollectCommand& command(const Collector& c, std::string_view file) {
  for (const CollectCommand& cmd : c.commands)
    if (cmd.file == file) return cmd;
  FAIL("no command writes " << file);
  return c.commands.front();
}

}  // namespace fabricctl::test

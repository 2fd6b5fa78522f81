#include "util/json_path.h"

#include <doctest/doctest.h>

#include <string>

using namespace fabricctl::jsonr;

TEST_CASE("paths quote keys that could inject text") {
  CHECK(child("", "ports").str() == "ports");
  CHECK(child("ports", "Ethernet1/1").str() == "ports.Ethernet1/1");
  CHECK(child("ports", "a b").str() == R"(ports."a b")");
  CHECK(child("ports", "\x1b[2J").str() == R"(ports."\x1b[2J")");
  CHECK(child("ports", "").str() == R"(ports."")");
  CHECK(child("ports", std::string(63, 'a')).str() == "ports." + std::string(63, 'a'));
  CHECK(child("ports", std::string(64, 'a')).str() == "ports.\"" + std::string(64, 'a') + "\"");
  CHECK(element("ets", 3).str() == "ets[3]");
  CHECK(Path().str().empty());
}

TEST_CASE("a path is text only when asked: steps refer to their parents") {
  // As a reader descends: each level's Path lives in its own scope and names its parent.
  const Path root;
  const Path ports = child(root, "ports");
  const std::string name = "Ethernet0";
  const Path port = child(ports, name);
  const Path ets = child(port, "ets");
  const Path entry = element(ets, 1);
  CHECK(child(entry, "tc").str() == "ports.Ethernet0.ets[1].tc");
  CHECK(element(element(root, 0), 2).str() == "[0][2]");
  // The same steps on text, as json_locate.cpp builds them.
  CHECK(child_text(element_text(child_text("", "ports"), 4), "a b") == R"(ports[4]."a b")");
  // A path given as text is used as it is.
  const std::string text = "ports.Ethernet0";
  CHECK(child(text, "mtu").str() == "ports.Ethernet0.mtu");
  CHECK(child(std::string_view("x"), "y").str() == "x.y");
}

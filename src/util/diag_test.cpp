#include <doctest/doctest.h>

#include "util/diag.h"

using namespace fabricctl;

namespace {

Loc at(const char* file, int line, int col = 1) { return {std::make_shared<const std::string>(file), line, col}; }

}  // namespace

TEST_CASE("Diags: read errors, then structure, then rules; each by file, line and column") {
  Diags d;
  d.error(at("a.yaml", 1), "a rule");
  d.error(at("b.yaml", 9), "wrong type", DiagClass::structure);
  d.error(at("z.yaml", 3), "invalid YAML: x", DiagClass::read);
  d.error(at("a.yaml", 2), "unknown key", DiagClass::structure);
  d.warning(at("a.yaml", 1), "a warning");
  CHECK(d.str() ==
        "z.yaml:3:1: invalid YAML: x\n"
        "a.yaml:2:1: unknown key\n"
        "b.yaml:9:1: wrong type\n"
        "a.yaml:1:1: a rule\n"
        "a.yaml:1:1: warning: a warning\n");
  CHECK(d.count(DiagSeverity::error) == 4);
  CHECK(d.count(DiagSeverity::warning) == 1);
}

TEST_CASE("Diags: a consequence is dropped when its cause failed, kept otherwise") {
  Diags d;
  d.error(at("links.yaml", 4), "unknown device \"gpu01\"").because("inventory");
  d.error(at("links.yaml", 5), "device \"leaf1\" has no port \"Ethernet0\"").because("device:leaf1");
  CHECK(d.count(DiagSeverity::error) == 2);  // no cause failed yet: both are errors of their own
  d.fail("inventory");
  CHECK(d.str() == "links.yaml:5:1: device \"leaf1\" has no port \"Ethernet0\"\n");
  Diags worker;  // failures collected on another thread count too
  worker.fail("device:leaf1");
  d.append(std::move(worker));
  CHECK(d.str().empty());
  CHECK(d.has_errors());  // the run still fails: the causes are errors somewhere
}

TEST_CASE("Diags: one message about many subjects is one line at the first, naming them") {
  Diags d;
  for (const char* dev : {"leaf10", "leaf2", "leaf1", "leaf3", "leaf4"})
    d.error(at("inv.yaml", dev[4] == '1' && dev[5] ? 10 : 20 + dev[4] - '0', 9), "profile: unknown profile \"x\"")
        .about("device", dev)
        .suggest("; did you mean \"y\"?");
  d.error(at("inv.yaml", 5), "another");
  CHECK(d.str() ==
        "inv.yaml:5:1: another\n"
        "inv.yaml:10:9: profile: unknown profile \"x\" (devices leaf1, leaf2 and 3 more); did you mean \"y\"?\n");
  CHECK(d.count(DiagSeverity::error) == 2);

  Diags two;
  two.error(at("inv.yaml", 3), "m").about("device", "b");
  two.error(at("inv.yaml", 2), "m").about("device", "a");
  two.error(at("inv.yaml", 2), "m").about("device", "a");  // the same twice
  CHECK(two.str() == "inv.yaml:2:1: m (devices a and b)\n");

  Diags one;
  one.error(at("inv.yaml", 3), "m").about("device", "a");
  CHECK(one.str() == "inv.yaml:3:1: m\n");  // one subject: the location says which
}

TEST_CASE("Diags: subjects go where the message places them") {
  Diags d;
  const std::string msg = "mtu: 9300 is out of range for sonic " + std::string(kSubjects) + " (1500-9216)";
  d.error(at("p.yaml", 6, 11), msg).about("device", "s1");
  CHECK(d.str() == "p.yaml:6:11: mtu: 9300 is out of range for sonic device \"s1\" (1500-9216)\n");
  d.error(at("p.yaml", 6, 11), msg).about("device", "s2");
  d.error(at("p.yaml", 6, 11), msg).about("device", "s3");
  CHECK(d.str() == "p.yaml:6:11: mtu: 9300 is out of range for sonic devices s1, s2 and s3 (1500-9216)\n");
  // Messages that differ are not folded, and severities are kept apart.
  d.warning(at("p.yaml", 6, 11), msg).about("device", "s4");
  CHECK(d.count(DiagSeverity::error) == 1);
  CHECK(d.count(DiagSeverity::warning) == 1);
}

// Profile layers: a child removes an inherited map entry with null, a null that removes nothing is
// a located error, and a DSCP left in a lossless priority beside the RoCE DSCP is a warning.
#include <doctest/doctest.h>

#include "model/intent.h"
#include "model/profile_set.h"
#include "source_dir.h"

using namespace fabricctl;

namespace {

struct LoadedProfiles {
  Diags diags;
  ProfileSet set;
};

// The shipped roce-lossless and roce-nvidia, then each text as profiles/<name>.yaml.
LoadedProfiles load_profile_texts(const std::vector<std::pair<std::string, std::string>>& profiles) {
  LoadedProfiles l;
  std::vector<YamlDoc> docs;
  for (const char* shipped : {"roce-lossless", "roce-nvidia"}) {
    const std::string name = std::string("profiles/") + shipped + ".yaml";
    auto doc = load_yaml(test::kSourceDir + "/" + name, name, l.diags);
    REQUIRE(doc);
    docs.push_back(*doc);
  }
  for (const auto& [name, text] : profiles) {
    auto doc = parse_yaml(text, "profiles/" + name + ".yaml", l.diags);
    REQUIRE(doc);
    docs.push_back(*doc);
  }
  l.set = profiles_from_docs(docs, l.diags);
  return l;
}

QosIntent qos(const LoadedProfiles& l, const std::string& name) {
  Diags d;
  const auto in = make_intent(l.set.merged.at(name), {}, name, d);
  REQUIRE(in);
  return in->qos;
}

}  // namespace

TEST_CASE("profile: a child removes an inherited DSCP entry with null, ~ or nothing") {
  for (const std::string null : {"null", "~", "", "Null"}) {
    CAPTURE(null);
    const LoadedProfiles l = load_profile_texts(
        {{"moved", "extends: roce-lossless\nroce: {dscp: 24}\ndscp_to_priority:\n  26: " + null + "\n  24: 3\n"}});
    CHECK(l.diags.str() == "");
    const ProfileLayer& m = l.set.merged.at("moved");
    CHECK(m.dscp_to_priority.entries.count(26) == 0);
    CHECK(m.dscp_to_priority.removed.empty());  // applied, not carried on
    const QosIntent q = qos(l, "moved");
    CHECK(q.dscp_to_priority[26] == 0);  // back to the default priority
    CHECK(q.dscp_to_priority[24] == 3);
    CHECK(q.dscp_to_priority[48] == 6);  // the other inherited entry stays
  }
  // A quoted "null" is a string, not a removal.
  const LoadedProfiles quoted =
      load_profile_texts({{"q", "extends: roce-lossless\ndscp_to_priority: {26: \"null\"}\n"}});
  CHECK(quoted.diags.str() == "profiles/q.yaml:2:24: dscp_to_priority.26: expected an integer, got \"null\"\n");
}

TEST_CASE("profile: ets.tc, ecn.tc and dcqcn.rp entries are removed the same way") {
  // CNPs move from TC 6 to TC 7: without removing ets.tc.6 the inherited entry is an unused TC.
  const std::string ets = "extends: roce-lossless\nets:\n  priority_to_tc: [0, 0, 0, 3, 0, 0, 7, 0]\n  tc: {7: strict";
  const LoadedProfiles kept = load_profile_texts({{"tc7", ets + "}\n"}});
  CHECK(kept.diags.str() ==
        "profiles/roce-lossless.yaml:22:8: ets.tc.6: traffic class 6 is not used by any priority "
        "in ets.priority_to_tc\n");
  const LoadedProfiles removed = load_profile_texts({{"tc7", ets + ", 6: null}\n"}});
  CHECK(removed.diags.str() == "");
  const QosIntent t = qos(removed, "tc7");
  CHECK(t.tc[7].strict);
  CHECK_FALSE(t.tc[6].used);

  // roce-nvidia marks best-effort TC 0 too; a child that does not want that removes the queue.
  const LoadedProfiles ecn = load_profile_texts({{"no-tc0", "extends: roce-nvidia\necn:\n  tc:\n    0: ~\n"}});
  CHECK(ecn.diags.str() == "");
  const QosIntent e = qos(ecn, "no-tc0");
  REQUIRE(e.ecn.size() == 1);
  CHECK(e.ecn[0].tc == 3);
  CHECK(e.ecn[0].probability_pct == 100);

  // A DCQCN parameter goes back to the firmware's value: not written at all.
  const LoadedProfiles rp =
      load_profile_texts({{"tuned", "extends: roce-lossless\ndcqcn: {rp: {rpg_gd: 9, rpg_ai_rate: 10}}\n"},
                          {"default-gd", "extends: tuned\ndcqcn: {rp: {rpg_gd: null}}\n"}});
  CHECK(rp.diags.str() == "");
  const QosIntent r = qos(rp, "default-gd");
  REQUIRE(r.dcqcn.rp.size() == 1);
  CHECK(r.dcqcn.rp[0].first == "rpg_ai_rate");
  CHECK(qos(rp, "tuned").dcqcn.rp.size() == 2);  // the parent keeps both
}

TEST_CASE("profile: a null that removes nothing is an error at its key, and the profile is broken") {
  // No parent at all: the null can never mean anything.
  const LoadedProfiles root = load_profile_texts({{"root", "dscp_to_priority: {26: null}\n"}});
  CHECK(root.diags.str().find("profiles/root.yaml:1:20: dscp_to_priority: null for DSCP \"26\" removes nothing: "
                              "profile \"root\" extends no profile\n") != std::string::npos);
  CHECK(root.set.broken.count("root") == 1);

  // A parent that does not set the key: a mistyped DSCP would leave the entry meant in force.
  const LoadedProfiles typo =
      load_profile_texts({{"typo", "extends: roce-lossless\nroce: {dscp: 24}\ndscp_to_priority: {62: null}\n"},
                          {"grandchild", "extends: typo\n"}});
  CHECK(typo.diags.str() ==
        "profiles/typo.yaml:3:20: dscp_to_priority: null for DSCP \"62\" removes nothing: its parent profile "
        "\"roce-lossless\" does not set it\n"
        "profiles/roce-lossless.yaml:11:7: warning: dscp_to_priority.26: DSCP 26 maps to lossless priority 3, but "
        "the RoCE DSCP is 24; to make it lossy, delete the entry, or write \"26: null\" where it is inherited\n");
  CHECK(typo.set.broken.count("typo") == 1);
  CHECK(typo.set.broken.count("grandchild") == 1);  // reported once, at its source

  // Every map, with its own words; a key removed once cannot be removed again further down.
  const LoadedProfiles maps = load_profile_texts({{"all",
                                                   "extends: roce-lossless\n"
                                                   "ets: {tc: {5: null}}\n"
                                                   "ecn: {tc: {0: null}}\n"
                                                   "dcqcn: {rp: {rpg_gd: null}}\n"},
                                                  {"twice", "extends: roce-nvidia\necn: {tc: {0: null}}\n"},
                                                  {"again", "extends: twice\necn: {tc: {0: null}}\n"}});
  CHECK(maps.diags.str() ==
        "profiles/again.yaml:2:12: ecn.tc: null for traffic class \"0\" removes nothing: its parent profile "
        "\"twice\" does not set it\n"
        "profiles/all.yaml:2:12: ets.tc: null for traffic class \"5\" removes nothing: its parent profile "
        "\"roce-lossless\" does not set it\n"
        "profiles/all.yaml:3:12: ecn.tc: null for traffic class \"0\" removes nothing: its parent profile "
        "\"roce-lossless\" does not set it\n"
        "profiles/all.yaml:4:14: dcqcn.rp: null for \"rpg_gd\" removes nothing: its parent profile "
        "\"roce-lossless\" does not set it\n");
  CHECK(maps.set.broken.count("twice") == 0);
}

TEST_CASE("profile: a DSCP in a lossless priority that is not the RoCE DSCP is a warning at the entry") {
  // The case found by a user: the child moves RoCE to DSCP 24 and inherits 26 -> 3.
  const LoadedProfiles moved = load_profile_texts({{"moved", "extends: roce-lossless\nroce: {dscp: 24}\n"}});
  CHECK(moved.diags.str() ==
        "profiles/roce-lossless.yaml:11:7: warning: dscp_to_priority.26: DSCP 26 maps to lossless priority 3, but "
        "the RoCE DSCP is 24; to make it lossy, delete the entry, or write \"26: null\" where it is inherited\n");
  CHECK_FALSE(moved.diags.has_errors());
  CHECK(moved.set.broken.count("moved") == 0);  // a warning does not fail the profile

  // Written in the child itself, it points there; two DSCPs give two warnings.
  const LoadedProfiles own =
      load_profile_texts({{"two", "extends: roce-lossless\ndscp_to_priority: {10: 3, 12: 3, 14: 1}\n"}});
  CHECK(own.diags.str() ==
        "profiles/two.yaml:2:24: warning: dscp_to_priority.10: DSCP 10 maps to lossless priority 3, but the RoCE "
        "DSCP is 26; to make it lossy, delete the entry, or write \"10: null\" where it is inherited\n"
        "profiles/two.yaml:2:31: warning: dscp_to_priority.12: DSCP 12 maps to lossless priority 3, but the RoCE "
        "DSCP is 26; to make it lossy, delete the entry, or write \"12: null\" where it is inherited\n");

  // With PCP trust the DSCP map classifies nothing.
  const LoadedProfiles pcp =
      load_profile_texts({{"pcp", "extends: roce-lossless\ntrust: pcp\ndscp_to_priority: {10: 3}\n"}});
  CHECK(pcp.diags.str() == "");

  // The shipped profiles keep only RoCE in the lossless priority.
  const LoadedProfiles shipped = load_profile_texts({});
  CHECK(shipped.diags.str() == "");
}

TEST_CASE("profile: health limits default, a child overrides one, and a bad one is located") {
  const LoadedProfiles l =
      load_profile_texts({{"lax", "extends: roce-lossless\nhealth: {pauses_per_s: 5000}\n"},
                          {"bad", "extends: roce-lossless\nhealth:\n  pause_time_percent: 150\n  speed: 3\n"}});
  const QosIntent defaults = qos(l, "roce-lossless");
  CHECK(defaults.health.pauses_per_s == 1000);
  CHECK(defaults.health.pause_time_percent == 10);
  CHECK(defaults.health.retransmissions_per_s == 10);
  CHECK(defaults.health.baseline_factor == 10);
  const QosIntent lax = qos(l, "lax");
  CHECK(lax.health.pauses_per_s == 5000);
  CHECK(lax.health.retransmissions_per_s == 10);  // inherited
  const std::string diags = l.diags.str();
  CHECK(diags.find("profiles/bad.yaml:3:23: health.pause_time_percent: \"150\" is out of range 1-100\n") !=
        std::string::npos);
  CHECK(diags.find("profiles/bad.yaml:4:3: unknown key \"speed\" in health (expected one of: pauses_per_s, "
                   "pause_time_percent, retransmissions_per_s, baseline_factor)\n") != std::string::npos);
}

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "report/report.h"
#include "report/test_support.h"

using namespace fabricctl;
using fabricctl::report_test::result;
using fabricctl::report_test::sample;
using nlohmann::json;

TEST_CASE("json: exact bytes, keys in schema order") {
  VerifyReport r;
  r.results.push_back(result("link.mtu.mismatch", Status::fail, Severity::error, Endpoint{"host1", "eth0"},
                             Endpoint{"leaf1", "Ethernet0"}, "both ends 9000", "a=9000, b=1500", "MTU differs",
                             "set mtu 9100 on leaf1:Ethernet0"));
  r.results.push_back(result("device.reachable", Status::pass, Severity::error, Endpoint{"leaf1", ""}, std::nullopt, "",
                             "", "reachable", ""));
  r.devices_checked = 2;
  r.links_checked = 1;
  r.unreadable["leaf2"] = "timeout";
  CHECK(report_json(r) == R"({
  "schema": "fabricctl.verify/v1",
  "summary": {
    "devices_checked": 2,
    "links_checked": 1,
    "results": {
      "pass": 1,
      "fail": 1,
      "missing": 0,
      "consequence": 0,
      "not_applicable": 0
    },
    "incomplete": 0,
    "findings": {
      "error": 1,
      "warning": 0,
      "info": 0
    },
    "hidden": {
      "min_severity": "info",
      "warning": 0,
      "info": 0
    },
    "unreadable": {
      "leaf2": "timeout"
    }
  },
  "findings": [
    {
      "check": "link.mtu.mismatch",
      "severity": "error",
      "status": "fail",
      "object": "host1:eth0~leaf1:Ethernet0",
      "a": {
        "device": "host1",
        "port": "eth0"
      },
      "b": {
        "device": "leaf1",
        "port": "Ethernet0"
      },
      "expected": "both ends 9000",
      "observed": "a=9000, b=1500",
      "message": "MTU differs",
      "hint": "set mtu 9100 on leaf1:Ethernet0",
      "cause": null,
      "link": null
    }
  ]
}
)");
}

TEST_CASE("json: summary counts, non-pass results in input order, strings round-trip") {
  const VerifyReport r = sample();
  const json doc = json::parse(report_json(r));
  CHECK(doc["schema"] == "fabricctl.verify/v1");
  const json& s = doc["summary"];
  CHECK(s["devices_checked"] == 4);
  CHECK(s["links_checked"] == 3);
  CHECK(s["results"] == json{{"pass", 3}, {"fail", 4}, {"missing", 2}, {"consequence", 0}, {"not_applicable", 0}});
  CHECK(s["findings"] == json{{"error", 1}, {"warning", 1}, {"info", 2}});
  CHECK(s["unreadable"] == json{{"host9", "timeout after 30 s"},
                                {"leaf2", "ssh: connection refused by \"10.0.0.2\" <port 22> & retried"}});

  // Every fail and missing result, in input order; passes are only counted.
  const json& f = doc["findings"];
  REQUIRE(f.size() == 6);
  std::vector<std::string> seen;
  for (const json& x : f)
    seen.push_back(x["check"].get<std::string>() + " " + x["status"].get<std::string>() + " " +
                   x["object"].get<std::string>());
  CHECK(seen == std::vector<std::string>{
                    "port.pause.delta fail leaf1:Ethernet8",
                    "port.pause.delta fail leaf1:Ethernet8",
                    "link.pfc.mismatch fail host1:eth0~leaf1:Ethernet0",
                    "link.pfc.mismatch missing host3:eth0~leaf2:Ethernet0",
                    "port.ecn.missing fail leaf1:Ethernet8",
                    "port.ecn.missing missing leaf2:Ethernet0",
                });
  CHECK(f[2]["b"] == json{{"device", "leaf1"}, {"port", "Ethernet0"}});
  CHECK(f[0]["b"].is_null());
  CHECK(f[3]["severity"] == "error");
  CHECK(f[3]["message"] == "no state from leaf2: ssh: connection refused");
  // The nasty message survives exactly: quotes, <, &, newline.
  CHECK(f[4]["message"] == "ECN \"min\" > 'max' on queue 3 & <lossless>\nsecond line");
  CHECK(f[4]["hint"] == "set min_threshold below max_threshold in the \"roce\" profile");
  for (const json& x : f) CHECK(x.size() == 12);  // every finding has every field
  const std::string text = report_json(r);
  CHECK(text.find("\"message\": \"ECN \\\"min\\\" > 'max' on queue 3 & <lossless>\\nsecond line\"") !=
        std::string::npos);
}

TEST_CASE("json: field order of a finding is the documented one") {
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(report_json(sample()));
  std::vector<std::string> top;
  for (const auto& [k, v] : doc.items()) top.push_back(k);
  CHECK(top == std::vector<std::string>{"schema", "summary", "findings"});
  std::vector<std::string> keys;
  for (const auto& [k, v] : doc["findings"][0].items()) keys.push_back(k);
  CHECK(keys == std::vector<std::string>{"check", "severity", "status", "object", "a", "b", "expected", "observed",
                                         "message", "hint", "cause", "link"});
}

TEST_CASE("json: a consequence names its cause and its link, and is counted apart from failures") {
  VerifyReport r;
  Result c = result("link.pfc.mismatch", Status::consequence, Severity::error, Endpoint{"host1", "eth0"},
                    Endpoint{"leaf1", "Ethernet0"}, "lossless 3 on both ends", "host1:eth0=3, leaf1:Ethernet0=none",
                    "PFC disagrees", "");
  c.cause = "port.pfc.drift leaf1:Ethernet0";
  c.link = LinkRef{{"host1", "eth0"}, {"leaf1", "Ethernet0"}};
  r.results.push_back(c);
  const json doc = json::parse(report_json(r));
  CHECK(doc["summary"]["results"]["consequence"] == 1);
  CHECK(doc["summary"]["results"]["fail"] == 0);
  CHECK(doc["summary"]["findings"]["error"] == 0);
  const json& f = doc["findings"][0];
  CHECK(f["status"] == "consequence");
  CHECK(f["cause"] == "port.pfc.drift leaf1:Ethernet0");
  CHECK(f["link"] ==
        json{{"a", {{"device", "host1"}, {"port", "eth0"}}}, {"b", {{"device", "leaf1"}, {"port", "Ethernet0"}}}});
}

TEST_CASE("json: invalid UTF-8 from a device is replaced, not fatal, and control characters escaped") {
  VerifyReport r;
  r.results.push_back(result("port.lldp.neighbor", Status::fail, Severity::warning, Endpoint{"leaf1", "Ethernet0"},
                             std::nullopt, "spine1", "sp\xffine\x01", "unexpected neighbour", ""));
  r.unreadable
      ["le\xc3"
       "af9"] = "bad \xed\xa0\x80 bytes";
  std::string text;
  REQUIRE_NOTHROW(text = report_json(r));
  const json doc = json::parse(text);
  CHECK(doc["findings"][0]["observed"] == "sp\xef\xbf\xbdine\x01");
  CHECK(text.find("\\u0001") != std::string::npos);
  CHECK(doc["summary"]["unreadable"].begin().key() ==
        "le\xef\xbf\xbd"
        "af9");
}

TEST_CASE("json: an empty report is valid and complete") {
  const json doc = json::parse(report_json(VerifyReport{}));
  CHECK(doc["findings"] == json::array());
  CHECK(doc["summary"]["unreadable"] == json::object());
  CHECK(doc["summary"]["results"]["pass"] == 0);
}

#include "platform/junos/show_json.h"

#include <array>
#include <charconv>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "platform/counter_json.h"
#include "platform/neighbor_text.h"
#include "util/diag.h"
#include "util/json_reader.h"
#include "util/names.h"

namespace fabricctl::junos {
namespace {

using jsonr::Path;
using jsonr::Value;

// `show interfaces extensive` of a 256-port switch is a few MB (each port carries its queue, MAC and
// PFC tables). Junos's mapping nests two JSON levels per XML element: the real vQFX output is 18
// levels deep. Some elements come twice in one object (docs/reference-junos.md, section d).
const jsonr::JsonLimits kLimits{size_t{64} << 20, 32, true};
constexpr size_t kMaxRows = 100000;

constexpr std::string_view kJunosPortRule =
    "et-, xe- or ge- and FPC/PIC/PORT of 1-2, 1-2 and 1-3 digits, with an optional :CHANNEL of 1-2 digits";

bool digit(char c) { return c >= '0' && c <= '9'; }

/// Reads 1 to `max` decimal digits of `s` from `i`, moving `i` past the digits.
bool digits(std::string_view s, size_t& i, size_t max) {
  const size_t from = i;
  while (i < s.size() && i - from <= max && digit(s[i])) ++i;
  return i > from && i - from <= max;
}

/// A name of a front-panel Ethernet port's kind (docs/reference-junos.md, "Interface names").
bool port_prefix(std::string_view s) { return s.starts_with("et-") || s.starts_with("xe-") || s.starts_with("ge-"); }

/// A front-panel Ethernet port: (et|xe|ge)-F/P/N, 1-2, 1-2 and 1-3 digits, and an optional :C of 1-2
/// digits (a breakout channel: et-0/0/0:1). Never a logical unit (et-0/0/0.0).
bool port_name(std::string_view s) {
  if (!port_prefix(s)) return false;
  size_t i = 3;
  if (!digits(s, i, 2) || i == s.size() || s[i++] != '/') return false;
  if (!digits(s, i, 2) || i == s.size() || s[i++] != '/') return false;
  if (!digits(s, i, 3)) return false;
  if (i == s.size()) return true;
  return s[i++] == ':' && digits(s, i, 2) && i == s.size();
}

/// A CLI prompt line of the form {word:digits}: `{master:0}`, `{backup:1}`, `{linecard:2}`.
bool prompt(std::string_view line) {
  if (line.size() < 5 || line.front() != '{' || line.back() != '}') return false;
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon < 2 || colon > 33) return false;
  for (size_t i = 1; i < colon; ++i)
    if (!((line[i] >= 'a' && line[i] <= 'z') || (line[i] >= 'A' && line[i] <= 'Z'))) return false;
  size_t i = colon + 1;
  return digits(line, i, 4) && i == line.size() - 1;
}

/// `text` without the CLI prompt line Junos prints after the document on a virtual-chassis member
/// (`\n\n{master:0}\n`, tests/fixtures/junos/show-interfaces-display-json.vqfx-17.4R1.txt). Only a last
/// line of that form is cut, with the line breaks after it; anything else is left for the parser.
std::string_view without_prompt(std::string_view text) {
  size_t end = text.size();
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
  if (end == 0) return text;
  const size_t newline = text.rfind('\n', end - 1);
  const size_t start = newline == std::string_view::npos ? 0 : newline + 1;
  return prompt(text.substr(start, end - start)) ? text.substr(0, start) : text;
}

/// The objects of element `key` of `obj` (an array of objects), each with its path; none when absent.
std::vector<std::pair<std::string, Value>> element_objects(Value obj, const std::string& where, std::string_view key) {
  std::vector<std::pair<std::string, Value>> out;
  const std::optional<Value> v = jsonr::find(obj, key);
  if (!v) return out;
  const std::string at = where.empty() ? std::string(key) : where + "." + std::string(key);
  jsonr::expect_array(*v, Path(at), kMaxRows, "elements");
  size_t i = 0;
  for (const Value e : v->elements()) {
    std::string path = at + "[" + std::to_string(i++) + "]";
    jsonr::expect_object(e, Path(path));
    out.emplace_back(std::move(path), e);
  }
  return out;
}

/// The one object of element `key` of `obj` (`"input-error-list": [{...}]`), or nothing when absent.
std::optional<std::pair<std::string, Value>> element_object(Value obj, const std::string& where, std::string_view key) {
  if (const std::optional<Value> v = jsonr::find(obj, key); v && v->is_array() && v->size() > 1)
    jsonr::fail(Path(where + "." + std::string(key)), std::to_string(v->size()) + " elements, expected one");
  auto all = element_objects(obj, where, key);
  if (all.empty()) return std::nullopt;
  return std::move(all.front());
}

/// Leaf `key` of an element object, `[{"data": "text"}]` (attributes may sit beside `data`), read by
/// `read(text, path of the data)`; nothing when the leaf is absent or empty (`[{"data": [null]}]`,
/// `[{}]`). Any other shape fails, with its path.
template <typename F>
auto leaf(Value obj, const Path& path, std::string_view key, F&& read)
    -> std::optional<std::invoke_result_t<F, std::string_view, const Path&>> {
  const std::optional<Value> v = jsonr::find(obj, key);
  if (!v) return std::nullopt;
  const Path at = jsonr::child(path, key);
  jsonr::expect_array(*v, at, 1, "elements");
  if (v->size() == 0) jsonr::fail(at, "expected one element, got none");
  const Value e = *v->elements().begin();
  const Path first = jsonr::element(at, 0);
  jsonr::expect_object(e, first);
  const auto [data, attributes] = jsonr::fields(e, first, std::array<std::string_view, 2>{"data", "attributes"});
  if (attributes) jsonr::expect_object(*attributes, jsonr::child(first, "attributes"));
  if (!data) return std::nullopt;
  const Path d = jsonr::child(first, "data");
  if (data->is_array() && data->size() == 1 && (*data->elements().begin()).is_null()) return std::nullopt;
  return std::forward<F>(read)(jsonr::string_value(*data, d), d);
}

/// The text of leaf `key`, as leaf() finds it.
std::optional<std::string_view> text_leaf(Value obj, const Path& path, std::string_view key) {
  return leaf(obj, path, key, [](std::string_view s, const Path&) { return s; });
}

/// A number Junos prints as a string of decimal digits, in [lo, hi].
uint64_t decimal(std::string_view s, const Path& path, uint64_t lo, uint64_t hi) {
  uint64_t n = 0;
  if (s.empty() || !digit(s.front())) jsonr::fail(path, "a string " + quote(s) + " is not a number");
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (end != s.data() + s.size() && error == std::errc())
    jsonr::fail(path, "a string " + quote(s) + " is not a number");
  if (error != std::errc() || n < lo || n > hi)
    jsonr::fail(path, "a string " + quote(s) + " is out of range " + std::to_string(lo) + "-" + std::to_string(hi));
  return n;
}

/// `speed`: "400Gbps", "2.5Gbps", "800mbps", as Mb/s; "Auto", "Unlimited" (tunnels) and "Unspecified"
/// (lo0, dsc in tests/fixtures/junos/get-interface-information.napalm-test.xml): not known.
std::optional<int> speed_mbps(std::string_view s, const Path& path) {
  if (s == "Auto" || s == "Unlimited" || s == "Unspecified") return std::nullopt;
  constexpr uint64_t kMax = 1'600'000;  // 1.6 Tb/s
  const auto bad = [&] { jsonr::fail(path, "a string " + quote(s) + " is not a speed (such as 400Gbps or 800mbps)"); };
  size_t i = 0;
  if (!digits(s, i, 7)) bad();
  const std::string_view whole = s.substr(0, i);
  std::string_view fraction;
  if (i < s.size() && s[i] == '.') {
    const size_t from = ++i;
    if (!digits(s, i, 3)) bad();
    fraction = s.substr(from, i - from);
  }
  const std::string_view unit = s.substr(i);
  uint64_t mbps = 0;
  std::from_chars(whole.data(), whole.data() + whole.size(), mbps);
  if (unit == "Gbps") {
    uint64_t milli = 0, scale = 1000;
    for (const char c : fraction) milli = milli * 10 + static_cast<uint64_t>(c - '0'), scale /= 10;
    mbps = mbps * 1000 + milli * scale;
  } else if (unit != "mbps" || !fraction.empty()) {
    bad();
  }
  if (mbps > kMax) jsonr::fail(path, "a string " + quote(s) + " is more than 1.6 Tb/s");
  if (mbps == 0) return std::nullopt;
  return static_cast<int>(mbps);
}

/// The counters fabricctl keeps, in neutral names (docs/counters-reference.md), from the error lists of
/// `show interfaces extensive` (absent from the plain command: the vQFX 17.4R1 output in
/// tests/fixtures/junos has neither list). Seen in tests/fixtures/junos/get-interface-information.napalm-test.xml
/// and show-interfaces-extensive-pfc.qfx-22.4.apstra-iba-doc.xml (a Junos 22.4 QFX, et-0/0/24). Junos's
/// command reference for these fields ("show interfaces (Gigabit Ethernet)", Input and Output errors):
/// framing errors are packets received with an invalid FCS; drops, packets dropped by the input or output
/// queue. `input-errors` (frame aborts and FCS errors together) and the MAC statistics' CRC/Align errors
/// are not read.
constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kInputErrors{{
    {"framing-errors", "fcs_errors"},
    {"input-drops", "rx_discards"},
}};
/// `carrier-transitions`, as `link_changes`: every change of the link, both ways, so a flap is two. Juniper's
/// field table says "down to up", but the output counts both ways: the up et-0/0/24 of the 22.4 QFX
/// (tests/fixtures/junos) has 3, odd as every up port's count is when each change counts. UNCONFIRMED
/// (docs/transactions-junos.md, "Before the first apply").
constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kOutputErrors{{
    {"output-drops", "tx_discards"},
    {"carrier-transitions", "link_changes"},
}};
/// `ethernet-fec-statistics` (`FEC Corrected Errors`, `FEC Uncorrected Errors` in the text form):
/// codewords, by the elements' names (ccw, nccw); the unit is UNCONFIRMED (docs/acceptance.md).
constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kFec{{
    {"fec_ccw_count", "fec_corrected"},
    {"fec_nccw_count", "fec_uncorrectable"},
}};

/// A counter's value: a decimal string of at most 64 bits.
uint64_t count(std::string_view s, const Path& at) { return decimal(s, at, 0, UINT64_MAX); }

template <size_t N>
void read_counters(Value row, const std::string& where, std::string_view list,
                   const std::array<std::pair<std::string_view, std::string_view>, N>& names, PortObserved& p) {
  const auto errors = element_object(row, where, list);
  if (!errors) return;
  const Path path(errors->first);
  for (const auto& [key, neutral] : names)
    if (const auto n = leaf(errors->second, path, key, count)) p.counters[std::string(neutral)] = *n;
}

/// PFC frames per priority (`show interfaces extensive`, "MAC Priority Flow Control Statistics"): one
/// `ethernet-mac-pfc-statistics` element per priority, `mac-pfc-dot1p` 0-7 with `input-mac-pfc-frames`
/// and `output-mac-pfc-frames`, as pfc_rx_pause_<p> and pfc_tx_pause_<p> (the Junos 22.4 QFX output in
/// tests/fixtures/junos).
void read_pfc(Value row, const std::string& where, PortObserved& p) {
  for (const auto& [at, e] : element_objects(row, where, "ethernet-mac-pfc-statistics")) {
    const Path path(at);
    const auto priority =
        leaf(e, path, "mac-pfc-dot1p", [](std::string_view s, const Path& a) { return decimal(s, a, 0, 7); });
    if (!priority) jsonr::fail(path, "PFC frames without their priority (mac-pfc-dot1p)");
    const std::string suffix = "_" + std::to_string(*priority);
    if (const auto n = leaf(e, path, "input-mac-pfc-frames", count)) set_counter(p, path, "pfc_rx_pause" + suffix, *n);
    if (const auto n = leaf(e, path, "output-mac-pfc-frames", count)) set_counter(p, path, "pfc_tx_pause" + suffix, *n);
  }
}

/// The egress queues in use (`queue-counters` / `queue`, "Queue counters"): `queue-number` 0-7 with
/// `queue-counters-trans-packets` and `queue-counters-total-drop-packets`, as queue_tx_packets_<q> and
/// queue_drops_<q>. A queue no forwarding class uses is not printed: no counters for it, never zeros.
void read_queues(Value row, const std::string& where, PortObserved& p) {
  const auto queues = element_object(row, where, "queue-counters");
  if (!queues) return;
  for (const auto& [at, q] : element_objects(queues->second, queues->first, "queue")) {
    const Path path(at);
    const auto number =
        leaf(q, path, "queue-number", [](std::string_view s, const Path& a) { return decimal(s, a, 0, 7); });
    if (!number) jsonr::fail(path, "a queue without its number (queue-number)");
    const std::string suffix = "_" + std::to_string(*number);
    if (const auto n = leaf(q, path, "queue-counters-trans-packets", count))
      set_counter(p, path, "queue_tx_packets" + suffix, *n);
    if (const auto n = leaf(q, path, "queue-counters-total-drop-packets", count))
      set_counter(p, path, "queue_drops" + suffix, *n);
  }
}

PortObserved interface_of(std::string_view name, Value row, const std::string& where) {
  const Path path(where);
  PortObserved p;
  p.name = std::string(name);
  // The media MTU counts the 14-byte Ethernet header (docs/reference-junos.md, "Interface MTU"): the IP
  // MTU, which PortObserved keeps, is 14 less. 82 is the IPv4 minimum of 68 with the header.
  if (const auto media = leaf(row, path, "mtu",
                              [](std::string_view s, const Path& at) -> std::optional<uint64_t> {
                                if (s == "Unlimited") return std::nullopt;
                                return decimal(s, at, 82, 65535);
                              });
      media && *media)
    p.mtu = static_cast<int>(**media) - 14;
  if (const auto speed = leaf(row, path, "speed", speed_mbps); speed && *speed) p.speed_mbps = **speed;
  if (const auto up = leaf(row, path, "oper-status", [](std::string_view s, const Path& at) {
        if (s != "up" && s != "down") jsonr::fail(at, quote(s) + " is not one of \"up\", \"down\"");
        return s == "up";
      }))
    p.oper_up = *up;
  read_counters(row, where, "input-error-list", kInputErrors, p);
  read_counters(row, where, "output-error-list", kOutputErrors, p);
  read_counters(row, where, "ethernet-fec-statistics", kFec, p);
  read_pfc(row, where, p);
  read_queues(row, where, p);
  return p;
}

}  // namespace

Expected<PortTable<PortObserved>> interfaces_json(std::string_view text, std::string_view command) {
  const std::string named = std::string(command) + ": ";
  auto doc = jsonr::parse_json(without_prompt(text), kLimits);
  if (!doc) return unexpected(named + doc.error());
  const Value root = doc->root();
  if (!root.is_object() || !jsonr::find(root, "interface-information"))
    return unexpected(named + "not a JSON object with an \"interface-information\"");
  std::vector<std::pair<std::string, Value>> rows;
  try {
    for (const auto& [where, info] : element_objects(root, "", "interface-information"))
      for (auto& row : element_objects(info, where, "physical-interface")) rows.push_back(std::move(row));
  } catch (const jsonr::JsonError& e) {
    return unexpected(named + e.message);
  }
  PortTable<PortObserved> out;
  for (const auto& [where, row] : rows) {
    std::optional<std::string_view> name;
    try {
      name = text_leaf(row, Path(where), "name");
      if (!name) jsonr::fail(Path(where), "an interface without its name");
    } catch (const jsonr::JsonError& e) {
      return unexpected(named + e.message);  // a row without its name cannot be one port's
    }
    if (!port_prefix(*name)) continue;  // em0, irb, lo0, ae0, vtep, pfe-0/0/0, ...
    if (!port_name(*name)) {
      out.unreadable.insert_or_assign(printable(*name, 64), "not a port name (" + std::string(kJunosPortRule) + ")");
      continue;
    }
    const std::string port(*name);
    if (out.ports.count(port) || out.unreadable.count(port)) {
      out.ports.erase(port);
      out.unreadable.insert_or_assign(port, named + where + ": " + port + " is printed twice");
      continue;
    }
    try {
      out.ports.emplace(port, interface_of(port, row, where));
    } catch (const jsonr::JsonError& e) {
      out.unreadable.emplace(port, named + e.message);
    }
  }
  return out;
}

Expected<PortTable<LldpNeighbor>> lldp_neighbors_json(std::string_view text) {
  const std::string_view body = without_prompt(text);
  PortTable<LldpNeighbor> out;
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) return out;  // no neighbours
  auto doc = jsonr::parse_json(body, kLimits);
  if (!doc) return unexpected("show lldp neighbors: " + doc.error());
  const Value root = doc->root();
  if (!root.is_object() || !jsonr::find(root, "lldp-neighbors-information"))
    return unexpected("show lldp neighbors: not a JSON object with an \"lldp-neighbors-information\"");
  std::vector<std::pair<std::string, Value>> entries;
  try {
    for (const auto& [where, info] : element_objects(root, "", "lldp-neighbors-information"))
      for (auto& e : element_objects(info, where, "lldp-neighbor-information")) entries.push_back(std::move(e));
  } catch (const jsonr::JsonError& e) {
    return unexpected("show lldp neighbors: " + e.message);
  }
  for (const auto& [where, entry] : entries) {
    const Path path(where);
    std::string port;
    try {
      const std::optional<std::string_view> id = text_leaf(entry, path, "lldp-local-port-id");
      const std::optional<std::string_view> interface = text_leaf(entry, path, "lldp-local-interface");
      if (!id && !interface) jsonr::fail(path, "no local port (\"lldp-local-port-id\" or \"lldp-local-interface\")");
      if (id && port_name(*id)) port = std::string(*id);
      else if (interface && port_name(*interface)) port = std::string(*interface);
    } catch (const jsonr::JsonError& e) {
      return unexpected("show lldp neighbors: " + e.message);  // no port to charge the entry to
    }
    // Not a front-panel port (me0.0, a logical unit, a name that is not one): nothing to pair it with.
    if (port.empty() || out.ports.count(port) || out.unreadable.count(port)) continue;
    try {
      const std::optional<std::string_view> system = text_leaf(entry, path, "lldp-remote-system-name");
      const std::optional<std::string_view> subtype = text_leaf(entry, path, "lldp-remote-port-id-subtype");
      const std::optional<std::string_view> id = text_leaf(entry, path, "lldp-remote-port-id");
      const std::optional<std::string_view> description = text_leaf(entry, path, "lldp-remote-port-description");
      // The port ID when it is a name, else the description (a MAC address as port ID, or no subtype: older
      // releases), else whatever the port ID is.
      const bool named = subtype && (*subtype == "Interface name" || *subtype == "Locally assigned");
      const char* remote_key = "lldp-remote-port-id";
      std::optional<std::string_view> remote = id;
      if (!(named && id) && description) {
        remote = description;
        remote_key = "lldp-remote-port-description";
      }
      LldpNeighbor n{std::string(system.value_or("")), std::string(remote.value_or(""))};
      if (const std::string bad = neighbor_text_problem(n, where + ".lldp-remote-system-name[0].data",
                                                        where + "." + remote_key + "[0].data");
          !bad.empty()) {
        out.unreadable.emplace(port, "show lldp neighbors: " + bad);
        continue;
      }
      if (!n.system_name.empty() || !n.port_id.empty()) out.ports.emplace(port, std::move(n));
    } catch (const jsonr::JsonError& e) {
      out.unreadable.emplace(port, "show lldp neighbors: " + e.message);
    }
  }
  return out;
}

}  // namespace fabricctl::junos

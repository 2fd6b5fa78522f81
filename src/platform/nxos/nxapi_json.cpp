#include "platform/nxos/nxapi_json.h"

#include <algorithm>

#include "util/text.h"

namespace fabricctl::nxos {

using jsonr::Path;
using jsonr::Value;

namespace {

constexpr size_t kMaxRows = 100000;  // rows of one table: a bound far above any switch's ports times queues

}  // namespace

bool ethernet(std::string_view name) { return name.rfind("Ethernet", 0) == 0; }

int64_t nxapi_number(Value v, const Path& path, int64_t lo, int64_t hi) {
  if (!v.is_string()) return jsonr::integer(v, path, lo, hi);
  const std::string_view s = jsonr::string_value(v, path);
  const std::optional<int64_t> n =
      s.find_first_not_of("0123456789") == std::string_view::npos ? parse_int(s) : std::nullopt;
  if (!n) jsonr::fail(path, jsonr::describe(v) + " is not a number");
  if (*n < lo || *n > hi)
    jsonr::fail(path, jsonr::describe(v) + " is out of range " + std::to_string(lo) + "-" + std::to_string(hi));
  return *n;
}

uint64_t nxapi_count(Value v, const Path& path) {
  if (!v.is_string()) return jsonr::unsigned_integer(v, path);
  const std::string_view s = jsonr::string_value(v, path);
  const std::optional<uint64_t> n =
      s.find_first_not_of("0123456789") == std::string_view::npos ? parse_u64(s) : std::nullopt;
  if (!n) jsonr::fail(path, jsonr::describe(v) + " is not a 64-bit count");
  return *n;
}

std::optional<int> nxapi_qos_group(Value v, const Path& path) {
  if (!v.is_string()) return static_cast<int>(jsonr::integer(v, path, 0, 7));
  const std::string_view s = jsonr::string_value(v, path);
  constexpr std::string_view kDigits = "0123456789";
  if (s.find_first_of(kDigits) == std::string_view::npos) return std::nullopt;
  std::string_view rest = s.substr(std::min(s.find_first_not_of(' '), s.size()));
  if (rest.starts_with("QOS GROUP ")) rest.remove_prefix(std::string_view("QOS GROUP ").size());
  const std::string_view digits = rest.substr(0, std::min(rest.find_first_not_of(kDigits), rest.size()));
  const std::string_view after = rest.substr(digits.size());
  if (digits.empty() || (!after.empty() && (after[0] != ' ' || after.find_first_of(kDigits) != std::string_view::npos)))
    jsonr::fail(path, jsonr::describe(v) + " does not name one QoS group");
  const std::optional<int64_t> n = parse_int(digits);
  if (!n || *n > 7) jsonr::fail(path, jsonr::describe(v) + " is out of range 0-7");
  return static_cast<int>(*n);
}

std::vector<NxapiRow> nxapi_rows(Value root, std::string_view name, const std::string& where) {
  const std::string table = "TABLE_" + std::string(name), row = "ROW_" + std::string(name);
  const std::optional<Value> t = jsonr::find(root, table);
  if (!t) return {};
  const std::string at = (where.empty() ? "" : where + ".") + table;
  jsonr::expect_object(*t, Path(at));
  const Value r = jsonr::required(*t, Path(at), row);
  const std::string rows_at = at + "." + row;
  std::vector<NxapiRow> out;
  if (r.is_object()) {
    out.push_back({rows_at + "[0]", r});
    return out;
  }
  jsonr::expect_array(r, Path(rows_at), kMaxRows, "rows");
  out.reserve(r.size());
  for (const Value e : r.elements()) {
    std::string e_at = rows_at + "[" + std::to_string(out.size()) + "]";
    jsonr::expect_object(e, Path(e_at));
    out.push_back({std::move(e_at), e});
  }
  return out;
}

std::optional<std::string_view> nxapi_text(Value row, const std::string& where, std::string_view key) {
  const std::optional<Value> v = jsonr::find(row, key);
  if (!v) return std::nullopt;
  const std::string at = where + "." + std::string(key);
  return jsonr::string_value(*v, Path(at));
}

}  // namespace fabricctl::nxos

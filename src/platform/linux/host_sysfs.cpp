#include "platform/linux/host_sysfs.h"

#include <algorithm>
#include <cctype>
#include <system_error>

#include "platform/linux/traffic_class.h"
#include "util/file_io.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::linux_host {
namespace {

namespace fs = std::filesystem;

// A sysfs attribute is at most a page; anything longer is not the attribute it claims to be.
constexpr size_t kMaxAttributeBytes = 4096;
// GID table entries read per port: mlx5 has 255 (gids/0..254); snapshots keep at most kMaxRdmaGids.
constexpr int kMaxGidEntries = 256;
// Files of one hw_counters directory read: mlx5 has some 60.
constexpr size_t kMaxHwCounters = 512;

/// The file's text without its trailing newline; nullopt when it does not exist. Other failures (a
/// link, a FIFO, too long, unreadable) are errors: the tree is not what a kernel shows.
Expected<std::optional<std::string>> attribute(const fs::path& path) {
  auto text = read_regular_file(path, {kMaxAttributeBytes, "sysfs file"});
  if (!text) {
    if (text.error().kind == FileError::Kind::missing) return std::optional<std::string>{};
    return unexpected(text.error().message);
  }
  std::string s = std::move(*text);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return std::optional<std::string>(std::move(s));
}

/// For messages: the value quoted, cut short and made printable (the file may hold anything).
std::string shown_value(std::string_view value) {
  std::string out = "\"";
  for (const char c : value.substr(0, 64)) out += (c >= 0x20 && c < 0x7f && c != '"') ? c : '?';
  if (value.size() > 64) out += "...";
  return out + "\"";
}

Expected<std::optional<int>> int_attribute(const fs::path& path, int lo, int hi) {
  auto text = attribute(path);
  if (!text) return unexpected(text.error());
  if (!*text) return std::optional<int>{};
  const auto v = parse_int(**text);
  if (!v || *v < lo || *v > hi)
    return unexpected(path.string() + ": " + shown_value(**text) + " is not an integer " + std::to_string(lo) + "-" +
                      std::to_string(hi));
  return std::optional<int>(static_cast<int>(*v));
}

/// enable/0..7 of a DCQCN point: nullopt when the directory is absent (no MLNX_OFED mlx5 sysfs).
Expected<std::optional<std::array<bool, kPriorities>>> enables(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return std::optional<std::array<bool, kPriorities>>{};
  std::array<bool, kPriorities> on{};
  for (int p = 0; p < kPriorities; ++p) {
    auto v = int_attribute(dir / std::to_string(p), 0, 1);
    if (!v) return unexpected(v.error());
    if (!*v) return unexpected((dir / std::to_string(p)).string() + ": missing (the other priorities are there)");
    on[static_cast<size_t>(p)] = **v == 1;
  }
  return std::optional(on);
}

Expected<void> read_dcqcn(const fs::path& ecn, PortObserved& port) {
  auto rp = enables(ecn / "roce_rp" / "enable");
  if (!rp) return unexpected(rp.error());
  auto np = enables(ecn / "roce_np" / "enable");
  if (!np) return unexpected(np.error());
  if (!*rp && !*np) return {};
  DcqcnObserved d;
  if (*rp) d.rp_enabled = **rp;
  if (*np) d.np_enabled = **np;
  // The CNP's DSCP (6 bits), 802.1p priority (3 bits) and the NP's minimum gap between CNPs, us.
  const struct {
    const char* file;
    int hi;
    std::optional<int>* into;
  } np_params[] = {{"cnp_dscp", 63, &d.cnp_dscp},
                   {"cnp_802p_prio", 7, &d.cnp_priority},
                   {"min_time_between_cnps", 1'000'000, &d.min_time_between_cnps}};
  for (const auto& param : np_params) {
    auto v = int_attribute(ecn / "roce_np" / param.file, 0, param.hi);
    if (!v) return unexpected(v.error());
    *param.into = *v;
  }
  for (const std::string_view name : kDcqcnRpParams) {
    // Firmware parameters are unsigned 32-bit values; fabricctl's model keeps them as int.
    auto v = int_attribute(ecn / "roce_rp" / std::string(name), 0, 2'147'483'647);
    if (!v) return unexpected(v.error());
    if (*v) d.rp.emplace(std::string(name), **v);
  }
  port.dcqcn = d;
  return {};
}

/// "4: ACTIVE" -> true; other states false.
Expected<std::optional<bool>> port_active(const fs::path& path) {
  auto text = attribute(path);
  if (!text) return unexpected(text.error());
  if (!*text) return std::optional<bool>{};
  const std::string& s = **text;
  const size_t colon = s.find(": ");
  if (colon == std::string::npos || !parse_int(s.substr(0, colon)))
    return unexpected(path.string() + ": " + shown_value(s) + " is not a port state such as \"4: ACTIVE\"");
  return std::optional<bool>(s.substr(colon + 2) == "ACTIVE");
}

/// "4096 (5)" -> 4096: the IB MTU enum's byte size, 256..4096.
Expected<std::optional<int>> active_mtu(const fs::path& path) {
  auto text = attribute(path);
  if (!text) return unexpected(text.error());
  if (!*text) return std::optional<int>{};
  const std::string& s = **text;
  const auto bytes = parse_int(s.substr(0, s.find(' ')));
  constexpr std::array<int, 5> kIbMtus = {256, 512, 1024, 2048, 4096};
  if (!bytes || std::find(kIbMtus.begin(), kIbMtus.end(), *bytes) == kIbMtus.end())
    return unexpected(path.string() + ": " + shown_value(s) + " is not an IB MTU such as \"4096 (5)\"");
  return std::optional<int>(static_cast<int>(*bytes));
}

bool is_gid_text(std::string_view s) {
  // Eight groups of four hex digits, as the kernel prints a GID.
  if (s.size() != 39) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (i % 5 == 4 ? c != ':' : !std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

Expected<std::vector<GidObserved>> gids(const fs::path& port_dir) {
  std::vector<GidObserved> out;
  for (int i = 0; i < kMaxGidEntries; ++i) {
    auto gid = attribute(port_dir / "gids" / std::to_string(i));
    if (!gid) return unexpected(gid.error());
    if (!*gid) break;  // past the end of the table
    if (!is_gid_text(**gid))
      return unexpected((port_dir / "gids" / std::to_string(i)).string() + ": " + shown_value(**gid) + " is not a GID");
    if (**gid == "0000:0000:0000:0000:0000:0000:0000:0000") continue;  // an unused entry
    auto type = attribute(port_dir / "gid_attrs" / "types" / std::to_string(i));
    if (!type) return unexpected(type.error());
    // The kernel's names of the GID types (ib_cache_gid_type_str); "IB/RoCE v1" on an Ethernet port is v1.
    constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kTypes = {
        {{"IB/RoCE v1", "RoCE v1"}, {"RoCE v2", "RoCE v2"}}};
    const auto t =
        std::find_if(kTypes.begin(), kTypes.end(), [&](const auto& k) { return *type && k.first == **type; });
    if (t == kTypes.end())
      return unexpected((port_dir / "gid_attrs" / "types" / std::to_string(i)).string() + ": " +
                        shown_value(type->value_or("")) + " is not \"IB/RoCE v1\" or \"RoCE v2\"");
    out.push_back({i, std::string(t->second), **gid});
  }
  return out;
}

/// MLNX_OFED's tc/N/traffic_class (traffic_class.h): the port-wide override, kNoTosOverride when none
/// is set. Per-address rules make the port unreadable: fabricctl neither saves nor replays them, so it
/// could not restore the port as it found it.
Expected<std::optional<int>> tos_override(const fs::path& path) {
  auto text = attribute(path);
  if (!text) return unexpected(text.error());
  if (!*text) return std::optional<int>{};
  auto shown = parse_traffic_class(**text);
  if (!shown)
    return unexpected(path.string() + ": " + shown_value(**text) + " is not what traffic_class shows (" +
                      shown.error() + ")");
  if (!shown->rules.empty())
    return unexpected(path.string() + ": holds " + std::to_string(shown->rules.size()) + " per-address rule(s) (" +
                      shown_value(shown->rules.front()) +
                      "), which fabricctl cannot save and restore; remove them (write the rule with tclass=-1) "
                      "or leave this port out");
  return std::optional<int>(shown->global.value_or(kNoTosOverride));
}

Expected<void> read_rdma(const fs::path& root, PortObserved& port) {
  const auto dev = rdma_port_of(root, port.name);
  if (!dev) return {};
  RdmaObserved r;
  r.device = dev->first;
  r.port = dev->second;
  const fs::path port_dir = root / "sys/class/infiniband" / r.device / "ports" / std::to_string(r.port);
  auto active = port_active(port_dir / "state");
  if (!active) return unexpected(active.error());
  r.active = *active;
  auto mtu = active_mtu(port_dir / "active_mtu");
  if (!mtu) return unexpected(mtu.error());
  r.active_mtu = *mtu;
  auto table = gids(port_dir);
  if (!table) return unexpected(table.error());
  r.gids = std::move(*table);
  auto tos = int_attribute(
      root / "sys/kernel/config/rdma_cm" / r.device / "ports" / std::to_string(r.port) / "default_roce_tos", 0, 255);
  if (!tos) return unexpected(tos.error());
  r.cm_tos = *tos;
  auto tclass =
      tos_override(root / "sys/class/infiniband" / r.device / "tc" / std::to_string(r.port) / "traffic_class");
  if (!tclass) return unexpected(tclass.error());
  r.tos_override = *tclass;
  port.rdma = r;
  return {};
}

}  // namespace

Expected<std::map<std::string, uint64_t>> read_rdma_hw_counters(const fs::path& root, std::string_view netdev) {
  std::map<std::string, uint64_t> out;
  const auto dev = rdma_port_of(root, netdev);
  if (!dev) return out;
  const fs::path dir =
      root / "sys/class/infiniband" / dev->first / "ports" / std::to_string(dev->second) / "hw_counters";
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!valid_counter_name(name)) continue;  // "lifespan" and the like are named alike; others are not counters
    if (out.size() == kMaxHwCounters)
      return unexpected(dir.string() + ": more than " + std::to_string(kMaxHwCounters) + " counters");
    auto text = attribute(it->path());
    if (!text) return unexpected(text.error());
    if (!*text) continue;  // gone meanwhile
    const auto v = parse_u64(**text);
    if (!v) return unexpected(it->path().string() + ": " + shown_value(**text) + " is not a counter (0-2^64-1)");
    out[name] = *v;
  }
  out.erase("lifespan");  // a setting (ms between reads the driver caches), not a counter
  return out;
}

std::optional<std::pair<std::string, int>> rdma_port_of(const fs::path& root, std::string_view netdev) {
  std::error_code ec;
  const fs::path ib = root / "sys/class/infiniband";
  std::optional<std::pair<std::string, int>> own;
  // The netdev's PCI function names its RDMA device (mlx5: one device per function, port 1).
  for (fs::directory_iterator it(root / "sys/class/net" / std::string(netdev) / "device/infiniband", ec), end;
       !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (valid_rdma_device_name(name)) own = {name, 1};
    break;
  }
  // Otherwise (or to find the port of a multi-port device): the port whose GID 0 belongs to the netdev.
  for (fs::directory_iterator d(ib, ec), end; !ec && d != end; d.increment(ec)) {
    const std::string dev = d->path().filename().string();
    if (!valid_rdma_device_name(dev)) continue;
    std::error_code ec2;
    for (fs::directory_iterator p(d->path() / "ports", ec2); !ec2 && p != end; p.increment(ec2)) {
      const auto n = parse_int(p->path().filename().string());
      if (!n || *n < 1 || *n > 255) continue;
      auto ndev = attribute(p->path() / "gid_attrs/ndevs/0");
      if (ndev && *ndev && **ndev == netdev) return std::pair{dev, static_cast<int>(*n)};
    }
  }
  return own;
}

Expected<void> read_port_files(const fs::path& root, PortObserved& port) {
  const fs::path net = root / "sys/class/net" / port.name;
  // -1 is what the kernel prints for a link without a speed (down, or a virtual device).
  auto speed = int_attribute(net / "speed", -1, 10'000'000);
  if (!speed) return unexpected(speed.error());
  if (*speed && **speed > 0) port.speed_mbps = **speed;
  if (auto dcqcn = read_dcqcn(net / "ecn", port); !dcqcn) return dcqcn;
  return read_rdma(root, port);
}

Expected<std::string> value_to_restore(std::string_view file, std::string_view shown) {
  if (file == "traffic_class") {
    auto tc = parse_traffic_class(shown);
    if (!tc) return unexpected(shown_value(shown) + " is not what traffic_class shows (" + tc.error() + ")");
    if (!tc->rules.empty()) return unexpected("per-address rules cannot be saved for a rollback");
    return traffic_class_store(tc->global);
  }
  std::string value(shown);
  while (!value.empty() && (value.back() == '\n' || value.back() == ' ')) value.pop_back();
  return value;
}

Expected<NcclObserved> read_nccl_conf(const fs::path& root) {
  const fs::path path = root / "etc/nccl.conf";
  auto text = read_regular_file(path, {size_t{1} << 20, "NCCL configuration"});
  if (!text) {
    if (text.error().kind == FileError::Kind::missing) return NcclObserved{};
    return unexpected(text.error().message);
  }
  NcclObserved n;
  // NAME=value lines; NCCL ignores what it does not know, and so does fabricctl (comments, other keys).
  size_t line_no = 0;
  for (size_t pos = 0; pos < text->size();) {
    const size_t eol = std::min(text->find('\n', pos), text->size());
    const std::string_view line = std::string_view(*text).substr(pos, eol - pos);
    pos = eol + 1;
    ++line_no;
    const size_t eq = line.find('=');
    if (line.empty() || line[0] == '#' || eq == std::string_view::npos) continue;
    const std::string_view key = line.substr(0, eq);
    const std::string_view value = line.substr(eq + 1);
    const struct {
      std::string_view key;
      int hi;
      std::optional<int>* into;
    } keys[] = {{"NCCL_IB_TC", 255, &n.traffic_class}, {"NCCL_IB_GID_INDEX", 255, &n.gid_index}};
    for (const auto& k : keys) {
      if (key != k.key) continue;
      const auto v = parse_int(value);
      if (!v || *v < 0 || *v > k.hi)
        return unexpected(path.string() + ":" + std::to_string(line_no) + ": " + std::string(key) + " " +
                          shown_value(value) + " is not an integer 0-" + std::to_string(k.hi));
      *k.into = static_cast<int>(*v);
    }
  }
  return n;
}

}  // namespace fabricctl::linux_host

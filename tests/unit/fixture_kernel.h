// A model of the kernel behind a host fixture tree (tests/lab/host_fixture.py's layout, host_sysfs.h):
// the AttributeFiles the host agent writes through (ops/host_files.h), with the kernel's semantics for
// the attributes fabricctl writes, so that a value the kernel would refuse fails here too:
//   - each attribute parses what is written as its store function does and refuses the rest (EINVAL,
//     ERANGE), then shows the stored value in its show format;
//   - a path the model does not know is not writable (EACCES) and a missing one does not exist
//     (ENOENT): attributes are never created by a write;
//   - rdma_cm's values live in the kernel's cma device, not in the configfs group: the model keeps them
//     in ROOT/fixture-kernel/rdma_cm/DEV/ports/N/ (the device's memory; host_fixture.py writes it), and
//     making the group (mkdir) shows them; removing the group or an attribute file changes none of them.
// Header-only: both the unit tests and the lab's host agent (tests/lab/fixture_host_main.cpp) use it.
#pragma once

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "ops/host_files.h"
#include "util/file_io.h"

namespace fabricctl::test {

class FixtureKernel final : public ops::AttributeFiles {
 public:
  explicit FixtureKernel(std::filesystem::path root) : root_(std::move(root)) {}

  Expected<void> write(const std::filesystem::path& path, std::string_view text) override {
    const std::vector<std::string> rel = components(path);
    std::error_code ec;
    if (rel.empty() || !std::filesystem::is_regular_file(path, ec)) return refuse(path, ENOENT);
    const std::string buf = std::string(text) + "\n";  // what write(2) hands the store function
    const std::string& name = rel.back();
    // MLNX_OFED drivers/infiniband/hw/mlx5/main_ext.c traffic_class_store().
    if (match(rel, {"sys", "class", "infiniband", "*", "tc", "*", "traffic_class"})) return traffic_class(path, buf);
    // drivers/infiniband/core/cma_configfs.c default_roce_tos_store(): kstrtou8(buf, 0, ...).
    if (match(rel, {"sys", "kernel", "config", "rdma_cm", "*", "ports", "*", "default_roce_tos"})) {
      const auto v = kstrto(buf, false, 255);
      if (!v.value) return refuse(path, v.error);
      return store_cma(path, rel, std::to_string(*v.value));
    }
    // cma_configfs.c default_roce_mode_store(): ib_cache_gid_parse_type_str() (drivers/infiniband/core/
    // cache.c) knows the names ib_cache_gid_type_str() shows, a trailing newline dropped.
    if (match(rel, {"sys", "kernel", "config", "rdma_cm", "*", "ports", "*", "default_roce_mode"})) {
      const std::string mode = buf.substr(0, buf.size() - 1);
      if (mode != "IB/RoCE v1" && mode != "RoCE v2") return refuse(path, EINVAL);
      return store_cma(path, rel, mode);
    }
    // MLNX_OFED mlx5 ecn sysfs, en_ecn.c: mlx5e_store_ecn_enable() reads an int (sscanf "%d"); any
    // non-zero enables, and enabling an enabled priority is refused with EPERM; the show is 0 or 1. The
    // parameters' stores read an int the same way, unchecked. Text that is no integer at all is left
    // unchecked by the driver (an uninitialised int): modelled as EINVAL, UNCONFIRMED.
    if (match(rel, {"sys", "class", "net", "*", "ecn", "*", "enable", "*"})) {
      const auto v = kstrto(buf, true, 2147483647LL);
      if (!v.value) return refuse(path, EINVAL);
      if (*v.value != 0 && read_or(path, "0") == "1") return refuse(path, EPERM);
      return show(path, *v.value != 0 ? "1\n" : "0\n");
    }
    if (match(rel, {"sys", "class", "net", "*", "ecn", "*", name}) && name != "enable") {
      const auto v = kstrto(buf, true, 2147483647LL);
      if (!v.value) return refuse(path, EINVAL);
      return show(path, std::to_string(*v.value) + "\n");
    }
    // kernfs_fop_open(): a file without a store function cannot be opened for writing.
    return refuse(path, EACCES);
  }

  Expected<void> make_group(const std::filesystem::path& path) override {
    const std::vector<std::string> rel = components(path);
    std::error_code ec;
    if (!match(rel, {"sys", "kernel", "config", "rdma_cm", "*"}) ||
        !std::filesystem::is_directory(path.parent_path(), ec))
      return refuse(path, EPERM);  // configfs: only a subsystem with make_group makes groups
    if (std::filesystem::is_directory(path, ec)) return {};
    // cma_configfs.c make_cma_dev(): ENODEV unless an RDMA device of that name exists; the group gets
    // ports/N/ for each of its ports, showing the cma device's current values.
    const std::string& dev = rel.back();
    const auto ib_ports = root_ / "sys/class/infiniband" / dev / "ports";
    if (!std::filesystem::is_directory(ib_ports, ec)) return refuse(path, ENODEV);
    for (const auto& p : std::filesystem::directory_iterator(ib_ports, ec)) {
      const std::string n = p.path().filename().string();
      const auto memory = memory_dir(dev, n);
      put(path / "ports" / n / "default_roce_mode", read_or(memory / "default_roce_mode", "RoCE v2") + "\n");
      put(path / "ports" / n / "default_roce_tos", read_or(memory / "default_roce_tos", "0") + "\n");
    }
    return {};
  }

  Expected<void> remove_group(const std::filesystem::path& path) override {
    std::error_code ec;
    // configfs_rmdir(): a group made by mkdir goes with the default groups the subsystem put in it;
    // cma_configfs.c drop_cma_dev() drops only the group, the cma device keeps its values.
    if (!match(components(path), {"sys", "kernel", "config", "rdma_cm", "*"}) ||
        !std::filesystem::is_directory(path, ec))
      return refuse(path, ENOENT);
    std::filesystem::remove_all(path, ec);
    return {};
  }

  /// The rdma_cm value the cma device holds (whether or not its configfs group exists).
  std::string cma_value(const std::string& dev, int port, const std::string& attribute) const {
    return read_or(memory_dir(dev, std::to_string(port)) / attribute,
                   attribute == "default_roce_tos" ? "0" : "RoCE v2");
  }

 private:
  struct Parsed {
    std::optional<long long> value;
    int error = 0;
  };

  /// lib/kstrtox.c kstrtoll/kstrtoull with base 0: optional sign, "0x" hex, "0" octal, one trailing
  /// newline; EINVAL for anything else, ERANGE above `hi` (or below -hi-1 when signed).
  static Parsed kstrto(std::string_view s, bool is_signed, long long hi) {
    if (!s.empty() && s.back() == '\n') s.remove_suffix(1);
    bool negative = false;
    if (!s.empty() && s[0] == '+') s.remove_prefix(1);
    else if (is_signed && !s.empty() && s[0] == '-') negative = true, s.remove_prefix(1);
    int base = 10;
    if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s.remove_prefix(2);
    else if (s.size() > 1 && s[0] == '0') base = 8, s.remove_prefix(1);
    if (s.empty()) return {std::nullopt, EINVAL};
    long long v = 0;
    for (const char c : s) {
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : 99;
      if (d >= base) return {std::nullopt, EINVAL};
      v = v * base + d;
      if (v > hi + 1) return {std::nullopt, ERANGE};
    }
    if (negative) v = -v;
    if (v > hi || v < -hi - 1) return {std::nullopt, ERANGE};
    return {v, 0};
  }

  /// main_ext.c: tclass_parse_input() splits at ',', trims each token and matches it against the keys in
  /// parse_tree order ("src_ip=", "dst_ip=", "src_ip6=", "dst_ip6=", "tclass=", then no key at all), the
  /// token longer than its key (check_string_match); tclass_parse_tclass() is kstrtoint base 0 and
  /// refuses > 0xff; tclass_verify_match() wants a tclass and not IPv4 and IPv6 together. The tclass
  /// alone sets the port-wide value (negative: cleared); with addresses it adds, replaces or (negative)
  /// removes that rule. traffic_class_show(): "Global tclass=N" when N >= 0, then the rules.
  /// Not modelled: TCLASS_MAX_CMD (the longest write), address syntax (kept as written).
  Expected<void> traffic_class(const std::filesystem::path& path, const std::string& buf) {
    std::optional<long long> tclass;
    std::string addresses;
    bool v4 = false;
    bool v6 = false;
    std::stringstream in(buf);
    for (std::string token; std::getline(in, token, ',');) {
      token = trim(token);
      if (token.empty()) continue;  // strsep's empty fields are skipped; a lone "\n" trims to nothing
      const std::string_view keys[] = {"src_ip=", "dst_ip=", "src_ip6=", "dst_ip6=", "tclass="};
      std::string_view key;
      for (const std::string_view k : keys)
        if (token.size() > k.size() && token.compare(0, k.size(), k) == 0) {
          key = k;
          break;
        }
      if (key.empty() || key == "tclass=") {
        const auto v = kstrto(std::string_view(token).substr(key.size()), true, 2147483647LL);
        if (!v.value || *v.value > 0xff) return refuse(path, EINVAL);
        tclass = v.value;
        continue;
      }
      (key.find('6') != std::string_view::npos ? v6 : v4) = true;
      addresses += (addresses.empty() ? "" : ",") + token;
    }
    if (!tclass || (v4 && v6)) return refuse(path, EINVAL);
    const std::string now = read_or(path, "");
    std::optional<long long> global;
    std::vector<std::string> rules;
    std::stringstream shown(now);
    for (std::string line; std::getline(shown, line);) {
      if (line.rfind("Global tclass=", 0) == 0) global = std::stoll(line.substr(14));
      else if (!line.empty()) rules.push_back(line);
    }
    if (addresses.empty()) {
      global = *tclass >= 0 ? tclass : std::nullopt;
    } else {
      std::erase_if(rules, [&](const std::string& r) { return r.rfind(addresses + ",tclass=", 0) == 0; });
      if (*tclass >= 0) rules.push_back(addresses + ",tclass=" + std::to_string(*tclass));
    }
    std::string out = global ? "Global tclass=" + std::to_string(*global) + "\n" : "";
    for (const std::string& r : rules) out += r + "\n";
    return show(path, out);
  }

  Expected<void> store_cma(const std::filesystem::path& path, const std::vector<std::string>& rel,
                           const std::string& value) {
    put(memory_dir(rel[4], rel[6]) / rel.back(), value + "\n");
    return show(path, value + "\n");
  }

  std::filesystem::path memory_dir(const std::string& dev, const std::string& port) const {
    return root_ / "fixture-kernel/rdma_cm" / dev / "ports" / port;
  }

  static Expected<void> show(const std::filesystem::path& path, const std::string& text) {
    put(path, text);
    return {};
  }

  static void put(const std::filesystem::path& p, const std::string& text) {
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
  }

  static std::string read_or(const std::filesystem::path& p, const std::string& fallback) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return fallback;
    std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    while (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
  }

  static std::string trim(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t\n");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\n") - b + 1);
  }

  static Expected<void> refuse(const std::filesystem::path& path, int error) {
    return unexpected(path.string() + ": cannot write: " + errno_text(error) + " (" + errno_name(error) + ")");
  }

  static std::string errno_name(int e) {
    switch (e) {
      case EINVAL: return "EINVAL";
      case ERANGE: return "ERANGE";
      case ENOENT: return "ENOENT";
      case EACCES: return "EACCES";
      case ENODEV: return "ENODEV";
      case EPERM: return "EPERM";
      default: return std::to_string(e);
    }
  }

  /// `path` below the root, one string per component; empty when it is not below the root.
  std::vector<std::string> components(const std::filesystem::path& path) const {
    const auto rel = path.lexically_relative(root_);
    std::vector<std::string> out;
    for (const auto& c : rel) out.push_back(c.string());
    if (!out.empty() && out[0] == "..") out.clear();
    return out;
  }

  /// `rel` has exactly the components of `pattern`, "*" matching any one.
  static bool match(const std::vector<std::string>& rel, std::initializer_list<std::string> pattern) {
    if (rel.size() != pattern.size()) return false;
    size_t i = 0;
    for (const std::string& p : pattern) {
      if (p != "*" && p != rel[i]) return false;
      ++i;
    }
    return true;
  }

  std::filesystem::path root_;
};

}  // namespace fabricctl::test

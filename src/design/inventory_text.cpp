#include "design/inventory_text.h"

#include "design/yaml_emit.h"
#include "util/diag.h"

namespace fabricctl::design {

namespace {

constexpr std::string_view kHeaderStart = "# Made by `fabricctl design rail-optimized` from ";
constexpr std::string_view kHeaderAt = " at ";
constexpr std::string_view kHeaderEnd = " hosts; change the design, not this file.\n";

std::string groups_list(const std::vector<std::string>& groups) {
  std::string out = "[";
  for (const std::string& g : groups) out += (out.size() > 1 ? ", " : "") + yaml_scalar(g);
  return out + "]";
}

void device(const DesignedDevice& d, std::string& out) {
  out += "  " + d.name + ":\n    role: " + (d.tier == TierKind::host ? "host" : "switch") +
         "\n    platform: " + d.platform + "\n";
  if (!d.groups.empty()) out += "    groups: " + groups_list(d.groups) + "\n";
  if (d.rail >= 0) out += "    rail: " + std::to_string(d.rail) + "\n";
  if (!d.address.empty()) out += "    mgmt: {address: " + yaml_scalar(d.address) + "}\n";
  out += "    ports:\n";
  for (const DesignedPort& p : d.ports) {
    out += "      " + yaml_scalar(p.name) + ":";
    if (d.tier == TierKind::host) {
      out += " {rdma_device: " + p.rdma_device + ", rail: " + std::to_string(p.rail) + "}\n";
    } else {
      out += " {speed: " + p.speed + "}\n";
    }
  }
}

/// The description as comment lines, cut at the spec's own line breaks.
void comment(std::string_view text, std::string& out) {
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    out += line.empty() ? "#\n" : "# " + printable(line, 400) + "\n";
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
}

}  // namespace

std::string design_header(const RailSpec& spec, int64_t hosts) {
  return std::string(kHeaderStart) + printable(spec.file_name, 200) + std::string(kHeaderAt) + std::to_string(hosts) +
         std::string(kHeaderEnd);
}

std::optional<int64_t> hosts_in_header(std::string_view text) {
  const std::string_view line = text.substr(0, text.find('\n') + 1);
  if (!line.starts_with(kHeaderStart) || !line.ends_with(kHeaderEnd)) return std::nullopt;
  const std::string_view body = line.substr(0, line.size() - kHeaderEnd.size());
  const size_t at = body.rfind(kHeaderAt);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view digits = body.substr(at + kHeaderAt.size());
  if (digits.empty() || digits.size() > 9) return std::nullopt;
  int64_t n = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n;
}

InventoryFiles inventory_files(const RailSpec& spec, const Layout& layout) {
  const Sizes& z = layout.sizes;
  const std::string header = design_header(spec, z.hosts);
  InventoryFiles files;

  std::string& fabric = files["fabric.yaml"];
  fabric = header;
  comment(spec.description, fabric);
  fabric += "defaults:\n  profile: " + yaml_scalar(*spec.profile) + "\n";
  if (spec.mgmt) {
    fabric += "  mgmt:";
    emit_yaml_value(spec.mgmt, 4, fabric);
  }
  if (spec.groups && spec.groups.size() > 0) {
    fabric += "\ngroups:";
    emit_yaml_value(spec.groups, 2, fabric);
  }

  std::string& switches = files["switches.yaml"];
  std::string& hosts = files["hosts.yaml"];
  switches = header + "devices:\n";
  hosts = header + "devices:\n";
  for (const DesignedDevice& d : layout.devices) device(d, d.tier == TierKind::host ? hosts : switches);

  std::string& links = files["links.yaml"];
  links = header + "links:\n";
  if (z.host_links > 0)
    links += z.nics == z.rails
                 ? "  # NIC i of every server -> the rail-i leaf of its pod\n"
                 : "  # NIC i of every server -> the rail-(i mod " + std::to_string(z.rails) + ") leaf of its pod\n";
  bool uplinks = false;
  for (const DesignedLink& l : layout.links) {
    if (l.uplink && !uplinks) {
      links += "  # leaf uplinks: " + std::to_string(z.up_per_spine) + " to each spine\n";
      uplinks = true;
    }
    links += "  - {a: " + yaml_scalar(l.a) + ", b: " + yaml_scalar(l.b) + ", speed: " + l.speed +
             ", cable_length_m: " + std::to_string(l.length_m) + "}\n";
  }
  return files;
}

}  // namespace fabricctl::design

// EOS's words for the hardware facts an inventory states of an Arista switch (its `eos:` mapping;
// docs/inventory.md "Switch hardware"): the chip family, which decides the egress queue vocabulary.
#pragma once

#include <string_view>
#include <vector>

namespace fabricctl::eos {

/// A Broadcom chip family of Arista switches, and whether its egress queues are virtual output queues.
struct ChipFamily {
  std::string_view name;
  bool voq;  // Jericho (7280R, 7500R, 7800R): `tx-queue N`; Trident and Tomahawk (7050X, 7060X,
             // 7260X3, 7388X): separate unicast and multicast queues, `uc-tx-queue N`
};

inline constexpr ChipFamily kChipFamilies[] = {{"trident", false}, {"tomahawk", false}, {"jericho", true}};

/// Arista's RoCE leaves are mostly Tomahawk or Trident boxes (7060X, 7388X, 7050X): uc-tx-queue.
inline constexpr std::string_view kDefaultChip = "tomahawk";

inline const std::vector<std::string_view>& chip_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    for (const ChipFamily& c : kChipFamilies) out.push_back(c.name);
    return out;
  }();
  return names;
}

}  // namespace fabricctl::eos

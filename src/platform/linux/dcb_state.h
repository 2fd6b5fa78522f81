// A NIC port's IEEE 802.1Qaz DCB state as the kernel's DCB netlink interface reports it (the
// DCB_CMD_IEEE_GET reply), in the kernel's own terms and units: the codec (dcbnl.h) fills it, and
// dcb_observed.h maps it onto the vendor-neutral PortObserved. Field names follow linux/dcbnl.h so that
// a reader can check them against the uapi structs.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fabricctl {

constexpr int kDcbMaxTcs = 8;  // IEEE_8021QAZ_MAX_TCS: priorities and traffic classes both

/// ETS transmission selection algorithms (IEEE_8021QAZ_TSA_*).
constexpr uint8_t kTsaStrict = 0;
constexpr uint8_t kTsaCbShaper = 1;
constexpr uint8_t kTsaEts = 2;
constexpr uint8_t kTsaVendor = 255;

/// App table selectors (IEEE_8021QAZ_APP_SEL_*): what dcb_app.protocol means.
constexpr uint8_t kAppSelEthertype = 1;
constexpr uint8_t kAppSelDscp = 5;  // protocol is a DSCP value 0-63

/// struct ieee_pfc: priority flow control.
struct DcbPfc {
  uint8_t pfc_cap = 0;                             // how many priorities may be lossless at once
  std::array<bool, kDcbMaxTcs> enabled{};          // pfc_en, one bit per priority (bit p = priority p)
  uint8_t mbc = 0;                                 // MACsec bypass capability
  uint16_t delay = 0;                              // bits of round-trip allowance (mlx5: cable length, metres)
  std::array<uint64_t, kDcbMaxTcs> requests{};     // pause frames sent, per priority
  std::array<uint64_t, kDcbMaxTcs> indications{};  // pause frames received, per priority
  bool operator==(const DcbPfc&) const = default;
};

/// struct ieee_ets: enhanced transmission selection.
struct DcbEts {
  uint8_t willing = 0;
  uint8_t ets_cap = 0;                         // traffic classes the port supports
  uint8_t cbs = 0;                             // credit-based shaper supported
  std::array<uint8_t, kDcbMaxTcs> tc_tx_bw{};  // percent per TC
  std::array<uint8_t, kDcbMaxTcs> tc_rx_bw{};
  std::array<uint8_t, kDcbMaxTcs> tc_tsa{};   // kTsa* per TC
  std::array<uint8_t, kDcbMaxTcs> prio_tc{};  // TC of each priority
  std::array<uint8_t, kDcbMaxTcs> tc_reco_bw{};
  std::array<uint8_t, kDcbMaxTcs> tc_reco_tsa{};
  std::array<uint8_t, kDcbMaxTcs> reco_prio_tc{};
  bool operator==(const DcbEts&) const = default;
};

/// struct dcb_app: one app table entry (selector, priority, protocol).
struct DcbApp {
  uint8_t selector = 0;  // kAppSel*
  uint8_t priority = 0;  // 0-7
  uint16_t protocol = 0;
  bool operator==(const DcbApp&) const = default;
};

/// Everything the host collector reads from one DCB_CMD_IEEE_GET reply. An absent optional: the
/// driver did not report it (the kernel leaves out what a driver's dcbnl_ops cannot get).
struct DcbState {
  std::string ifname;           // DCB_ATTR_IFNAME of the reply
  std::optional<DcbPfc> pfc;    // DCB_ATTR_IEEE_PFC
  std::optional<DcbEts> ets;    // DCB_ATTR_IEEE_ETS
  std::vector<DcbApp> apps;     // DCB_ATTR_IEEE_APP_TABLE, in the kernel's order
  std::optional<uint8_t> dcbx;  // DCB_ATTR_DCBX: DCB_CAP_DCBX_* bits (0x01 host, 0x08 IEEE, ...)
  bool operator==(const DcbState&) const = default;
};

}  // namespace fabricctl

#include "platform/linux/nic_counters.h"

#include <array>
#include <string_view>

namespace fabricctl {

namespace {

struct Name {
  std::string_view native;
  std::string_view neutral;
};

// mlx5's per-priority statistics (en_stats.c pport_per_prio_pfc_stats_desc, "rx_%s_pause" with %s
// "prio<p>"; pport_per_prio_traffic_stats_desc): the text after "rx_prio<p>_" or "tx_prio<p>_".
// Durations are in microseconds (the PPCNT per-priority group's unit).
constexpr std::array kPerPriority{
    Name{"rx_prio_pause", "pfc_rx_pause"},                    // PFC pause frames received on <p>
    Name{"tx_prio_pause", "pfc_tx_pause"},                    // PFC pause frames sent on <p>
    Name{"rx_prio_pause_duration", "pfc_rx_pause_duration"},  // time paused by the peer on <p>, µs
    Name{"tx_prio_pause_duration", "pfc_tx_pause_duration"},  // time this NIC paused the peer on <p>, µs
    Name{"rx_prio_discards", "rx_discards"},                  // received on <p>, dropped for lack of buffer
};

// mlx5's port-level statistics (en_stats.c: the _phy ones from the physical port's PPCNT groups,
// the pause-storm ones from pport_pfc_stall_stats_desc).
constexpr std::array kPort{
    Name{"tx_pause_storm_warning_events", "pause_storm_warnings"},  // NIC stalled beyond the warning watermark
    Name{"tx_pause_storm_error_events", "pause_storm_errors"},      // stalled beyond the timeout: pauses stopped
    Name{"rx_discards_phy", "rx_discards"},                         // dropped on receive for lack of buffer
    Name{"tx_discards_phy", "tx_discards"},                         // dropped on transmit
    Name{"rx_crc_errors_phy", "fcs_errors"},                        // frames with a bad FCS
    Name{"rx_symbol_err_phy", "symbol_errors"},                     // symbol errors on the wire
    Name{"rx_corrected_bits_phy", "fec_corrected_bits"},            // bits FEC corrected
    Name{"rx_pcs_symbol_err_phy", "fec_uncorrectable_symbols"},     // symbols FEC could not correct: lost traffic
    Name{"link_down_events_phy", "link_down_events"},               // the link went down
};

// The RDMA port's hw_counters (drivers/infiniband/hw/mlx5/counters.c): the DCQCN loop and RoCE loss.
constexpr std::array kRdma{
    Name{"np_cnp_sent", "cnp_sent"},                              // CNPs this NIC sent as notification point
    Name{"np_ecn_marked_roce_packets", "ecn_marked_rx"},          // RoCE packets received with ECN CE
    Name{"rp_cnp_handled", "cnp_handled"},                        // CNPs this NIC reacted to as reaction point
    Name{"rp_cnp_ignored", "cnp_ignored"},                        // CNPs it received and ignored
    Name{"out_of_sequence", "rdma_out_of_sequence"},              // packets received out of sequence
    Name{"packet_seq_err", "rdma_packet_seq_err"},                // NAKs received for a sequence error
    Name{"implied_nak_seq_err", "rdma_implied_nak_seq_err"},      // retransmissions implied by later ACKs
    Name{"local_ack_timeout_err", "rdma_local_ack_timeout_err"},  // ACK timeouts: the sender retransmitted
    Name{"duplicate_request", "rdma_duplicate_request"},          // requests received again: the peer retransmitted
    Name{"out_of_buffer", "rdma_out_of_buffer"},                  // packets dropped for lack of receive WQEs
};

/// "rx_prio3_pause" -> "rx_prio_pause" and 3; false for a name without "[rt]x_prio<0-7>_".
bool split_priority(std::string_view name, std::string& generic, int& priority) {
  for (std::string_view dir : {"rx_prio", "tx_prio"}) {
    if (!name.starts_with(dir) || name.size() < dir.size() + 2) continue;
    const char digit = name[dir.size()];
    if (digit < '0' || digit > '7' || name[dir.size() + 1] != '_') return false;
    generic = std::string(dir) + std::string(name.substr(dir.size() + 1));
    priority = digit - '0';
    return true;
  }
  return false;
}

}  // namespace

std::map<std::string, uint64_t> nic_counters(const std::vector<Statistic>& ethtool,
                                             const std::map<std::string, uint64_t>& rdma_hw_counters) {
  std::map<std::string, uint64_t> out;
  std::string generic;
  int priority = 0;
  for (const Statistic& s : ethtool) {
    // Some kernels spell a name with a trailing space ("tx_pause_storm_warning_events "): match trimmed.
    std::string_view name = s.name;
    while (name.ends_with(' ')) name.remove_suffix(1);
    if (split_priority(name, generic, priority)) {
      for (const Name& n : kPerPriority)
        if (generic == n.native) out[std::string(n.neutral) + "_" + std::to_string(priority)] = s.value;
      continue;
    }
    for (const Name& n : kPort)
      if (name == n.native) out[std::string(n.neutral)] = s.value;
  }
  for (const Name& n : kRdma)
    if (const auto it = rdma_hw_counters.find(std::string(n.native)); it != rdma_hw_counters.end())
      out[std::string(n.neutral)] = it->second;
  return out;
}

}  // namespace fabricctl

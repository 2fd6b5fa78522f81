// mlx5's ethtool statistics and RDMA hw_counters in neutral names. The names are mlx5's as the kernel
// defines them (en_stats.c, infiniband/hw/mlx5/counters.c; docs/counters-reference.md): a fixture, since
// no mlx5 NIC runs here; the ethtool reading itself is tested on a real veth (transport/ethtool_test.cpp).
#include "platform/linux/nic_counters.h"

#include <doctest/doctest.h>

using namespace fabricctl;

TEST_CASE("nic counters: mlx5's per-priority, port and RDMA counters in neutral names") {
  const std::vector<Statistic> ethtool{
      {"rx_packets", 9},  // not a counter health judges: left out
      {"rx_prio3_pause", 120},
      {"tx_prio3_pause", 7},
      {"rx_prio3_pause_duration", 5400},
      {"tx_prio3_pause_duration", 80},
      {"rx_prio3_pause_transition", 2},  // not mapped
      {"rx_prio0_discards", 4},
      {"rx_global_pause", 1},                 // link-level pause, not PFC: not mapped
      {"tx_pause_storm_warning_events ", 3},  // an older kernel's trailing space
      {"tx_pause_storm_error_events", 1},
      {"rx_discards_phy", 11},
      {"tx_discards_phy", 12},
      {"rx_crc_errors_phy", 13},
      {"rx_symbol_err_phy", 14},
      {"rx_corrected_bits_phy", 15},
      {"rx_pcs_symbol_err_phy", 16},
      {"link_down_events_phy", 2},
  };
  const std::map<std::string, uint64_t> rdma{{"np_cnp_sent", 40},        {"np_ecn_marked_roce_packets", 41},
                                             {"rp_cnp_handled", 42},     {"rp_cnp_ignored", 0},
                                             {"out_of_sequence", 5},     {"packet_seq_err", 6},
                                             {"implied_nak_seq_err", 7}, {"local_ack_timeout_err", 8},
                                             {"duplicate_request", 9},   {"out_of_buffer", 10},
                                             {"rx_read_requests", 99}};
  const std::map<std::string, uint64_t> want{{"pfc_rx_pause_3", 120},
                                             {"pfc_tx_pause_3", 7},
                                             {"pfc_rx_pause_duration_3", 5400},
                                             {"pfc_tx_pause_duration_3", 80},
                                             {"rx_discards_0", 4},
                                             {"pause_storm_warnings", 3},
                                             {"pause_storm_errors", 1},
                                             {"rx_discards", 11},
                                             {"tx_discards", 12},
                                             {"fcs_errors", 13},
                                             {"symbol_errors", 14},
                                             {"fec_corrected_bits", 15},
                                             {"fec_uncorrectable_symbols", 16},
                                             {"link_down_events", 2},
                                             {"cnp_sent", 40},
                                             {"ecn_marked_rx", 41},
                                             {"cnp_handled", 42},
                                             {"cnp_ignored", 0},
                                             {"rdma_out_of_sequence", 5},
                                             {"rdma_packet_seq_err", 6},
                                             {"rdma_implied_nak_seq_err", 7},
                                             {"rdma_local_ack_timeout_err", 8},
                                             {"rdma_duplicate_request", 9},
                                             {"rdma_out_of_buffer", 10}};
  CHECK(nic_counters(ethtool, rdma) == want);
}

TEST_CASE("nic counters: what a driver does not report is absent, never 0; priorities stay 0-7") {
  // A veth (drivers/net/veth.c): its peer's ifindex and XDP queue counters only.
  CHECK(nic_counters({{"peer_ifindex", 5}, {"rx_queue_0_xdp_packets", 0}}, {}).empty());
  CHECK(
      nic_counters({{"rx_prio8_pause", 1}, {"rx_prio_pause", 1}, {"rx_prio33_pause", 1}, {"tx_prio3", 1}}, {}).empty());
  CHECK(nic_counters({}, {{"np_cnp_sent", 1}}) == std::map<std::string, uint64_t>{{"cnp_sent", 1}});
}

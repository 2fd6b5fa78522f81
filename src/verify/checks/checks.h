// The check families; catalog.cpp joins them into the catalog in this order.
#pragma once

#include <string>
#include <vector>

#include "verify/check.h"

namespace fabricctl {

std::vector<Check> drift_checks();    // port.*: every desired field against the observed one
std::vector<Check> link_checks();     // link.*: both ends of every link agree, and agree with intent
std::vector<Check> path_checks();     // link.roce.class, link.cnp.class: where a packet class lands across a link
std::vector<Check> rdma_checks();     // rdma.*: RoCE v2 GID, port state, active MTU
std::vector<Check> cabling_checks();  // cabling.*: LLDP neighbour is the inventory's other end
std::vector<Check> nccl_checks();     // nccl.*: NCCL's defaults on a host put RoCE in the lossless class

/// "106 (DSCP 26 -> priority 3, lossless)": a ToS byte and where the host's DSCP map puts it.
std::string tos_text(const QosIntent& q, int tos);

/// When LLDP shows that the two ends of a link are not connected to each other: the cabling finding
/// that says so ("cabling.swapped host1:eth0~host1:eth1"), which link checks name as their cause.
/// Empty when LLDP agrees with the inventory or says nothing.
std::string miscabled_cause(const CheckContext& ctx, const LinkEnds& link);

}  // namespace fabricctl

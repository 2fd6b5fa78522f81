// The check families; catalog.cpp joins them into the catalog in this order.
#pragma once

#include <vector>

#include "verify/check.h"

namespace fabricctl {

std::vector<Check> drift_checks();    // port.*: every desired field against the observed one
std::vector<Check> link_checks();     // link.*: both ends of every link agree, and agree with intent
std::vector<Check> rdma_checks();     // rdma.*: RoCE v2 GID, port state, active MTU
std::vector<Check> cabling_checks();  // cabling.*: LLDP neighbour is the inventory's other end

}  // namespace fabricctl

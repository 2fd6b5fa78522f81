// nccl.conf as NCCL reads it: every line holding '=' is a variable (NCCL's setEnvFile has no comment
// syntax), so the file sets exactly fabricctl's NCCL variables, and the GID index only when pinned.
#include <doctest/doctest.h>

#include <map>
#include <sstream>

#include "fixtures.h"
#include "platform/linux/nic_state.h"
#include "platform/platform.h"

using namespace fabricctl;

namespace {

/// The variables NCCL sets from `conf`, as its setEnvFile() does: NAME up to the first '=', the rest
/// the value, on every line that holds one; the other lines are skipped.
std::map<std::string, std::string> nccl_reads(const std::string& conf) {
  std::map<std::string, std::string> vars;
  std::istringstream in(conf);
  for (std::string line; std::getline(in, line);)
    if (const size_t eq = line.find('='); eq != std::string::npos)
      vars.emplace(line.substr(0, eq), line.substr(eq + 1));
  return vars;
}

}  // namespace

TEST_CASE("nccl.conf: NCCL reads only fabricctl's variables, and no GID index unless the profile pins it") {
  DeviceDesired host = test::example_host();
  const std::string conf = linux_nccl_conf(host, linux_host::nic_state(host));
  CHECK(conf.find("# RoCE with ToS 106 (DSCP 26 << 2 | ECT(0)), priority 3 (lossless)") != std::string::npos);
  CHECK(nccl_reads(conf) ==
        std::map<std::string, std::string>{{"NCCL_IB_HCA", "=mlx5_0:1,mlx5_1:1"}, {"NCCL_IB_TC", "106"}});
  host.qos.nccl_gid_index = 5;
  const std::string pinned = linux_nccl_conf(host, linux_host::nic_state(host));
  CHECK(nccl_reads(pinned).at("NCCL_IB_GID_INDEX") == "5");
  CHECK(nccl_reads(pinned).size() == 3);
}

TEST_CASE("nccl.conf: a profile name with '=' does not become a variable") {
  DeviceDesired host = test::example_host();
  host.profile = "a=b";
  CHECK(nccl_reads(linux_nccl_conf(host, linux_host::nic_state(host))).size() == 2);
}

#!/bin/sh
# fabricctl: RoCE NIC state of host2 (profile roce-lossless), 4 port(s).
# nic-state.json beside this file holds the same desired state as data. Review, then run as root on
# the host. Safe to re-run: dcb keeps values that already match, and sysfs/configfs values are written
# only when they differ.
#
# Needs: iproute2 ip and dcb; the mlx5 driver with the MLNX_OFED/DOCA-OFED ecn sysfs
# (/sys/class/net/<if>/ecn) and traffic class override (/sys/class/infiniband/<dev>/tc); rdma_cm
# with configfs mounted on /sys/kernel/config.
# FABRICCTL_ROOT, when set, prefixes every /sys and /etc path (for tests against a fake tree).
set -eu

root=${FABRICCTL_ROOT:-}

die() {
  echo "apply.sh: $*" >&2
  exit 1
}

require_cmd() {
  command -v "$1" >/dev/null 2>&1 || die "$1: command not found"
}

require_dir() {
  [ -d "$root$1" ] || die "$1: missing ($2)"
}

# set_sysfs PATH VALUE: writes VALUE to PATH only when PATH reads differently. Some mlx5 versions
# refuse (EPERM) to enable an ecn knob that is already enabled.
set_sysfs() {
  [ -f "$root$1" ] || die "$1: missing"
  current=$(cat "$root$1")
  if [ "$current" != "$2" ]; then
    printf '%s\n' "$2" >"$root$1" || die "$1: cannot write $2"
  fi
}

# set_tclass PATH TOS: MLNX_OFED's traffic_class shows "Global tclass=N" (then any per-address rules)
# but stores a bare N (mlx5 main_ext.c), so the shown override is compared, and TOS written only when
# it differs.
set_tclass() {
  [ -f "$root$1" ] || die "$1: missing"
  current=$(sed -n 1p "$root$1")
  if [ "$current" != "Global tclass=$2" ]; then
    printf '%s\n' "$2" >"$root$1" || die "$1: cannot write $2"
  fi
}

# make_dir PATH: creates a configfs directory; rdma_cm fills in ports/<n>/ for an RDMA device.
make_dir() {
  mkdir -p "$root$1"
}

# check_app DEV [DSCP:PRIO...]: dcb's app replace exits 0 even when adding an entry failed (iproute2
# dcb_app.c), so the table is read back: a missing entry, or any entry left when none is wanted,
# stops the script.
check_app() {
  dev=$1
  shift
  table=$(dcb -j app show dev "$dev" dscp-prio) || die "$dev: cannot read the DSCP app table"
  table=$(printf '%s' "$table" | tr -d ' \n')
  if [ $# -eq 0 ]; then
    case "$table" in *"[["*) die "$dev: DSCP app entries left after dcb app flush" ;; esac
  fi
  for pair in "$@"; do
    # iproute2 6.1 prints [dscp,prio]; later versions add a third member: [dscp,prio,"..."].
    case "$table" in
      *"[${pair%%:*},${pair#*:}]"* | *"[${pair%%:*},${pair#*:},"*) ;;
      *) die "$dev: DSCP $pair missing from the app table after dcb app replace" ;;
    esac
  done
}

# set_conf FILE KEY... -- LINE...: replaces the lines of KEYs in FILE with LINEs and keeps every other
# line; writes (through a temporary file and a rename) only when the content changes.
set_conf() {
  file=$root$1
  shift
  drop=
  while [ "$1" != -- ]; do
    drop="$drop -e ^$1="
    shift
  done
  shift
  tmp=$(mktemp "$file.XXXXXX") || die "$file: cannot create a temporary file beside it"
  {
    if [ -f "$file" ]; then grep -v $drop "$file" || true; fi
    printf '%s\n' "$@"
  } >"$tmp" || die "$file: cannot write"
  if [ -f "$file" ] && cmp -s "$tmp" "$file"; then
    rm -f "$tmp"
  else
    chmod 644 "$tmp" && mv "$tmp" "$file" || die "$file: cannot replace"
  fi
}

# Pre-flight: stop before changing anything if a tool or kernel interface is missing.
require_cmd ip
require_cmd dcb
require_dir '/sys/class/net/ens1f0np0' 'no such network interface'
require_dir '/sys/class/net/ens1f0np0/ecn' 'no mlx5 ecn sysfs: needs the MLNX_OFED/DOCA-OFED mlx5 driver'
require_dir '/sys/class/infiniband/mlx5_0/tc/1' 'no RDMA traffic class override: needs the MLNX_OFED/DOCA-OFED mlx5 driver'
require_dir '/sys/class/net/ens2f0np0' 'no such network interface'
require_dir '/sys/class/net/ens2f0np0/ecn' 'no mlx5 ecn sysfs: needs the MLNX_OFED/DOCA-OFED mlx5 driver'
require_dir '/sys/class/infiniband/mlx5_1/tc/1' 'no RDMA traffic class override: needs the MLNX_OFED/DOCA-OFED mlx5 driver'
require_dir '/sys/class/net/ens3f0np0' 'no such network interface'
require_dir '/sys/class/net/ens3f0np0/ecn' 'no mlx5 ecn sysfs: needs the MLNX_OFED/DOCA-OFED mlx5 driver'
require_dir '/sys/class/infiniband/mlx5_2/tc/1' 'no RDMA traffic class override: needs the MLNX_OFED/DOCA-OFED mlx5 driver'
require_dir '/sys/class/net/ens4f0np0' 'no such network interface'
require_dir '/sys/class/net/ens4f0np0/ecn' 'no mlx5 ecn sysfs: needs the MLNX_OFED/DOCA-OFED mlx5 driver'
require_dir '/sys/class/infiniband/mlx5_3/tc/1' 'no RDMA traffic class override: needs the MLNX_OFED/DOCA-OFED mlx5 driver'
require_dir '/sys/kernel/config/rdma_cm' 'run: modprobe rdma_cm; mount -t configfs none /sys/kernel/config'

# ---- ens1f0np0: rail 0, cabled to leaf1 Ethernet8, 400000 Mb/s expected, RDMA mlx5_0 port 1

# MTU 9000 (L3). The RoCE active MTU follows it: 4096 needs at least 4192 (96 bytes of RoCE v2 headers).
ip link set dev 'ens1f0np0' mtu 9000

# ETS: TC 0 (priorities 0, 1, 2, 4, 5 and 7) ets 50%, TC 3 (priority 3) ets 50%, TC 6 (priority 6) strict.
# TCs no priority maps to are strict with 0%; the ets bandwidths sum to 100.
dcb ets set dev 'ens1f0np0' \
  prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0 \
  tc-tsa 0:ets 1:strict 2:strict 3:ets 4:strict 5:strict 6:strict 7:strict \
  tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0

# PFC (lossless) on priority 3. mlx5 flaps the link when the PFC priorities change.
# delay: the cable length in metres (3 m), as mlx5 reads it (dcb-pfc(8) documents bits). mlx5
# uses it only with manually sized buffers (dcb buffer); with the firmware's it changes nothing.
# The switch end of this cable needs about 77824 bytes of PFC headroom (fabricctl's estimate).
dcb pfc set dev 'ens1f0np0' prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off delay 3

# Trust DSCP: an app entry for each of the 64 DSCP values, as mlnx_qos --trust dscp makes;
# RoCE DSCP 26 -> priority 3, CNP DSCP 48 -> priority 6. mlx5 trusts DSCP from the first entry on.
dcb app replace dev 'ens1f0np0' dscp-prio \
  0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 \
  8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 \
  16:0 17:0 18:0 19:0 20:0 21:0 22:0 23:0 \
  24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 \
  32:0 33:0 34:0 35:0 36:0 37:0 38:0 39:0 \
  40:0 41:0 42:0 43:0 44:0 45:0 46:0 47:0 \
  48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 \
  56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0
check_app 'ens1f0np0' \
  0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 \
  8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 \
  16:0 17:0 18:0 19:0 20:0 21:0 22:0 23:0 \
  24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 \
  32:0 33:0 34:0 35:0 36:0 37:0 38:0 39:0 \
  40:0 41:0 42:0 43:0 44:0 45:0 46:0 47:0 \
  48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 \
  56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0

# RoCE defaults for rdma_cm connections on mlx5_0 port 1: RoCE v2, ToS 106 = DSCP 26 << 2 | ECT(0).
make_dir '/sys/kernel/config/rdma_cm/mlx5_0'
set_sysfs '/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode' 'RoCE v2'
set_sysfs '/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos' 106
# The same ToS for every queue pair of the port, those made without rdma_cm (NCCL's) too.
set_tclass '/sys/class/infiniband/mlx5_0/tc/1/traffic_class' 106

# DCQCN on priority 3, off on the others.
# The profile sets no DCQCN parameter: the NIC firmware's values stay.
# Notification point: CNPs leave with DSCP 48 and priority 6.
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp' 48
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio' 6
# Reaction point (sender) per priority.
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/0' 0
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/1' 0
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/2' 0
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/3' 1
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/4' 0
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/5' 0
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/6' 0
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/7' 0
# Notification point (receiver) per priority.
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_np/enable/0' 0
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_np/enable/1' 0
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_np/enable/2' 0
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_np/enable/3' 1
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_np/enable/4' 0
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_np/enable/5' 0
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_np/enable/6' 0
set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_np/enable/7' 0

# ---- ens2f0np0: rail 1, cabled to leaf2 Ethernet2/1, 400000 Mb/s expected, RDMA mlx5_1 port 1

# MTU 9000 (L3). The RoCE active MTU follows it: 4096 needs at least 4192 (96 bytes of RoCE v2 headers).
ip link set dev 'ens2f0np0' mtu 9000

# ETS: TC 0 (priorities 0, 1, 2, 4, 5 and 7) ets 50%, TC 3 (priority 3) ets 50%, TC 6 (priority 6) strict.
# TCs no priority maps to are strict with 0%; the ets bandwidths sum to 100.
dcb ets set dev 'ens2f0np0' \
  prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0 \
  tc-tsa 0:ets 1:strict 2:strict 3:ets 4:strict 5:strict 6:strict 7:strict \
  tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0

# PFC (lossless) on priority 3. mlx5 flaps the link when the PFC priorities change.
# delay: the cable length in metres (3 m), as mlx5 reads it (dcb-pfc(8) documents bits). mlx5
# uses it only with manually sized buffers (dcb buffer); with the firmware's it changes nothing.
# The switch end of this cable needs about 77824 bytes of PFC headroom (fabricctl's estimate).
dcb pfc set dev 'ens2f0np0' prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off delay 3

# Trust DSCP: an app entry for each of the 64 DSCP values, as mlnx_qos --trust dscp makes;
# RoCE DSCP 26 -> priority 3, CNP DSCP 48 -> priority 6. mlx5 trusts DSCP from the first entry on.
dcb app replace dev 'ens2f0np0' dscp-prio \
  0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 \
  8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 \
  16:0 17:0 18:0 19:0 20:0 21:0 22:0 23:0 \
  24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 \
  32:0 33:0 34:0 35:0 36:0 37:0 38:0 39:0 \
  40:0 41:0 42:0 43:0 44:0 45:0 46:0 47:0 \
  48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 \
  56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0
check_app 'ens2f0np0' \
  0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 \
  8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 \
  16:0 17:0 18:0 19:0 20:0 21:0 22:0 23:0 \
  24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 \
  32:0 33:0 34:0 35:0 36:0 37:0 38:0 39:0 \
  40:0 41:0 42:0 43:0 44:0 45:0 46:0 47:0 \
  48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 \
  56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0

# RoCE defaults for rdma_cm connections on mlx5_1 port 1: RoCE v2, ToS 106 = DSCP 26 << 2 | ECT(0).
make_dir '/sys/kernel/config/rdma_cm/mlx5_1'
set_sysfs '/sys/kernel/config/rdma_cm/mlx5_1/ports/1/default_roce_mode' 'RoCE v2'
set_sysfs '/sys/kernel/config/rdma_cm/mlx5_1/ports/1/default_roce_tos' 106
# The same ToS for every queue pair of the port, those made without rdma_cm (NCCL's) too.
set_tclass '/sys/class/infiniband/mlx5_1/tc/1/traffic_class' 106

# DCQCN on priority 3, off on the others.
# The profile sets no DCQCN parameter: the NIC firmware's values stay.
# Notification point: CNPs leave with DSCP 48 and priority 6.
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_np/cnp_dscp' 48
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_np/cnp_802p_prio' 6
# Reaction point (sender) per priority.
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_rp/enable/0' 0
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_rp/enable/1' 0
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_rp/enable/2' 0
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_rp/enable/3' 1
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_rp/enable/4' 0
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_rp/enable/5' 0
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_rp/enable/6' 0
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_rp/enable/7' 0
# Notification point (receiver) per priority.
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_np/enable/0' 0
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_np/enable/1' 0
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_np/enable/2' 0
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_np/enable/3' 1
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_np/enable/4' 0
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_np/enable/5' 0
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_np/enable/6' 0
set_sysfs '/sys/class/net/ens2f0np0/ecn/roce_np/enable/7' 0

# ---- ens3f0np0: rail 2, cabled to leaf3 Ethernet1/2, 400000 Mb/s expected, RDMA mlx5_2 port 1

# MTU 9000 (L3). The RoCE active MTU follows it: 4096 needs at least 4192 (96 bytes of RoCE v2 headers).
ip link set dev 'ens3f0np0' mtu 9000

# ETS: TC 0 (priorities 0, 1, 2, 4, 5 and 7) ets 50%, TC 3 (priority 3) ets 50%, TC 6 (priority 6) strict.
# TCs no priority maps to are strict with 0%; the ets bandwidths sum to 100.
dcb ets set dev 'ens3f0np0' \
  prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0 \
  tc-tsa 0:ets 1:strict 2:strict 3:ets 4:strict 5:strict 6:strict 7:strict \
  tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0

# PFC (lossless) on priority 3. mlx5 flaps the link when the PFC priorities change.
# delay: the cable length in metres (3 m), as mlx5 reads it (dcb-pfc(8) documents bits). mlx5
# uses it only with manually sized buffers (dcb buffer); with the firmware's it changes nothing.
# The switch end of this cable needs about 77824 bytes of PFC headroom (fabricctl's estimate).
dcb pfc set dev 'ens3f0np0' prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off delay 3

# Trust DSCP: an app entry for each of the 64 DSCP values, as mlnx_qos --trust dscp makes;
# RoCE DSCP 26 -> priority 3, CNP DSCP 48 -> priority 6. mlx5 trusts DSCP from the first entry on.
dcb app replace dev 'ens3f0np0' dscp-prio \
  0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 \
  8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 \
  16:0 17:0 18:0 19:0 20:0 21:0 22:0 23:0 \
  24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 \
  32:0 33:0 34:0 35:0 36:0 37:0 38:0 39:0 \
  40:0 41:0 42:0 43:0 44:0 45:0 46:0 47:0 \
  48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 \
  56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0
check_app 'ens3f0np0' \
  0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 \
  8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 \
  16:0 17:0 18:0 19:0 20:0 21:0 22:0 23:0 \
  24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 \
  32:0 33:0 34:0 35:0 36:0 37:0 38:0 39:0 \
  40:0 41:0 42:0 43:0 44:0 45:0 46:0 47:0 \
  48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 \
  56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0

# RoCE defaults for rdma_cm connections on mlx5_2 port 1: RoCE v2, ToS 106 = DSCP 26 << 2 | ECT(0).
make_dir '/sys/kernel/config/rdma_cm/mlx5_2'
set_sysfs '/sys/kernel/config/rdma_cm/mlx5_2/ports/1/default_roce_mode' 'RoCE v2'
set_sysfs '/sys/kernel/config/rdma_cm/mlx5_2/ports/1/default_roce_tos' 106
# The same ToS for every queue pair of the port, those made without rdma_cm (NCCL's) too.
set_tclass '/sys/class/infiniband/mlx5_2/tc/1/traffic_class' 106

# DCQCN on priority 3, off on the others.
# The profile sets no DCQCN parameter: the NIC firmware's values stay.
# Notification point: CNPs leave with DSCP 48 and priority 6.
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_np/cnp_dscp' 48
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_np/cnp_802p_prio' 6
# Reaction point (sender) per priority.
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_rp/enable/0' 0
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_rp/enable/1' 0
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_rp/enable/2' 0
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_rp/enable/3' 1
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_rp/enable/4' 0
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_rp/enable/5' 0
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_rp/enable/6' 0
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_rp/enable/7' 0
# Notification point (receiver) per priority.
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_np/enable/0' 0
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_np/enable/1' 0
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_np/enable/2' 0
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_np/enable/3' 1
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_np/enable/4' 0
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_np/enable/5' 0
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_np/enable/6' 0
set_sysfs '/sys/class/net/ens3f0np0/ecn/roce_np/enable/7' 0

# ---- ens4f0np0: rail 3, cabled to leaf4 et-0/0/1, 400000 Mb/s expected, RDMA mlx5_3 port 1

# MTU 9000 (L3). The RoCE active MTU follows it: 4096 needs at least 4192 (96 bytes of RoCE v2 headers).
ip link set dev 'ens4f0np0' mtu 9000

# ETS: TC 0 (priorities 0, 1, 2, 4, 5 and 7) ets 50%, TC 3 (priority 3) ets 50%, TC 6 (priority 6) strict.
# TCs no priority maps to are strict with 0%; the ets bandwidths sum to 100.
dcb ets set dev 'ens4f0np0' \
  prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0 \
  tc-tsa 0:ets 1:strict 2:strict 3:ets 4:strict 5:strict 6:strict 7:strict \
  tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0

# PFC (lossless) on priority 3. mlx5 flaps the link when the PFC priorities change.
# delay: the cable length in metres (3 m), as mlx5 reads it (dcb-pfc(8) documents bits). mlx5
# uses it only with manually sized buffers (dcb buffer); with the firmware's it changes nothing.
# The switch end of this cable needs about 77824 bytes of PFC headroom (fabricctl's estimate).
dcb pfc set dev 'ens4f0np0' prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off delay 3

# Trust DSCP: an app entry for each of the 64 DSCP values, as mlnx_qos --trust dscp makes;
# RoCE DSCP 26 -> priority 3, CNP DSCP 48 -> priority 6. mlx5 trusts DSCP from the first entry on.
dcb app replace dev 'ens4f0np0' dscp-prio \
  0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 \
  8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 \
  16:0 17:0 18:0 19:0 20:0 21:0 22:0 23:0 \
  24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 \
  32:0 33:0 34:0 35:0 36:0 37:0 38:0 39:0 \
  40:0 41:0 42:0 43:0 44:0 45:0 46:0 47:0 \
  48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 \
  56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0
check_app 'ens4f0np0' \
  0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 \
  8:0 9:0 10:0 11:0 12:0 13:0 14:0 15:0 \
  16:0 17:0 18:0 19:0 20:0 21:0 22:0 23:0 \
  24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 \
  32:0 33:0 34:0 35:0 36:0 37:0 38:0 39:0 \
  40:0 41:0 42:0 43:0 44:0 45:0 46:0 47:0 \
  48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 \
  56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0

# RoCE defaults for rdma_cm connections on mlx5_3 port 1: RoCE v2, ToS 106 = DSCP 26 << 2 | ECT(0).
make_dir '/sys/kernel/config/rdma_cm/mlx5_3'
set_sysfs '/sys/kernel/config/rdma_cm/mlx5_3/ports/1/default_roce_mode' 'RoCE v2'
set_sysfs '/sys/kernel/config/rdma_cm/mlx5_3/ports/1/default_roce_tos' 106
# The same ToS for every queue pair of the port, those made without rdma_cm (NCCL's) too.
set_tclass '/sys/class/infiniband/mlx5_3/tc/1/traffic_class' 106

# DCQCN on priority 3, off on the others.
# The profile sets no DCQCN parameter: the NIC firmware's values stay.
# Notification point: CNPs leave with DSCP 48 and priority 6.
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_np/cnp_dscp' 48
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_np/cnp_802p_prio' 6
# Reaction point (sender) per priority.
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_rp/enable/0' 0
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_rp/enable/1' 0
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_rp/enable/2' 0
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_rp/enable/3' 1
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_rp/enable/4' 0
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_rp/enable/5' 0
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_rp/enable/6' 0
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_rp/enable/7' 0
# Notification point (receiver) per priority.
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_np/enable/0' 0
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_np/enable/1' 0
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_np/enable/2' 0
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_np/enable/3' 1
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_np/enable/4' 0
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_np/enable/5' 0
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_np/enable/6' 0
set_sysfs '/sys/class/net/ens4f0np0/ecn/roce_np/enable/7' 0

# ---- NCCL defaults (nccl.conf beside this script): NCCL makes its queue pairs without rdma_cm, so
# rdma_cm's ToS does not reach them. The lines of the keys fabricctl owns are replaced; others stay.
set_conf '/etc/nccl.conf' NCCL_IB_HCA NCCL_IB_TC NCCL_IB_GID_INDEX -- \
  'NCCL_IB_HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1' \
  'NCCL_IB_TC=106'

echo 'apply.sh: host2: RoCE NIC state applied to 4 port(s)'

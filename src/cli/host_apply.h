// `fabricctl host apply|confirm|rollback`: the host's side of the Linux transaction (platform/linux/apply.cpp).
// apply reads the host as `host collect` does, computes the change (platform/linux/host_changes.h) against
// the desired NIC state on stdin and makes it: a rollback record of the previous values first
// (ROOT/var/lib/fabricctl/transactions/<ID>.json, 0600), a revert timer (a detached `host rollback
// --transaction ID --after S`, its pid in the record), then only what differs. A failure midway restores
// what was changed. confirm stops the timer and drops the record; rollback restores the record now.
// Every step holds the transaction's lock (<ID>.lock, flock), so the timer never races a confirm.
#pragma once

#include <filesystem>
#include <string>

namespace fabricctl {

struct HostTxOptions {
  std::string device;
  std::string transaction;  // fabricctl-YYYYMMDDTHHMMSS-xxxxxx ([a-z0-9T-])
  int confirm_timeout_s = 0;
  int after_s = -1;  // rollback: wait this long first (the revert timer); -1: now
  bool dry_run = false;
  std::filesystem::path root = "/";
  std::filesystem::path dcb_from;  // DCB replies as hex dumps (the lab's stand-in NIC): read and rewritten
  std::string lldp_socket;         // accepted, unused: the lab's wrapper appends it to every host command
  std::string self;                // this program, for the revert timer (/proc/self/exe)
};

/// Exit status: 0 done (dry run: nothing would change), 1 (dry run: something would), 2 bad input, 3 a
/// change failed (restored). Messages go to stdout (the change lines) and stderr (errors).
int host_apply(const HostTxOptions& o, const std::string& nic_state_json);
int host_confirm(const HostTxOptions& o);
int host_rollback(const HostTxOptions& o);

}  // namespace fabricctl

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

namespace fabricctl::ops {

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

enum class HostTxStatus {
  done,          // made (dry run: nothing would change)
  would_change,  // dry run: something would change
  invalid,       // bad input: nothing was touched
  failed,        // a change failed (what was changed before it is restored), or the record/lock did
};

struct HostTxResult {
  HostTxStatus status = HostTxStatus::done;
  std::string out;    // what was done, a line each: the changes made, "confirmed ID", ...
  std::string error;  // why it failed or was refused ("" when done)
};

HostTxResult host_apply(const HostTxOptions& o, const std::string& nic_state_json);
HostTxResult host_confirm(const HostTxOptions& o);
HostTxResult host_rollback(const HostTxOptions& o);
/// Re-arms a staged transaction's revert timer for o.confirm_timeout_s from now (the old one stopped).
HostTxResult host_extend(const HostTxOptions& o);
/// The transactions staged on this host and not yet confirmed or rolled back, one line each:
/// "<name> <when its timer reverts it, seconds since the epoch; 0 if unknown>". Nothing: none.
HostTxResult host_pending(const HostTxOptions& o);

}  // namespace fabricctl::ops

// Juniper Junos: what plan changes, as `delete` and `set` statements for one `load set` (change.cpp).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "platform/junos/config.h"

namespace fabricctl::junos {

/// The statements that make `running` hold `desired`: for each object fabricctl owns (a FABRICCTL-
/// class, classifier, congestion notification profile, drop profile, scheduler or scheduler map) whose
/// statements differ, `delete` of the object then `set` of each desired statement; for each port of
/// `desired`, its class-of-service bindings and media MTU set where they differ and deleted where the
/// intent has none. A statement `deactivated` (at or under an object or leaf fabricctl sets) is
/// deleted and set again: a `set` alone would leave it inactive. Statements fabricctl does not own are never touched.
/// Deletes come first. Empty: no change. Each line begins with its verb: "delete class-of-service schedulers
/// FABRICCTL-TC3".
std::vector<std::string> difference(const Statements& desired, const Statements& running);
/// The same for the ports `ports` (the rollback's inverse: the ports of the change, whatever the
/// statements it restores name).
std::vector<std::string> difference(const Statements& desired, const Statements& running,
                                    const std::set<std::string, std::less<>>& ports,
                                    const std::vector<std::string>& deactivated = {});

/// The statements that undo `change` (its `delete`/`set` lines) on a switch that held `base`: for each
/// object or leaf the change touched, `delete` of it, then `set` of its statements in `base`. Built from
/// the change as sent, so that it restores what was touched whatever the intent says now.
std::vector<std::string> inverse(const Statements& base, const std::vector<std::string>& change);

/// The ports whose bindings or MTU `statements` set.
std::set<std::string, std::less<>> ports_of(const Statements& statements);

}  // namespace fabricctl::junos

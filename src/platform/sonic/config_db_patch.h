// SONiC adapter, apply side: the RFC 6902 patch for `config apply-patch` that makes a switch's
// CONFIG_DB hold fabricctl's slice, computed as the difference from a base document.
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>
#include <vector>

namespace fabricctl::sonic {

/// The RFC 6902 patch that turns `base` (the switch's CONFIG_DB: its running config at apply time,
/// default_config_db() offline) into a CONFIG_DB that holds `desired` (config_db()), touching only
/// what fabricctl owns:
/// - map tables, SCHEDULER and WRED_PROFILE: the entries fabricctl names (ROCE, ROCE_TC<n>,
///   ROCE_LOSSLESS, ROCE_ECN_TC<n>, ROCE_NO_ECN), each added, replaced or removed whole;
/// - PORT_QOS_MAP, QUEUE, BUFFER_QUEUE and PFC_WD: the entries of the device's ports ("<port>" and
///   "<port>|<n>") whole; so a queue or watchdog fabricctl no longer renders is removed instead of
///   left pointing at a removed scheduler;
/// - BUFFER_PG: only the entries `desired` lists (the dynamic model's lossless PGs, the stale template PG), whole;
/// - PORT, CABLE_LENGTH, PFC_WD|GLOBAL and PORT_QOS_MAP|global: only the fields `desired` sets (mtu;
///   the port's length; POLL_INTERVAL; the switch-wide DSCP map), never removed, so SONiC's other
///   fields there survive.
/// A null entry in `desired` is one fabricctl deletes: removed where `base` has it. A table `base`
/// lacks is added whole. Operations follow config_db.json's table order, within a table `desired`'s
/// order, then removals in `base`'s order. The device's ports are desired's PORT keys.
nlohmann::ordered_json config_db_patch(const nlohmann::ordered_json& base, const nlohmann::ordered_json& desired);

/// The tables config_db_patch() can touch, in its order: what apply reads of the running CONFIG_DB
/// (the collector keeps them; a plan's base is them).
std::vector<std::string_view> patched_tables();

/// Whether fabricctl owns only the fields it sets in entry `key` of `table` (PORT, CABLE_LENGTH,
/// PFC_WD|GLOBAL, PORT_QOS_MAP|global), not the entry whole.
bool owns_fields_only(std::string_view table, std::string_view key);

}  // namespace fabricctl::sonic

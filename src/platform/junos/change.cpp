// The difference between the statements fabricctl wants and those running, by object. A Junos object
// (a scheduler, a profile) is compared whole: statements printed one member a line and statements
// written in one line (`class X queue-num 4 no-loss pfc-priority 3`, `fill-level [ 55 90 ]`) compare
// alike. An object that differs is deleted and set again in the same commit, which Junos applies as the
// difference between the two configurations.
#include "platform/junos/change.h"

#include <algorithm>
#include <map>
#include <set>

#include "platform/cli_text.h"
#include "util/text.h"

namespace fabricctl::junos {
namespace {

using Words = std::vector<std::string_view>;

std::string joined(const Words& w, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to && i < w.size(); ++i) {
    if (!out.empty()) out += ' ';
    out += w[i];
  }
  return out;
}

/// The object a statement belongs to, and whether it is one of fabricctl's own (a FABRICCTL- name);
/// for a port's binding or MTU, the leaf (the statement without its value). "" when it is neither.
struct Key {
  std::string path;
  bool object = false;  // compared and replaced whole
  std::string port;     // the port of a binding or MTU leaf
};

Key key_of(const Words& w) {
  if (w.size() >= 4 && w[0] == "interfaces" && w[2] == "mtu") return {joined(w, 0, 3), false, std::string(w[1])};
  if (w.size() < 3 || w[0] != "class-of-service") return {};
  auto owned = [](std::string_view name) { return name.rfind(kOwnedPrefix, 0) == 0; };
  if (w[1] == "forwarding-classes" && w.size() >= 4 && w[2] == "class")
    return owned(w[3]) ? Key{joined(w, 0, 4), true, ""} : Key{};
  if (w[1] == "classifiers" && w.size() >= 4) return owned(w[3]) ? Key{joined(w, 0, 4), true, ""} : Key{};
  if (w[1] == "congestion-notification-profile" || w[1] == "drop-profiles" || w[1] == "schedulers" ||
      w[1] == "scheduler-maps")
    return owned(w[2]) ? Key{joined(w, 0, 3), true, ""} : Key{};
  if (w[1] == "interfaces" && w.size() == 5 && (w[3] == "congestion-notification-profile" || w[3] == "scheduler-map"))
    return {joined(w, 0, 4), false, std::string(w[2])};
  // The two classifier kinds fabricctl sets; another kind on the unit (dscp-ipv6, exp) is the site's.
  if (w[1] == "interfaces" && w.size() == 8 && w[3] == "unit" && w[4] == "0" && w[5] == "classifiers" &&
      (w[6] == "dscp" || w[6] == "ieee-802.1"))
    return {joined(w, 0, 7), false, std::string(w[2])};
  return {};
}

/// A statement as leaves: `[ a b ]` lists and the forwarding class one-liner split one value a statement.
std::vector<std::string> leaves(const Words& w) {
  std::vector<std::string> out;
  const auto open = std::find(w.begin(), w.end(), "[");
  if (open != w.end()) {
    const std::string head = joined(w, 0, static_cast<size_t>(open - w.begin()));
    for (auto it = open + 1; it != w.end() && *it != "]"; ++it) out.push_back(head + " " + std::string(*it));
    return out;
  }
  if (w.size() > 4 && w[1] == "forwarding-classes") {
    const std::string head = joined(w, 0, 4);
    for (size_t i = 4; i < w.size(); ++i) {
      const bool valued = w[i] != "no-loss" && i + 1 < w.size();
      out.push_back(head + " " + std::string(w[i]) + (valued ? " " + std::string(w[i + 1]) : ""));
      if (valued) ++i;
    }
    return out;
  }
  out.push_back(joined(w, 0, w.size()));
  return out;
}

struct Side {
  std::map<std::string, std::set<std::string>> content;   // key -> its leaves
  std::map<std::string, std::vector<std::string>> lines;  // key -> its statements, as written
  std::vector<std::string> order;                         // keys, first seen first
};

Side side(const Statements& statements, const std::set<std::string, std::less<>>* ports) {
  Side s;
  for (const std::string& st : statements) {
    const Words w = words_of(st);
    const Key k = key_of(w);
    if (k.path.empty()) continue;
    if (!k.object && ports && !ports->count(k.port)) continue;  // a port fabricctl does not manage
    if (!s.content.count(k.path)) s.order.push_back(k.path);
    for (std::string& leaf : leaves(w)) s.content[k.path].insert(std::move(leaf));
    s.lines[k.path].push_back(st);
  }
  return s;
}

}  // namespace

std::set<std::string, std::less<>> ports_of(const Statements& statements) {
  std::set<std::string, std::less<>> ports;
  for (const std::string& st : statements) {
    const Key k = key_of(words_of(st));
    if (!k.port.empty()) ports.insert(k.port);
  }
  return ports;
}

std::vector<std::string> difference(const Statements& desired, const Statements& running) {
  return difference(desired, running, ports_of(desired));
}

std::vector<std::string> inverse(const Statements& base, const std::vector<std::string>& change) {
  std::vector<std::string> keys;
  for (const std::string& line : change) {
    const Words w = words_of(line);
    if (w.size() < 2 || (w[0] != "set" && w[0] != "delete")) continue;
    const Words rest(w.begin() + 1, w.end());
    // A delete names its key already; a set's statement has one.
    std::string key = w[0] == "delete" ? joined(rest, 0, rest.size()) : key_of(rest).path;
    if (!key.empty() && std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(std::move(key));
  }
  std::vector<std::string> out;
  out.reserve(keys.size());
  for (const std::string& key : keys) out.push_back("delete " + key);
  for (const std::string& st : base)
    for (const std::string& key : keys)
      if (st.rfind(key, 0) == 0 && (st.size() == key.size() || st[key.size()] == ' ')) {
        out.push_back("set " + st);
        break;
      }
  return out;
}

std::vector<std::string> difference(const Statements& desired, const Statements& running,
                                    const std::set<std::string, std::less<>>& ports,
                                    const std::vector<std::string>& deactivated) {
  // A key with a deactivated statement at or under it: not in effect as it stands.
  auto inactive = [&](const std::string& key) {
    return std::any_of(deactivated.begin(), deactivated.end(), [&](const std::string& path) {
      return path.rfind(key, 0) == 0 && (path.size() == key.size() || path[key.size()] == ' ');
    });
  };
  const Side want = side(desired, &ports), have = side(running, &ports);
  std::vector<std::string> deletes, sets;
  for (const std::string& key : have.order) {
    const auto w = want.content.find(key);
    if (w != want.content.end() && w->second == have.content.at(key) && !inactive(key)) continue;
    const bool object = key_of(words_of(key)).object;
    // An object is replaced whole; a leaf the intent sets is replaced by its `set`, one it lacks deleted.
    // A unit's classifier of a kind is a list in Junos's schema (a second `set` adds a second
    // classifier; QFXC:4355-4401): it is deleted before its new value is set.
    const bool list = key.find(" classifiers ") != std::string::npos;
    if (object || list || inactive(key) || w == want.content.end()) deletes.push_back("delete " + key);
  }
  for (const std::string& key : want.order) {
    const auto h = have.content.find(key);
    if (h != have.content.end() && h->second == want.content.at(key) && !inactive(key)) continue;
    // What is deactivated is not in what was read: deleted here, so that the set makes it active.
    if (inactive(key) && std::find(deletes.begin(), deletes.end(), "delete " + key) == deletes.end())
      deletes.push_back("delete " + key);
    for (const std::string& st : want.lines.at(key)) sets.push_back("set " + st);
  }
  deletes.insert(deletes.end(), sets.begin(), sets.end());
  return deletes;
}

}  // namespace fabricctl::junos

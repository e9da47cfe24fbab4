// SPDX-License-Identifier: MIT
#include "chainfamilies.h"

#include "chainlayout.h"

#include <QLocale>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace fl {

namespace {

std::string fieldOf(const SymptomEvent& e, const char* name)
{
    auto it = e.fields.find(name);
    return it == e.fields.end() ? std::string() : it->second;
}

// Events of one family share symptom, role, collective (SeqNum / op) and the
// families of their causes. The root and tied candidates stay alone: they are
// what the reader came for.
std::string familyKey(const SymptomEvent& e, style::Level level, const std::set<std::string>& causes)
{
    std::string key = std::to_string(level) + '\x1f' + e.symptom;
    if (level == style::Root)
        return key + '\x1f' + std::to_string(e.id);
    key += '\x1f' + fieldOf(e, "seq") + '\x1f' + fieldOf(e, "op");
    for (const std::string& c : causes)
        key += '\x1f' + c;
    return key;
}

} // namespace

int ChainFamilies::familyOfEvent(uint32_t event) const
{
    auto it = familyOf.find(event);
    return it == familyOf.end() ? -1 : static_cast<int>(it->second);
}

ChainFamilies groupChain(const Result& r)
{
    ChainFamilies out;
    std::unordered_map<uint32_t, const SymptomEvent*> byId;
    byId.reserve(r.events.size());
    for (const auto& e : r.events)
        byId.emplace(e.id, &e);
    const style::EventLevels levels(r);
    // A cause is named by its symptom and role: grouping by cause family
    // would need the families first, and symptom + role is what a reader sees.
    std::unordered_map<uint32_t, std::set<std::string>> causes;
    for (const auto& e : r.edges) {
        auto from = byId.find(e.from);
        if (from == byId.end() || e.from == e.to)
            continue;
        causes[e.to].insert(std::to_string(levels(*from->second)) + ':' + from->second->symptom);
    }

    std::map<std::string, ChainFamily> byKey;
    static const std::set<std::string> kNone;
    for (uint32_t id : chainMembers(r)) {
        auto it = byId.find(id);
        if (it == byId.end())
            continue;  // an edge naming an event the result does not hold
        const SymptomEvent& e = *it->second;
        const style::Level level = levels(e);
        auto c = causes.find(id);
        ChainFamily& f = byKey[familyKey(e, level, c == causes.end() ? kNone : c->second)];
        if (f.events.empty()) {
            f.symptom = e.symptom;
            f.level = level;
            f.representative = id;
        }
        f.events.push_back(id);  // ascending: chainMembers is sorted
        if (!e.node.empty())
            f.nodes.push_back(e.node);
        if (e.rank >= 0)
            f.ranks.push_back(e.rank);
        const bool boot = e.timeBasis == TimeBasis::BootRelative;
        if (e.timeNs != kNoTime && !boot && f.basis == TimeBasis::BootRelative)
            f.firstNs = f.lastNs = kNoTime;  // a wall-clock time replaces boot-relative ones
        if (e.timeNs != kNoTime && (!boot || f.firstNs == kNoTime || f.basis == TimeBasis::BootRelative)) {
            if (f.firstNs == kNoTime)
                f.basis = e.timeBasis;
            if (f.firstNs == kNoTime || e.timeNs < f.firstNs) {
                f.firstNs = e.timeNs;
                f.representative = id;
            }
            f.lastNs = f.lastNs == kNoTime ? e.timeNs : std::max(f.lastNs, e.timeNs);
        }
    }
    for (auto& [key, f] : byKey) {
        std::sort(f.nodes.begin(), f.nodes.end());
        f.nodes.erase(std::unique(f.nodes.begin(), f.nodes.end()), f.nodes.end());
        std::sort(f.ranks.begin(), f.ranks.end());
        f.ranks.erase(std::unique(f.ranks.begin(), f.ranks.end()), f.ranks.end());
        out.families.push_back(std::move(f));
    }
    const uint32_t rootEvent = r.rootCause ? r.rootCause->event : UINT32_MAX;
    std::sort(out.families.begin(), out.families.end(), [&](const ChainFamily& a, const ChainFamily& b) {
        const bool ra = a.representative == rootEvent, rb = b.representative == rootEvent;
        if (ra != rb)
            return ra;
        if (a.level != b.level)
            return a.level > b.level;
        const int64_t ta = a.firstNs == kNoTime ? INT64_MAX : a.firstNs;
        const int64_t tb = b.firstNs == kNoTime ? INT64_MAX : b.firstNs;
        return std::tie(ta, a.symptom, a.representative) < std::tie(tb, b.symptom, b.representative);
    });
    for (size_t i = 0; i < out.families.size(); ++i)
        for (uint32_t id : out.families[i].events)
            out.familyOf.emplace(id, i);

    std::map<std::tuple<size_t, size_t, std::string>, uint32_t> edges;
    for (const auto& e : r.edges) {
        const int a = out.familyOfEvent(e.from), b = out.familyOfEvent(e.to);
        if (a < 0 || b < 0 || a == b)
            continue;
        ++edges[{static_cast<size_t>(a), static_cast<size_t>(b), e.rule}];
    }
    for (const auto& [k, n] : edges)
        out.edges.push_back({std::get<0>(k), std::get<1>(k), std::get<2>(k), n});
    return out;
}

QString familyTitle(const ChainFamily& f)
{
    const QLocale c(QLocale::English, QLocale::UnitedStates);  // "9,992": grouped, whatever the desktop
    QString s = style::q(f.symptom);
    if (f.events.size() > 1) {
        auto count = [&c](size_t n, const char* one, const char* many) {
            return QStringLiteral(" · %1 %2").arg(c.toString(static_cast<qulonglong>(n)), QLatin1String(n == 1 ? one : many));
        };
        s += count(f.nodes.size(), "node", "nodes");
        if (!f.ranks.empty())
            s += count(f.ranks.size(), "rank", "ranks");
        s += count(f.events.size(), "event", "events");
    }
    return s;
}

} // namespace fl

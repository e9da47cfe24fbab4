// FILTER and REFINE: every rule of a phase, in rule order, looks at a snapshot
// of the events taken when the rule starts, decides for each matched event,
// then applies its actions. Deciding on a snapshot keeps a rule's effect
// independent of the order in which it visits events.
#include "engine/clock_offsets.h"
#include "engine/internal.h"
#include "engine/onset.h"
#include "present/timefmt.h"
#include "present/verdict.h"
#include "rules/matcher.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

namespace fl::detail {

bool globMatch(std::string_view pattern, std::string_view text)
{
    // '*' matches any run of characters; nothing else is special.
    size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = t;
        } else if (p < pattern.size() && pattern[p] == text[t]) {
            ++p;
            ++t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

SymptomRole effectiveRole(const State& state, const SymptomEvent& e)
{
    if (e.roleOverride)
        return *e.roleOverride;
    const SymptomDef* def = state.rules->symptom(e.symptom.str());
    return def ? def->role : SymptomRole::Unknown;
}

namespace {

bool anyGlob(const std::vector<std::string>& globs, const std::string& s)
{
    return std::any_of(globs.begin(), globs.end(), [&](const std::string& g) { return globMatch(g, s); });
}

// The events' symptoms as small numbers, kept in step with the events by
// runPhase (a rule that rewrites a symptom or adds events renumbers those), so
// that what a selector decides from a symptom alone is looked up by index:
// every rule's selectors look at every event, and the ~70,000 events of a
// wide job carry a few dozen symptoms. The events of each symptom are listed
// too, so that a rule visits only the events whose symptom it can select.
class SymptomIds {
public:
    // Numbers events[from..].
    void sync(const std::vector<SymptomEvent>& events, size_t from)
    {
        ids_.resize(events.size());
        for (size_t i = from; i < events.size(); ++i)
            ids_[i] = intern(events[i].symptom);
        if (from < events.size())
            listed_ = false;
    }
    void renumber(const SymptomEvent& e)
    {
        uint32_t& slot = ids_.at(e.id.value);
        const uint32_t id = intern(e.symptom);
        if (slot != id) {
            slot = id;
            listed_ = false;
        }
    }
    uint32_t of(const SymptomEvent& e) const { return ids_[e.id.value]; }
    const std::string& name(uint32_t id) const { return names_[id]; }
    size_t size() const { return names_.size(); }
    size_t events() const { return ids_.size(); }

    // Indices of the events whose symptom is number `id`, ascending.
    const std::vector<uint32_t>& eventsOf(uint32_t id) const
    {
        if (!listed_) {
            byId_.assign(names_.size(), {});
            for (size_t i = 0; i < ids_.size(); ++i)
                byId_[ids_[i]].push_back(static_cast<uint32_t>(i));
            listed_ = true;
        }
        return byId_[id];
    }

private:
    uint32_t intern(const std::string& symptom)
    {
        auto [it, fresh] = index_.try_emplace(symptom, static_cast<uint32_t>(names_.size()));
        if (fresh) {
            names_.push_back(symptom);
            listed_ = false;
        }
        return it->second;
    }

    std::unordered_map<std::string, uint32_t> index_;
    std::vector<std::string> names_;
    std::vector<uint32_t> ids_; // by event index
    mutable std::vector<std::vector<uint32_t>> byId_; // event indices by symptom number, built when asked
    mutable bool listed_ = false;
};

// What one selector decides from an event's symptom alone (its symptom globs
// and domain) and that symptom's default role, by symptom number.
class SymptomMemo {
public:
    struct Entry {
        bool known = false;
        bool passes = false;
        SymptomRole role = SymptomRole::Unknown; // without override
    };

    SymptomMemo(const State& state, const Selector& sel, const SymptomIds& ids) : state_(state), sel_(sel), ids_(ids) {}

    const Entry& of(const SymptomEvent& e) { return entry(ids_.of(e)); }

    const Entry& entry(uint32_t id)
    {
        if (id >= entries_.size())
            entries_.resize(ids_.size());
        Entry& en = entries_[id];
        if (!en.known) {
            const std::string& symptom = ids_.name(id);
            const SymptomDef* def = state_.rules->symptom(symptom);
            en.known = true;
            en.role = def ? def->role : SymptomRole::Unknown;
            en.passes = (sel_.symptoms.empty() || anyGlob(sel_.symptoms, symptom)) &&
                        (sel_.notSymptoms.empty() || !anyGlob(sel_.notSymptoms, symptom)) &&
                        (!sel_.domain || (def && def->domain == *sel_.domain));
        }
        return en;
    }

private:
    const State& state_;
    const Selector& sel_;
    const SymptomIds& ids_;
    std::vector<Entry> entries_; // by symptom number
};

// `memo` is `sel`'s.
bool selects(const State& state, const Selector& sel, const SymptomEvent& e, SymptomMemo& memo)
{
    if (e.suppressed && !sel.includeSuppressed)
        return false;
    if (sel.kind && e.kind != *sel.kind)
        return false;
    const SymptomMemo::Entry& bySymptom = memo.of(e);
    if (!bySymptom.passes)
        return false;
    if (sel.role && (e.roleOverride ? *e.roleOverride : bySymptom.role) != *sel.role)
        return false;
    for (const auto& [field, pattern] : sel.fields) {
        auto it = e.fields.find(field);
        std::string_view value = it == e.fields.end() ? std::string_view() : std::string_view(it->second);
        if (!state.rules->compiled().fieldMatches(pattern, value))
            return false;
    }
    return true;
}

// Calls `visit` for every event `sel` selects, in index order. Only the events
// of the symptoms its globs and domain pass are looked at.
template <typename Visit>
void forSelected(const State& state, const Selector& sel, const std::vector<SymptomEvent>& events,
                 const SymptomIds& ids, SymptomMemo& memo, Visit visit)
{
    std::vector<uint32_t> picked;
    size_t lists = 0;
    for (uint32_t s = 0; s < ids.size(); ++s) {
        if (!memo.entry(s).passes)
            continue;
        const std::vector<uint32_t>& of = ids.eventsOf(s);
        if (of.empty())
            continue;
        picked.insert(picked.end(), of.begin(), of.end());
        ++lists;
    }
    if (lists > 1)
        std::sort(picked.begin(), picked.end());
    for (uint32_t i : picked)
        if (selects(state, sel, events[i], memo))
            visit(events[i]);
}

// The value of `k` on `e` as text, empty when the event has none: a view into
// the event where it holds the text, else written into `scratch`.
std::string_view keyText(const SymptomEvent& e, const EventKey& k, std::string& scratch)
{
    switch (k.part) {
    case EventKey::Part::Node:
        // A line whose host is unknown (a dmesg excerpt without a name) still
        // comes from one machine: events of the same file share a node.
        if (e.node.empty() && e.file) {
            scratch = "?file:" + std::to_string(e.file->value);
            return scratch;
        }
        return e.node;
    case EventKey::Part::Gpu:
        if (e.gpuIndex >= 0)
            scratch = std::to_string(e.gpuIndex);
        else if (!e.pciBus.empty())
            scratch = "pci:" + e.pciBus;
        else
            return {};
        return scratch;
    case EventKey::Part::Rank:
        if (e.rank < 0)
            return {};
        scratch = std::to_string(e.rank);
        return scratch;
    case EventKey::Part::Pci:
        return e.pciBus;
    case EventKey::Part::Field: {
        auto it = e.fields.find(k.field);
        return it == e.fields.end() ? std::string_view() : std::string_view(it->second);
    }
    }
    return {};
}

std::string key(const SymptomEvent& e, const EventKey& k)
{
    std::string scratch;
    return std::string(keyText(e, k, scratch));
}

bool parseNumber(std::string_view s, uint64_t& v)
{
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s.remove_prefix(2);
        base = 16;
    }
    if (s.empty())
        return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    return ec == std::errc() && p == s.data() + s.size();
}

// A key's value as a number (decimal or 0x-hex); false when it is none.
bool keyNumber(const SymptomEvent& e, const EventKey& k, uint64_t& v)
{
    std::string scratch;
    return parseNumber(keyText(e, k, scratch), v);
}

// other's `what` compared with this one's, numerically; false when either is not a number.
bool numericOrder(const SymptomEvent& e, const SymptomEvent& o, const EventKey& what, bool otherGreater)
{
    uint64_t a = 0, b = 0;
    if (!keyNumber(e, what, a) || !keyNumber(o, what, b))
        return false;
    return otherGreater ? b > a : b < a;
}

// Events related to `e` by `rel`, among `pool` (already filtered by rel.other).
// "order": how the other event's interval lies against this one's.
bool orderHolds(const ClockModel& clocks, const SymptomEvent& e, const SymptomEvent& o, const Relation& rel)
{
    if (rel.order == IntervalOrder::Within) // engine/clock_offsets.cpp
        return certainlyWithin(clocks, e, o, static_cast<int64_t>(rel.withinLo * 1e9),
                               static_cast<int64_t>(rel.withinHi * 1e9));
    const TimeOrder t = order(clocks, o, e); // the other against this
    if (t == TimeOrder::Unknown)
        return false;
    switch (rel.order) {
    case IntervalOrder::Before: return t == TimeOrder::Before;
    case IntervalOrder::After: return t == TimeOrder::After;
    case IntervalOrder::Overlaps: return t == TimeOrder::Overlaps;
    case IntervalOrder::NotAfter: return t != TimeOrder::After;
    case IntervalOrder::NotBefore: return t != TimeOrder::Before;
    case IntervalOrder::Any:
    case IntervalOrder::Within: break;
    }
    return true;
}

bool related(const ClockModel& clocks, const SymptomEvent& e, const SymptomEvent& o, const Relation& rel)
{
    if (o.id == e.id)
        return false;
    if (rel.order != IntervalOrder::Any && !orderHolds(clocks, e, o, rel))
        return false;
    std::string sa, sb;
    for (const EventKey& k : rel.different) {
        const std::string_view a = keyText(e, k, sa), b = keyText(o, k, sb);
        if (!a.empty() && !b.empty() && a == b)
            return false;
    }
    for (const auto& [mine, theirs] : rel.join) {
        const std::string_view a = keyText(e, mine, sa), b = keyText(o, theirs, sb);
        if (a.empty() || a != b)
            return false;
    }
    for (const auto& k : rel.greater)
        if (!numericOrder(e, o, k, true))
            return false;
    for (const auto& k : rel.less)
        if (!numericOrder(e, o, k, false))
            return false;
    if (rel.timed) {
        if (!e.time.known() || !o.time.known())
            return false;
        // Boot-relative times only compare within one node.
        bool relE = e.time.basis == TimeBasis::BootRelative, relO = o.time.basis == TimeBasis::BootRelative;
        if ((relE || relO) && !(relE && relO && e.node == o.node))
            return false;
        double dt = static_cast<double>(o.time.ns - e.time.ns) / 1e9;
        if (dt < rel.withinLo || dt > rel.withinHi)
            return false;
    }
    return true;
}

// The candidates of one relation, bucketed by the values of its "same" keys
// and sorted by time inside a bucket, so that a rule over tens of thousands of
// events (every rank's timeout) looks only at the events that can relate.
struct Bucket {
    std::vector<const SymptomEvent*> events; // sorted by time
    bool anyBootRelative = false;            // such times sort anywhere: no time-window skipping
    // min and max of each numeric key the relation compares (greater/less):
    // "is any other rank's work id greater than mine?" is then O(1) when no
    // value is, which is the common case of ten thousand equal ranks.
    // By position in rel.greater, then rel.less; empty when no event of the bucket has a number there.
    std::vector<std::optional<std::pair<uint64_t, uint64_t>>> range;
};

struct Pool {
    std::map<std::string, Bucket> buckets;
    const ClockModel* clocks = nullptr;
};

// The values of `keys` on `e`, each ended by \x1f; empty when one of them is empty. "*" for no keys.
std::string joinedKeys(const SymptomEvent& e, const std::vector<EventKey>& keys)
{
    if (keys.empty())
        return "*";
    std::string k, scratch;
    for (const EventKey& what : keys) {
        const std::string_view v = keyText(e, what, scratch);
        if (v.empty())
            return {}; // "same" needs a value on both sides
        k += v;
        k += '\x1f';
    }
    return k;
}

std::string sameKey(const SymptomEvent& e, const Relation& rel)
{
    return joinedKeys(e, rel.same);
}

bool byTime(const SymptomEvent* a, const SymptomEvent* b)
{
    return std::tie(a->time.ns, a->id) < std::tie(b->time.ns, b->id);
}

Pool candidates(const State& state, const std::vector<SymptomEvent>& events, const SymptomIds& ids,
                const Relation& rel)
{
    Pool p;
    p.clocks = &state.clocks;
    SymptomMemo memo(state, rel.other, ids);
    forSelected(state, rel.other, events, ids, memo, [&](const SymptomEvent& o) {
        std::string k = sameKey(o, rel);
        if (!k.empty())
            p.buckets[k].events.push_back(&o);
    });
    for (auto& [k, b] : p.buckets) {
        std::sort(b.events.begin(), b.events.end(), byTime);
        b.range.resize(rel.greater.size() + rel.less.size());
        for (size_t i = 0; i < b.range.size(); ++i) {
            const EventKey& what = i < rel.greater.size() ? rel.greater[i] : rel.less[i - rel.greater.size()];
            for (const SymptomEvent* o : b.events) {
                uint64_t v = 0;
                if (!keyNumber(*o, what, v))
                    continue;
                auto& slot = b.range[i];
                slot = slot ? std::pair(std::min(slot->first, v), std::max(slot->second, v)) : std::pair(v, v);
            }
        }
        b.anyBootRelative = std::any_of(b.events.begin(), b.events.end(), [](const SymptomEvent* o) {
            return o->time.basis == TimeBasis::BootRelative;
        });
    }
    return p;
}

// Calls `visit` for each event of `pool` related to `e` by `rel`, in time
// order, until it returns false.
template <typename Visit>
void forRelated(const SymptomEvent& e, const Pool& pool, const Relation& rel, Visit visit)
{
    std::string k = sameKey(e, rel);
    if (k.empty())
        return;
    auto it = pool.buckets.find(k);
    if (it == pool.buckets.end())
        return;
    const Bucket& bucket = it->second;
    for (size_t i = 0; i < bucket.range.size(); ++i) {
        const bool greater = i < rel.greater.size();
        const EventKey& what = greater ? rel.greater[i] : rel.less[i - rel.greater.size()];
        const auto& r = bucket.range[i];
        uint64_t mine = 0;
        if (!keyNumber(e, what, mine) || !r)
            return;
        if (greater ? mine >= r->second : mine <= r->first)
            return;
    }
    const auto& list = bucket.events;
    auto first = list.begin();
    auto last = list.end();
    if (rel.timed && e.time.known() && e.time.basis != TimeBasis::BootRelative && !it->second.anyBootRelative &&
        rel.withinLo > -1e12 && rel.withinHi < 1e12) {
        SymptomEvent lo, hi;
        lo.time.ns = e.time.ns + static_cast<int64_t>(rel.withinLo * 1e9) - 1;
        lo.id = EventId(0);
        hi.time.ns = e.time.ns + static_cast<int64_t>(rel.withinHi * 1e9) + 1;
        hi.id = EventId(UINT32_MAX);
        first = std::lower_bound(list.begin(), list.end(), &lo, byTime);
        last = std::upper_bound(first, list.end(), &hi, byTime);
    }
    for (auto i = first; i != last; ++i)
        if (related(*pool.clocks, e, **i, rel) && !visit(*i))
            return;
}

std::vector<const SymptomEvent*> relatedIn(const SymptomEvent& e, const Pool& pool, const Relation& rel)
{
    std::vector<const SymptomEvent*> out;
    forRelated(e, pool, rel, [&](const SymptomEvent* o) {
        out.push_back(o);
        return true;
    });
    return out;
}

// Stops as soon as the count is reached: a condition over every rank of a
// 10,000-rank job must not compare each rank with all the others.
bool satisfied(const SymptomEvent& e, const Pool& pool, const Relation& rel)
{
    int count = 0;
    std::set<std::string> distinct;
    forRelated(e, pool, rel, [&](const SymptomEvent* o) {
        if (!rel.countDistinct) {
            ++count;
        } else {
            std::string k = key(*o, *rel.countDistinct);
            if (!k.empty())
                distinct.insert(std::move(k));
            count = static_cast<int>(distinct.size());
        }
        return count < rel.atLeast;
    });
    return count >= rel.atLeast;
}

bool earlier(const SymptomEvent* a, const SymptomEvent* b)
{
    if (a->time.ns != b->time.ns)
        return a->time.ns < b->time.ns;
    return a->id < b->id;
}

// Moves `target` (decided on its snapshot `e`) to the place a move_to names.
// Returns false when that place is unknown (no such rank, no related event):
// the event then stays where it was printed.
bool moveEvent(const State& state, const MoveTo& mv, const Pool* pool, const SymptomEvent& e, SymptomEvent& target,
               std::string& change)
{
    std::string node;
    int rank = -1, gpu = -1;
    if (!mv.rank.empty()) {
        std::string text = expandTemplate(mv.rank, e.fields);
        int value = -1;
        auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || p != text.data() + text.size() || value < 0 || !state.manifest)
            return false;
        auto it = state.manifest->ranks.find(value);
        if (it == state.manifest->ranks.end() || it->second.node.empty())
            return false;
        node = it->second.node;
        rank = value;
        gpu = it->second.gpu;
    } else if (!mv.node.empty()) {
        node = expandTemplate(mv.node, e.fields);
    } else if (mv.related && pool) {
        auto found = relatedIn(e, *pool, *mv.related);
        const SymptomEvent* first = nullptr;
        for (const auto* o : found)
            if (!o->node.empty() && (!first || earlier(o, first)))
                first = o;
        if (!first)
            return false;
        node = first->node;
    }
    if (node.empty() || (node == e.node && (rank < 0 || rank == e.rank)))
        return false;
    target.fields["reported_by_node"] = e.node;
    if (e.rank >= 0)
        target.fields["reported_by_rank"] = std::to_string(e.rank);
    target.node = node;
    target.rank = rank;
    target.gpuIndex = gpu;
    target.pciBus.clear();
    change = "from " + (e.node.empty() ? std::string("an unknown node") : e.node) + " to " + node +
             (rank >= 0 ? " rank " + std::to_string(rank) : std::string());
    return true;
}


// The events that reported one collective, bucketed by the rule's group_by keys.
struct AbsenceGroup {
    std::set<int> reporting;
    const SymptomEvent* first = nullptr;   // earliest timed report: when the silence became evidence
};

using RankMap = std::map<int, RankPlacement>;

bool reportsEarlier(const SymptomEvent& a, const SymptomEvent& b)
{
    const bool ta = a.time.known(), tb = b.time.known();
    if (ta != tb)
        return ta;
    return std::tie(a.time.ns, a.id) < std::tie(b.time.ns, b.id);
}

// The group_by key of a report, empty when one of its keys is missing.
std::string absenceKey(const AbsentRanks& ar, const SymptomEvent& e)
{
    return ar.groupBy.empty() ? std::string() : joinedKeys(e, ar.groupBy);
}

// The matched reports of the manifest's ranks, one group per collective.
std::map<std::string, AbsenceGroup> groupReports(const AbsentRanks& ar, const RankMap& ranks,
                                                 const std::vector<EventId>& matched,
                                                 const std::vector<SymptomEvent>& events)
{
    std::map<std::string, AbsenceGroup> groups;
    for (EventId id : matched) {
        const SymptomEvent& e = events[id.value];
        if (e.rank < 0 || !ranks.count(e.rank))
            continue;
        std::string k = absenceKey(ar, e);
        if (k.empty() && !ar.groupBy.empty())
            continue;
        AbsenceGroup& grp = groups[k];
        grp.reporting.insert(e.rank);
        if (!grp.first || reportsEarlier(e, *grp.first))
            grp.first = &e;
    }
    return groups;
}

// Where each rank's logging can be seen: a rank "left a log" when a readable
// file is its own or a line names it; its last observation is where the
// reviewer sees it stop.
struct RankLogs {
    std::map<int, FileId> logFile;
    std::map<int, std::vector<const Observation*>> observations; // the rank's own app log lines
    std::optional<FileId> manifestFile;
};

RankLogs rankLogsOf(const State& state, const RankMap& ranks)
{
    RankLogs logs;
    for (const auto& f : state.files)
        if (f.rank >= 0 && f.kind == SourceKind::AppLog && f.status == FileStatus::Ok && f.lines > 0 && !logs.logFile.count(f.rank))
            logs.logFile[f.rank] = f.index;
    for (const auto& o : state.observations) // the rank's own lines: a kernel line placed on its GPU is not it logging
        if (o.rank >= 0 && ranks.count(o.rank) && o.source == SourceKind::AppLog)
            logs.observations[o.rank].push_back(&o);
    for (const auto& f : state.files)
        if (f.kind == SourceKind::Manifest) {
            logs.manifestFile = f.index;
            break;
        }
    return logs;
}

// Groups by their earliest report: each node's event names the first collective it missed.
std::vector<const AbsenceGroup*> byFirstReport(const std::map<std::string, AbsenceGroup>& groups)
{
    std::vector<const AbsenceGroup*> ordered;
    for (const auto& [k, g] : groups)
        ordered.push_back(&g);
    std::sort(ordered.begin(), ordered.end(),
              [](const AbsenceGroup* a, const AbsenceGroup* b) { return reportsEarlier(*a->first, *b->first); });
    return ordered;
}

// The manifest's ranks missing from a group, by node; empty when too few
// ranks reported for the silence to mean anything, or none is missing.
std::map<std::string, std::vector<int>> silentRanksByNode(const AbsentRanks& ar, const RankMap& ranks,
                                                          const AbsenceGroup& grp, const RankLogs& logs)
{
    std::map<std::string, std::vector<int>> silentByNode;
    const size_t total = ranks.size();
    if (static_cast<double>(grp.reporting.size()) < ar.minShare * static_cast<double>(total) ||
        grp.reporting.size() == total)
        return silentByNode;
    for (const auto& [r, place] : ranks) {
        if (grp.reporting.count(r) || place.node.empty())
            continue;
        if (ar.requireLogs && !logs.logFile.count(r) && !logs.observations.count(r))
            continue;
        silentByNode[place.node].push_back(r);
    }
    return silentByNode;
}

// "3,5,7" (at most 16, then ",…").
std::string rankList(const std::vector<int>& silent)
{
    std::string list;
    for (size_t i = 0; i < silent.size() && i < 16; ++i)
        list += (i ? "," : "") + std::to_string(silent[i]);
    if (silent.size() > 16)
        list += ",…";
    return list;
}

// "seq=4711, op=AllReduce": the collective, by the rule's group_by keys.
std::string collectiveOf(const AbsentRanks& ar, const SymptomEvent& first)
{
    std::string what;
    for (const EventKey& g : ar.groupBy)
        what += (what.empty() ? "" : ", ") + (g.part == EventKey::Part::Field ? g.field : toString(g)) + "=" +
                key(first, g);
    return what;
}

// Where the silent ranks were last seen before the collective: their last
// lines as the event's observations (at most 16), the latest time among them,
// and, when none logged a line, the first of their log files.
void attachLastSeen(SymptomEvent& ev, const std::vector<int>& silent, const SymptomEvent& first, const RankLogs& logs,
                    int64_t& lastSeenNs, std::optional<FileId>& lastFile)
{
    for (int r : silent) {
        const Observation* last = nullptr;
        if (auto it = logs.observations.find(r); it != logs.observations.end())
            for (const Observation* o : it->second)
                if (!first.time.known() || !o->time.known() || o->time.ns <= first.time.ns)
                    if (!last || std::tie(o->time.ns, o->id) > std::tie(last->time.ns, last->id))
                        last = o;
        if (last) {
            if (ev.observations.size() < 16)
                ev.observations.push_back(last->id);
            if (last->time.known() && (lastSeenNs == kNoTime || last->time.ns > lastSeenNs))
                lastSeenNs = last->time.ns;
        } else if (!lastFile && logs.logFile.count(r)) {
            lastFile = logs.logFile.at(r);
        }
    }
}

// The one synthetic event of a node whose `silent` ranks missed the group's collective.
SymptomEvent absentEvent(const Rule& rule, const RankMap& ranks, const AbsenceGroup& grp, const std::string& node,
                         const std::vector<int>& silent, const RankLogs& logs, EventId id)
{
    const AbsentRanks& ar = *rule.absentRanks;
    const SymptomEvent& first = *grp.first;
    const size_t total = ranks.size();
    SymptomEvent ev;
    ev.id = id;
    ev.kind = EventKind::BadNode;
    ev.node = node;
    ev.time = first.time; // by the first reporter's clock, not the silent node's
    ev.clockNode = first.clockNode.empty() ? first.node : first.clockNode;
    ev.extractedBy = sharedRuleId(rule);
    if (silent.size() == 1) {
        ev.rank = silent.front();
        ev.gpuIndex = ranks.at(ev.rank).gpu;
    }
    for (const EventKey& g : ar.groupBy)
        if (g.part == EventKey::Part::Field)
            ev.fields[g.field] = key(first, g);
    const std::string list = rankList(silent);
    int64_t lastSeenNs = kNoTime;
    std::optional<FileId> lastFile;
    attachLastSeen(ev, silent, first, logs, lastSeenNs, lastFile);
    ev.fields["silent_ranks"] = list;
    ev.fields["silent_count"] = std::to_string(silent.size());
    ev.fields["reporting"] = std::to_string(grp.reporting.size());
    ev.fields["expected"] = std::to_string(total);
    ev.fields["absent"] = std::string(silent.size() == 1 ? "rank " : "ranks ") + list + " on " + node +
                          " reported nothing for " + collectiveOf(ar, first) + " (" + first.symptom.str() + ") while " +
                          std::to_string(grp.reporting.size()) + " of " + std::to_string(total) + " ranks did";
    if (lastSeenNs != kNoTime)
        ev.fields["last_seen"] = formatTimeUtc(lastSeenNs);
    if (ev.observations.empty())
        ev.absentFile = lastFile ? lastFile : logs.manifestFile;
    // The rule's own fields and symptom, as templates over the first report and the fields above.
    FieldMap vals = first.fields;
    for (const auto& [k, v] : ev.fields)
        vals[k] = v;
    for (const auto& [k, t] : ar.fields)
        ev.fields[k] = expandTemplate(t, vals);
    ev.symptom = expandTemplate(ar.symptom, vals);
    ev.originalSymptom = ev.symptom;
    return ev;
}

// absent_ranks: the manifest's ranks that did not report a collective most
// ranks reported, one synthetic event per node. Returns how many it emitted.
uint32_t emitAbsentRanks(const State& state, const Rule& rule, const std::vector<EventId>& matched,
                         std::vector<SymptomEvent>& events, std::vector<TraceStep>* trace)
{
    if (!state.manifest || state.manifest->ranks.size() < 2)
        return 0;
    const RankMap& ranks = state.manifest->ranks;
    const auto groups = groupReports(*rule.absentRanks, ranks, matched, events);
    if (groups.empty())
        return 0;
    const RankLogs logs = rankLogsOf(state, ranks);

    std::set<std::string> nodesDone; // one event per node: the earliest collective it was missing from
    std::vector<SymptomEvent> out;   // appended at the end: `first` points into `events`
    for (const AbsenceGroup* grp : byFirstReport(groups)) {
        for (const auto& [node, silent] : silentRanksByNode(*rule.absentRanks, ranks, *grp, logs)) {
            if (!nodesDone.insert(node).second)
                continue;
            const EventId id(static_cast<uint32_t>(events.size() + out.size()));
            SymptomEvent ev = absentEvent(rule, ranks, *grp, node, silent, logs, id);
            if (trace && out.size() < 200)
                trace->push_back({rule.phase, rule.id, TraceAction::Emitted, {ev.id},
                                  ev.symptom.str() + " @ " + node + ": " + ev.fields["absent"], {}});
            out.push_back(std::move(ev));
        }
    }
    // Exactly the room needed: growing by doubling here held a second copy of
    // every event of a wide bundle (64 MB at 1,250 nodes x 8 ranks).
    events.reserve(events.size() + out.size());
    for (auto& ev : out)
        events.push_back(std::move(ev));
    return static_cast<uint32_t>(out.size());
}

} // namespace

namespace {

// What one rule decided for one matched event, before anything is applied.
struct Decision {
    EventId id;
    std::vector<EventId> causes;                // link_from
    std::optional<EventId> mergeInto;           // merge_into
    std::map<std::string, std::string> copied;  // copy_fields
};

// The events each relation of a rule may pair with, taken when the rule starts.
struct RulePools {
    std::vector<Pool> ifExists, ifNotExists;
    std::optional<Pool> link, merge, move, copy;
};

// What the rule does to `e`, which its match selects and whose if / unless
// relations hold: nullopt when its copy_fields source rules it out.
std::optional<Decision> decide(const Rule& rule, const RulePools& pools, const SymptomEvent& e)
{
    Decision d;
    d.id = e.id;
    if (rule.linkFrom)
        for (const SymptomEvent* cause : relatedIn(e, *pools.link, *rule.linkFrom))
            // Whatever the rule's window, a fault that began after this event had started waiting did not
            // start its wait (engine/onset.h).
            if (!beganAfterWait(*pools.link->clocks, e, *cause))
                d.causes.push_back(cause->id);
    if (rule.copyFields) {
        // The related event nearest in time (then the lowest id) lends its values.
        const SymptomEvent* src = nullptr;
        auto dist = [&](const SymptomEvent* o) {
            return (!o->time.known() || !e.time.known()) ? INT64_MAX : std::llabs(o->time.ns - e.time.ns);
        };
        for (const auto* o : relatedIn(e, *pools.copy, rule.copyFields->from))
            if (!src || dist(o) < dist(src) || (dist(o) == dist(src) && o->id < src->id))
                src = o;
        if (!src)
            return std::nullopt; // nothing to copy from: the rule does not apply
        for (const auto& [k, t] : rule.copyFields->fields)
            d.copied[k] = expandTemplate(t, src->fields);
    }
    if (rule.mergeWith) {
        // Into the earliest related event, if it is earlier than this one. forRelated visits in the order
        // `earlier` sorts by (a bucket is sorted byTime), so the first related event decides: collecting them
        // all made a storm quadratic (100,000 AER lines in an hour, merged within 60 s: 1.9 s).
        const SymptomEvent* into = nullptr;
        forRelated(e, *pools.merge, *rule.mergeWith, [&](const SymptomEvent* o) {
            if (earlier(o, &e))
                into = o;
            return false;
        });
        if (into)
            d.mergeInto = into->id;
    }
    return d;
}

// decode: a number field shifted, masked and mapped into another field.
std::optional<std::string> decodeField(const Decode& decode, SymptomEvent& target)
{
    auto it = target.fields.find(decode.field);
    uint64_t v = 0;
    if (it == target.fields.end() || !parseNumber(it->second, v))
        return std::nullopt;
    uint64_t decoded = (decode.shift >= 64 ? 0 : (v >> decode.shift)) & decode.mask;
    std::string value = std::to_string(decoded);
    if (!decode.map.empty()) {
        auto m = decode.map.find(value);
        if (m == decode.map.end())
            m = decode.map.find("*");
        if (m != decode.map.end())
            value = m->second;
    }
    target.fields[decode.into] = value;
    return decode.field + " -> " + decode.into + "=" + value;
}

using Effects = std::vector<std::pair<TraceAction, std::string>>;

// The (from, to) pairs already linked: only asked whether one is there, for
// the ~190,000 edges of a wide job, and filled again at every phase. Open
// addressing in one array: a std::unordered_set allocated a node per pair and
// was ~5 % of a wide analyze's CPU.
class EdgeSet {
public:
    explicit EdgeSet(size_t expected) { rehash(std::bit_ceil(expected * 2 + 16)); }

    // False when the pair was there already.
    bool insert(uint64_t key)
    {
        if (key == kEmpty) // no event id is that large; kept exact all the same
            return !std::exchange(hasEmptyKey_, true);
        if ((size_ + 1) * 2 > slots_.size())
            rehash(slots_.size() * 2);
        const size_t mask = slots_.size() - 1;
        for (size_t i = mix(key) & mask;; i = (i + 1) & mask) {
            if (slots_[i] == key)
                return false;
            if (slots_[i] == kEmpty) {
                slots_[i] = key;
                ++size_;
                return true;
            }
        }
    }

private:
    static constexpr uint64_t kEmpty = ~uint64_t(0);

    static uint64_t mix(uint64_t k) // murmur3's finaliser: the ids are dense
    {
        k ^= k >> 33;
        k *= 0xff51afd7ed558ccdULL;
        k ^= k >> 33;
        k *= 0xc4ceb9fe1a85ec53ULL;
        k ^= k >> 33;
        return k;
    }

    void rehash(size_t capacity)
    {
        std::vector<uint64_t> old(capacity, kEmpty);
        old.swap(slots_);
        size_ = 0;
        for (uint64_t k : old)
            if (k != kEmpty)
                insert(k);
    }

    std::vector<uint64_t> slots_;
    size_t size_ = 0;
    bool hasEmptyKey_ = false;
};
uint64_t edgeKey(EventId from, EventId to) { return (uint64_t(from.value) << 32) | to.value; }

// Applies every action of the rule to one decided event; returns each effect
// it had, in the order applied. `link` carries the rule's id and label, shared
// by every edge it draws.
Effects apply(const State& state, const Rule& rule, const RulePools& pools, const Decision& dec,
              std::vector<SymptomEvent>& events, std::vector<ChainEdge>& edges,
              EdgeSet& existingEdges, const ChainEdge& link)
{
    SymptomEvent& target = events[dec.id.value];
    Effects effects;
    auto did = [&](TraceAction a, std::string change = {}) { effects.emplace_back(a, std::move(change)); };
    if (rule.moveTo) {
        // move_to reads the event as it was when the rule started.
        const SymptomEvent before = target;
        std::string change;
        if (moveEvent(state, *rule.moveTo, pools.move ? &*pools.move : nullptr, before, target, change))
            did(TraceAction::Moved, std::move(change));
    }
    if (rule.decode)
        if (auto change = decodeField(*rule.decode, target))
            did(TraceAction::Decoded, std::move(*change));
    if (!rule.setFields.empty()) {
        for (const auto& [k, v] : rule.setFields)
            target.fields[k] = expandTemplate(v, target.fields);
        did(TraceAction::SetFields);
    }
    if (!dec.copied.empty()) {
        for (const auto& [k, v] : dec.copied)
            target.fields[k] = v;
        did(TraceAction::CopiedFields);
    }
    if (rule.setSymptom) {
        SharedText s = expandShared(*rule.setSymptom, target.fields, "symptom", target.symptom);
        if (s != target.symptom) {
            did(TraceAction::Rewrote, target.symptom.str() + " -> " + s.str());
            target.symptom = std::move(s);
        }
    }
    if (rule.infer) {
        // The event now stands for the cause its lines name; what the lines
        // themselves are is kept, and the cause came before them.
        const std::string s = expandTemplate(rule.infer->symptom, target.fields, "symptom", target.symptom);
        if (!target.inferred)
            target.inferred = Inference{target.symptom, sharedRuleId(rule)};
        else
            target.inferred->rule = sharedRuleId(rule);
        const auto before = static_cast<int64_t>(rule.infer->beforeS * 1e9);
        if (before > 0 && target.time.interval.earliestNs != kNoTime)
            target.time.interval.earliestNs -= before;
        did(TraceAction::Rewrote, target.symptom.str() + " -> " + s + " (inferred)");
        target.symptom = s;
    }
    if (rule.setRole) {
        target.roleOverride = rule.setRole;
        target.roleOverrideBy = sharedRuleId(rule);
        did(TraceAction::Role, std::string(toString(*rule.setRole)));
    }
    if (rule.setKind) {
        target.kind = *rule.setKind;
        did(TraceAction::Kind, *rule.setKind == EventKind::BadNode ? "bad_node" : "interesting_node");
    }
    if (rule.linkFrom) {
        for (EventId cause : dec.causes) {
            if (!existingEdges.insert(edgeKey(cause, dec.id)))
                continue;
            edges.push_back({cause, dec.id, link.rule, link.label});
            did(TraceAction::Linked, events[cause.value].symptom);
        }
    }
    if (rule.mergeWith && dec.mergeInto && !target.suppressed) {
        SymptomEvent& dst = events[dec.mergeInto->value];
        dst.count += target.count;
        for (ObservationId obs : target.observations)
            if (dst.observations.size() < 64)
                dst.observations.push_back(obs);
        target.suppressed = true;
        target.suppressedBy = sharedRuleId(rule);
        target.suppressReason = "merged into event " + std::to_string(dec.mergeInto->value);
        did(TraceAction::Merged);
    }
    if (rule.suppress) {
        target.suppressed = true;
        target.suppressedBy = sharedRuleId(rule);
        target.suppressReason = *rule.suppress;
        did(TraceAction::Suppressed, rule.suppress->str());
    }
    if (rule.maxEvidence >= 0) {
        target.maxEvidence = rule.maxEvidence;
        did(TraceAction::EvidenceCap, std::to_string(rule.maxEvidence));
    }
    if (rule.evidenceRole) {
        target.evidenceRole = rule.evidenceRole;
        did(TraceAction::EvidenceRole);
    }
    return effects;
}

// The rules-fired line: the rule's main action, else its last effect.
std::string firingSummary(const Rule& rule, std::string lastEffect)
{
    if (rule.mergeWith)
        return "merged";
    if (rule.suppress)
        return "suppressed";
    if (rule.linkFrom)
        return "linked";
    if (rule.setSymptom)
        return "rewrote symptom";
    if (rule.infer)
        return "inferred the cause it names";
    return lastEffect;
}

} // namespace

namespace {

// What one phase works on, passed from rule to rule.
struct PhaseRun {
    const State& state;
    Phase phase;
    std::vector<SymptomEvent>& events;
    std::vector<ChainEdge>& edges;
    std::vector<RuleFiring>& fired;
    std::vector<TraceStep>* trace;
    EdgeSet& existingEdges;
    SymptomIds& symptomIds;
};

// A trend rule produces events over a series (engine/trends.cpp).
void runTrendRule(PhaseRun& run, const Rule& rule)
{
    const size_t before = run.events.size();
    if (uint32_t n = emitTrend(run.state, rule, run.events, run.trace))
        run.fired.push_back({rule.id, run.phase, "emitted trend events", n});
    run.symptomIds.sync(run.events, before);
}

// The events the rule's match selects, in index order.
std::vector<const SymptomEvent*> selectedBy(const PhaseRun& run, const Rule& rule)
{
    SymptomMemo matchMemo(run.state, rule.match, run.symptomIds);
    std::vector<const SymptomEvent*> selected;
    forSelected(run.state, rule.match, run.events, run.symptomIds, matchMemo,
                [&](const SymptomEvent& e) { selected.push_back(&e); });
    return selected;
}

// Decides on the events as they are when the rule starts: a rule's effect
// does not depend on the order in which it visits events. Each relation's
// pool (every event it names, bucketed) is built only while a selected event
// is still in play: a rule whose `if` holds for no event never builds its
// `unless` and link pools (the straggler rule over 10,000 equal work ids).
std::vector<Decision> decideAll(const State& state, const Rule& rule, const std::vector<SymptomEvent>& events,
                                const SymptomIds& ids, std::vector<const SymptomEvent*> inPlay, RulePools& pools)
{
    auto keep = [&inPlay](const Pool& pool, const Relation& rel, bool mustHold) {
        std::erase_if(inPlay, [&](const SymptomEvent* e) { return satisfied(*e, pool, rel) != mustHold; });
        return !inPlay.empty();
    };
    for (const auto& rel : rule.ifExists)
        if (!keep(pools.ifExists.emplace_back(candidates(state, events, ids, rel)), rel, true))
            return {};
    for (const auto& rel : rule.ifNotExists)
        if (!keep(pools.ifNotExists.emplace_back(candidates(state, events, ids, rel)), rel, false))
            return {};
    if (rule.copyFields)
        pools.copy = candidates(state, events, ids, rule.copyFields->from);
    if (rule.linkFrom)
        pools.link = candidates(state, events, ids, *rule.linkFrom);
    if (rule.moveTo && rule.moveTo->related)
        pools.move = candidates(state, events, ids, *rule.moveTo->related);
    if (rule.mergeWith)
        pools.merge = candidates(state, events, ids, *rule.mergeWith);
    std::vector<Decision> decisions;
    for (const SymptomEvent* e : inPlay)
        if (auto d = decide(rule, pools, *e))
            decisions.push_back(std::move(*d));
    return decisions;
}

void runAbsentRule(PhaseRun& run, const Rule& rule, const std::vector<Decision>& decisions)
{
    std::vector<EventId> matched;
    matched.reserve(decisions.size());
    for (const Decision& dec : decisions)
        matched.push_back(dec.id);
    const size_t before = run.events.size();
    if (uint32_t n = emitAbsentRanks(run.state, rule, matched, run.events, run.trace))
        run.fired.push_back({rule.id, run.phase, "emitted absent ranks", n});
    run.symptomIds.sync(run.events, before);
}

// Applies the rule's actions to each decided event, traces them and counts the firing.
void applyAll(PhaseRun& run, const Rule& rule, const RulePools& pools, const std::vector<Decision>& decisions)
{
    uint32_t count = 0;
    std::string lastEffect;
    const ChainEdge link{{}, {}, rule.linkFrom ? SharedText(rule.id) : SharedText(), SharedText(rule.linkLabel)};
    for (const Decision& dec : decisions) {
        const std::string symptomBefore = run.events[dec.id.value].symptom;
        Effects effects = apply(run.state, rule, pools, dec, run.events, run.edges, run.existingEdges, link);
        run.symptomIds.renumber(run.events[dec.id.value]); // set_symptom, infer
        if (effects.empty())
            continue;
        ++count;
        const auto& [lastAction, lastChange] = effects.back();
        lastEffect = present::traceAction({{}, {}, lastAction, {}, {}, lastChange});
        if (run.trace && count <= 200)
            for (auto& [action, change] : effects)
                run.trace->push_back({run.phase, rule.id, action, {dec.id},
                                      symptomBefore + " @ " + run.events[dec.id.value].node, std::move(change)});
    }
    if (count > 0)
        run.fired.push_back({rule.id, run.phase, firingSummary(rule, lastEffect), count});
}

} // namespace

struct PhaseIndexes::Impl {
    EdgeSet existingEdges{0};
    SymptomIds symptomIds;
    size_t edgesSeen = 0;
    const std::vector<SymptomEvent>* events = nullptr;
    const std::vector<ChainEdge>* edges = nullptr;
};

PhaseIndexes::PhaseIndexes() = default;
PhaseIndexes::~PhaseIndexes() = default;

void runPhase(const State& state, Phase phase, std::vector<SymptomEvent>& events, std::vector<ChainEdge>& edges,
              std::vector<RuleFiring>& fired, std::vector<TraceStep>* trace, PhaseIndexes& indexes)
{
    auto& ix = indexes.d;
    if (!ix || ix->events != &events || ix->edges != &edges || ix->symptomIds.events() != events.size()
        || ix->edgesSeen != edges.size()) {
        ix = std::make_unique<PhaseIndexes::Impl>();
        ix->existingEdges = EdgeSet(edges.size());
        for (const auto& e : edges)
            ix->existingEdges.insert(edgeKey(e.from, e.to));
        ix->symptomIds.sync(events, 0);
        ix->events = &events;
        ix->edges = &edges;
    }
    PhaseRun run{state, phase, events, edges, fired, trace, ix->existingEdges, ix->symptomIds};

    for (const Rule& rule : state.rules->rules()) {
        if (rule.phase != phase)
            continue;
        if (rule.trend) {
            runTrendRule(run, rule);
            continue;
        }
        // A relation's pool holds every event it names (each rank's timeout at
        // 10,000 ranks): not built for a rule that selects nothing here.
        const std::vector<const SymptomEvent*> selected = selectedBy(run, rule);
        RulePools pools;
        const std::vector<Decision> decisions =
            selected.empty() ? std::vector<Decision>{} : decideAll(state, rule, events, run.symptomIds, selected, pools);
        if (rule.absentRanks)
            runAbsentRule(run, rule, decisions);
        else
            applyAll(run, rule, pools, decisions);
    }
    ix->edgesSeen = edges.size();
}

} // namespace fl::detail

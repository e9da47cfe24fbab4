// FILTER and REFINE: every rule of a phase, in rule order, looks at a snapshot
// of the events taken when the rule starts, decides for each matched event,
// then applies its actions. Deciding on a snapshot keeps a rule's effect
// independent of the order in which it visits events.
#include "engine/internal.h"
#include "engine/timefmt.h"
#include "rules/matcher.h"

#include <algorithm>
#include <charconv>
#include <set>

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

std::string expandTemplate(std::string_view tmpl, const std::map<std::string, std::string>& values)
{
    std::string out;
    out.reserve(tmpl.size());
    for (size_t i = 0; i < tmpl.size(); ++i) {
        if (tmpl[i] == '{') {
            size_t close = tmpl.find('}', i);
            if (close != std::string_view::npos) {
                std::string key(tmpl.substr(i + 1, close - i - 1));
                if (auto it = values.find(key); it != values.end())
                    out += it->second;
                i = close;
                continue;
            }
        }
        out += tmpl[i];
    }
    return out;
}

SymptomRole effectiveRole(const State& state, const SymptomEvent& e)
{
    if (e.roleOverride)
        return *e.roleOverride;
    const SymptomDef* def = state.rules->symptom(e.symptom);
    return def ? def->role : SymptomRole::Unknown;
}

namespace {

bool anyGlob(const std::vector<std::string>& globs, const std::string& s)
{
    return std::any_of(globs.begin(), globs.end(), [&](const std::string& g) { return globMatch(g, s); });
}

bool selects(const State& state, const Selector& sel, const SymptomEvent& e)
{
    if (e.suppressed && !sel.includeSuppressed)
        return false;
    if (!sel.symptoms.empty() && !anyGlob(sel.symptoms, e.symptom))
        return false;
    if (!sel.notSymptoms.empty() && anyGlob(sel.notSymptoms, e.symptom))
        return false;
    if (sel.kind && e.kind != *sel.kind)
        return false;
    if (sel.role && effectiveRole(state, e) != *sel.role)
        return false;
    if (!sel.domain.empty()) {
        const SymptomDef* def = state.rules->symptom(e.symptom);
        if (!def || def->domain != sel.domain)
            return false;
    }
    for (const auto& [field, pattern] : sel.fields) {
        auto it = e.fields.find(field);
        std::string_view value = it == e.fields.end() ? std::string_view() : std::string_view(it->second);
        if (!state.rules->compiled().fieldMatches(pattern, value))
            return false;
    }
    return true;
}

std::string key(const SymptomEvent& e, const std::string& what)
{
    if (what == "node")
        return e.node;
    if (what == "gpu")
        return e.gpuIndex >= 0 ? std::to_string(e.gpuIndex) : (e.pciBus.empty() ? std::string() : "pci:" + e.pciBus);
    if (what == "rank")
        return e.rank >= 0 ? std::to_string(e.rank) : std::string();
    if (what == "pci")
        return e.pciBus;
    if (what.rfind("field:", 0) == 0) {
        auto it = e.fields.find(what.substr(6));
        return it == e.fields.end() ? std::string() : it->second;
    }
    return {};
}

// Events related to `e` by `rel`, among `pool` (already filtered by rel.other).
bool related(const SymptomEvent& e, const SymptomEvent& o, const Relation& rel)
{
    if (o.id == e.id)
        return false;
    for (const auto& s : rel.different) {
        std::string a = key(e, s), b = key(o, s);
        if (!a.empty() && !b.empty() && a == b)
            return false;
    }
    for (const auto& [mine, theirs] : rel.join) {
        std::string a = key(e, mine), b = key(o, theirs);
        if (a.empty() || a != b)
            return false;
    }
    if (rel.timed) {
        if (e.timeNs == kNoTime || o.timeNs == kNoTime)
            return false;
        // Boot-relative times only compare within one node.
        bool relE = e.timeBasis == TimeBasis::BootRelative, relO = o.timeBasis == TimeBasis::BootRelative;
        if ((relE || relO) && !(relE && relO && e.node == o.node))
            return false;
        double dt = static_cast<double>(o.timeNs - e.timeNs) / 1e9;
        if (dt < rel.withinLo || dt > rel.withinHi)
            return false;
    }
    return true;
}

// The candidates of one relation, bucketed by the values of its "same" keys
// and sorted by time inside a bucket, so that a rule over tens of thousands of
// events (every rank's timeout) looks only at the events that can relate.
struct Pool {
    std::map<std::string, std::vector<const SymptomEvent*>> buckets;
};

std::string sameKey(const SymptomEvent& e, const Relation& rel)
{
    std::string k;
    for (const auto& s : rel.same) {
        std::string v = key(e, s);
        if (v.empty())
            return {}; // "same" needs a value on both sides
        k += v;
        k += '\x1f';
    }
    return k.empty() && !rel.same.empty() ? std::string() : (rel.same.empty() ? std::string("*") : k);
}

bool byTime(const SymptomEvent* a, const SymptomEvent* b)
{
    return std::tie(a->timeNs, a->id) < std::tie(b->timeNs, b->id);
}

Pool candidates(const State& state, const std::vector<SymptomEvent>& events, const Relation& rel)
{
    Pool p;
    for (const auto& o : events) {
        if (!selects(state, rel.other, o))
            continue;
        std::string k = sameKey(o, rel);
        if (!k.empty())
            p.buckets[k].push_back(&o);
    }
    for (auto& [k, list] : p.buckets)
        std::sort(list.begin(), list.end(), byTime);
    return p;
}

std::vector<const SymptomEvent*> relatedIn(const SymptomEvent& e, const Pool& pool, const Relation& rel)
{
    std::vector<const SymptomEvent*> out;
    std::string k = sameKey(e, rel);
    if (k.empty())
        return out;
    auto it = pool.buckets.find(k);
    if (it == pool.buckets.end())
        return out;
    const auto& list = it->second;
    auto first = list.begin();
    auto last = list.end();
    if (rel.timed && e.timeNs != kNoTime && e.timeBasis != TimeBasis::BootRelative) {
        // Candidates with a boot-relative time sort anywhere: only skip by time
        // when the window bounds are finite and the bucket holds none of them.
        const bool anyRelative = std::any_of(list.begin(), list.end(), [](const SymptomEvent* o) {
            return o->timeBasis == TimeBasis::BootRelative;
        });
        if (!anyRelative && rel.withinLo > -1e12 && rel.withinHi < 1e12) {
            SymptomEvent lo, hi;
            lo.timeNs = e.timeNs + static_cast<int64_t>(rel.withinLo * 1e9) - 1;
            lo.id = 0;
            hi.timeNs = e.timeNs + static_cast<int64_t>(rel.withinHi * 1e9) + 1;
            hi.id = UINT32_MAX;
            first = std::lower_bound(list.begin(), list.end(), &lo, byTime);
            last = std::upper_bound(first, list.end(), &hi, byTime);
        }
    }
    for (auto i = first; i != last; ++i)
        if (related(e, **i, rel))
            out.push_back(*i);
    return out;
}

bool satisfied(const SymptomEvent& e, const Pool& pool, const Relation& rel)
{
    auto found = relatedIn(e, pool, rel);
    if (rel.countDistinct.empty())
        return static_cast<int>(found.size()) >= rel.atLeast;
    std::set<std::string> distinct;
    for (const auto* o : found) {
        std::string k = key(*o, rel.countDistinct);
        if (!k.empty())
            distinct.insert(k);
    }
    return static_cast<int>(distinct.size()) >= rel.atLeast;
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

bool earlier(const SymptomEvent* a, const SymptomEvent* b)
{
    if (a->timeNs != b->timeNs)
        return a->timeNs < b->timeNs;
    return a->id < b->id;
}

// Moves `target` (decided on its snapshot `e`) to the place a move_to names.
// Returns false when that place is unknown (no such rank, no related event):
// the event then stays where it was printed.
bool moveEvent(const State& state, const MoveTo& mv, const Pool* pool, const SymptomEvent& e, SymptomEvent& target,
               std::string& effect)
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
    effect = "moved from " + (e.node.empty() ? std::string("an unknown node") : e.node) + " to " + node +
             (rank >= 0 ? " rank " + std::to_string(rank) : std::string());
    return true;
}

} // namespace

void runPhase(const State& state, Phase phase, std::vector<SymptomEvent>& events, std::vector<ChainEdge>& edges,
              std::vector<RuleFiring>& fired, std::vector<TraceStep>* trace)
{
    std::set<std::pair<uint32_t, uint32_t>> existingEdges;
    for (const auto& e : edges)
        existingEdges.insert({e.from, e.to});

    struct Decision {
        uint32_t id = 0;
        std::vector<uint32_t> causes;  // link_from
        int64_t mergeInto = -1;        // merge_into
    };

    for (const Rule& rule : state.rules->rules()) {
        if (rule.phase != phase)
            continue;
        // 1. Decide on the events as they are when the rule starts: a rule's
        //    effect does not depend on the order in which it visits events.
        std::vector<Pool> ifPools, unlessPools;
        for (const auto& rel : rule.ifExists)
            ifPools.push_back(candidates(state, events, rel));
        for (const auto& rel : rule.ifNotExists)
            unlessPools.push_back(candidates(state, events, rel));
        std::optional<Pool> linkPool, mergePool, movePool;
        if (rule.linkFrom)
            linkPool = candidates(state, events, *rule.linkFrom);
        if (rule.moveTo && rule.moveTo->related)
            movePool = candidates(state, events, *rule.moveTo->related);
        if (rule.mergeWith)
            mergePool = candidates(state, events, *rule.mergeWith);

        std::vector<Decision> decisions;
        for (const SymptomEvent& e : events) {
            if (!selects(state, rule.match, e))
                continue;
            bool ok = true;
            for (size_t i = 0; ok && i < rule.ifExists.size(); ++i)
                ok = satisfied(e, ifPools[i], rule.ifExists[i]);
            for (size_t i = 0; ok && i < rule.ifNotExists.size(); ++i)
                ok = !satisfied(e, unlessPools[i], rule.ifNotExists[i]);
            if (!ok)
                continue;
            Decision d;
            d.id = e.id;
            if (rule.linkFrom)
                for (const SymptomEvent* cause : relatedIn(e, *linkPool, *rule.linkFrom))
                    d.causes.push_back(cause->id);
            if (rule.mergeWith) {
                const SymptomEvent* into = nullptr;
                for (const auto* o : relatedIn(e, *mergePool, *rule.mergeWith))
                    if (earlier(o, &e) && (!into || earlier(o, into)))
                        into = o;
                if (into)
                    d.mergeInto = into->id;
            }
            decisions.push_back(std::move(d));
        }

        // 2. Apply.
        uint32_t count = 0;
        std::string lastEffect;
        for (const Decision& dec : decisions) {
            SymptomEvent& target = events[dec.id];
            const std::string symptomBefore = target.symptom;
            bool changed = false;
            std::string effect;
            if (rule.moveTo) {
                // move_to reads the event as it was when the rule started.
                const SymptomEvent before = target;
                if (moveEvent(state, *rule.moveTo, movePool ? &*movePool : nullptr, before, target, effect))
                    changed = true;
            }
            if (rule.decode) {
                auto it = target.fields.find(rule.decode->field);
                uint64_t v = 0;
                if (it != target.fields.end() && parseNumber(it->second, v)) {
                    uint64_t decoded = (rule.decode->shift >= 64 ? 0 : (v >> rule.decode->shift)) & rule.decode->mask;
                    std::string value = std::to_string(decoded);
                    if (!rule.decode->map.empty()) {
                        auto m = rule.decode->map.find(value);
                        if (m == rule.decode->map.end())
                            m = rule.decode->map.find("*");
                        if (m != rule.decode->map.end())
                            value = m->second;
                    }
                    target.fields[rule.decode->into] = value;
                    effect = "decoded " + rule.decode->field + " -> " + rule.decode->into + "=" + value;
                    changed = true;
                }
            }
            if (!rule.setFields.empty()) {
                for (const auto& [k, v] : rule.setFields)
                    target.fields[k] = expandTemplate(v, target.fields);
                effect = "set fields";
                changed = true;
            }
            if (rule.setSymptom) {
                std::map<std::string, std::string> vals = target.fields;
                vals["symptom"] = target.symptom;
                std::string s = expandTemplate(*rule.setSymptom, vals);
                if (s != target.symptom) {
                    effect = "rewrote " + target.symptom + " -> " + s;
                    target.symptom = s;
                    changed = true;
                }
            }
            if (rule.setRole) {
                target.roleOverride = rule.setRole;
                target.roleOverrideBy = rule.id;
                effect = "role -> " + std::string(toString(*rule.setRole));
                changed = true;
            }
            if (rule.setKind) {
                target.kind = *rule.setKind;
                effect = *rule.setKind == EventKind::BadNode ? "kind -> bad_node" : "kind -> interesting_node";
                changed = true;
            }
            if (rule.linkFrom) {
                for (uint32_t cause : dec.causes) {
                    if (!existingEdges.insert({cause, dec.id}).second)
                        continue;
                    edges.push_back({cause, dec.id, rule.id, rule.linkLabel});
                    effect = "linked from " + events[cause].symptom;
                    changed = true;
                }
            }
            if (rule.mergeWith && dec.mergeInto >= 0 && !target.suppressed) {
                SymptomEvent& dst = events[static_cast<size_t>(dec.mergeInto)];
                dst.count += target.count;
                for (uint32_t obs : target.observations)
                    if (dst.observations.size() < 64)
                        dst.observations.push_back(obs);
                target.suppressed = true;
                target.suppressedBy = rule.id;
                target.suppressReason = "merged into event " + std::to_string(dec.mergeInto);
                effect = "merged";
                changed = true;
            }
            if (rule.suppress) {
                target.suppressed = true;
                target.suppressedBy = rule.id;
                target.suppressReason = *rule.suppress;
                effect = "suppressed: " + *rule.suppress;
                changed = true;
            }
            if (rule.maxEvidence >= 0) {
                target.fields["_max_evidence"] = std::to_string(rule.maxEvidence);
                effect = "evidence cap " + std::to_string(rule.maxEvidence);
                changed = true;
            }
            if (rule.evidenceRole) {
                target.evidenceRole = rule.evidenceRole;
                effect = "evidence role";
                changed = true;
            }
            if (changed) {
                ++count;
                lastEffect = effect;
                if (trace && count <= 200)
                    trace->push_back({std::string(toString(phase)), rule.id, effect, {dec.id},
                                      symptomBefore + " @ " + target.node});
            }
        }
        if (count > 0) {
            std::string summary = lastEffect;
            if (rule.setSymptom)
                summary = "rewrote symptom";
            if (rule.linkFrom)
                summary = "linked";
            if (rule.suppress)
                summary = "suppressed";
            if (rule.mergeWith)
                summary = "merged";
            fired.push_back({rule.id, std::string(toString(phase)), summary, count});
        }
    }
}

} // namespace fl::detail

// The report's chain, from a Result (a fresh analysis, or a document read back
// with resultFromJson): the symptom families (so a compact result, as `analyze`
// writes by default and the service keeps, gives the whole chain), or, for a
// result without families, its per-event chain merged by symptom.
#include "present/report_chain.h"
#include "present/family_label.h"
#include "present/timefmt.h"
#include "present/verdict.h"

#include <algorithm>
#include <map>
#include <set>

namespace fl::present {

namespace {

bool names(const std::vector<EventId>& ids, EventId event)
{
    return std::find(ids.begin(), ids.end(), event) != ids.end();
}

template <typename Cause>
ChainNode focusNode(const Cause& c, bool root)
{
    return {true, root, c.symptom, place(c.node, c.gpuIndex, c.pciBus, c.rank), timeText(c.time), 1, 1};
}

ChainNode familyNode(const SymptomFamily& f)
{
    return {false, false, f.symptom, familyPlace(f), timeText(f.first),
            f.count, f.nodes.size()};
}

// From the families and family edges. The focus: the root families (the root
// cause, or the tied candidates), each described by the root cause or candidate
// whose event it represents; without a root, the candidates' families.
ChainSummary fromFamilies(const Result& r, size_t maxFocus, size_t maxGroups)
{
    const uint32_t nFamilies = static_cast<uint32_t>(r.families.size());
    std::map<uint32_t, std::vector<uint32_t>> out;
    for (const FamilyEdge& e : r.familyEdges)
        if (e.from.value < nFamilies && e.to.value < nFamilies)
            out[e.from.value].push_back(e.to.value);

    ChainSummary s;
    std::map<uint32_t, size_t> index;  // family -> node
    std::vector<uint32_t> queue;
    auto addFocus = [&](std::optional<uint32_t> id, ChainNode node) {
        if (!id || index.count(*id) || index.size() >= maxFocus)
            return;
        index[*id] = s.nodes.size();
        s.nodes.push_back(std::move(node));
        queue.push_back(*id);
    };
    for (uint32_t i = 0; i < nFamilies; ++i) {
        const SymptomFamily& f = r.families[i];
        if (f.role != EvidenceRole::Root)
            continue;
        std::optional<ChainNode> n;
        if (r.rootCause && names(f.representatives, r.rootCause->event))
            n = focusNode(*r.rootCause, true);
        for (const Candidate& c : r.candidates)
            if (!n && names(f.representatives, c.event))
                n = focusNode(c, false);
        if (!n) {
            n = familyNode(f);
            n->root = r.rootCause.has_value();
        }
        n->focus = true;
        addFocus(i, std::move(*n));
    }
    if (index.empty()) {
        // A candidate's family is that of its evidence lines (or the family it represents).
        std::map<EvidenceId, std::optional<uint32_t>> familyOfEvidence;
        for (const EvidenceItem& e : r.evidence)
            familyOfEvidence[e.id] =
                e.family && e.family->value < nFamilies ? std::optional<uint32_t>(e.family->value) : std::nullopt;
        for (const Candidate& c : r.candidates) {
            std::optional<uint32_t> id;
            for (const EvidenceId ev : c.evidence)
                if (!id)
                    if (auto it = familyOfEvidence.find(ev); it != familyOfEvidence.end())
                        id = it->second;
            for (uint32_t i = 0; i < nFamilies && !id; ++i)
                if (names(r.families[i].representatives, c.event))
                    id = i;
            addFocus(id, focusNode(c, false));
        }
    }
    const size_t focus = s.nodes.size();

    // Breadth first along the family edges; the families reached are listed in
    // the result's order (by role, then first time), up to the cap.
    std::set<uint32_t> reached;
    for (size_t q = 0; q < queue.size(); ++q)
        for (uint32_t to : out[queue[q]])
            if (!index.count(to) && reached.insert(to).second)
                queue.push_back(to);
    for (uint32_t i = 0; i < nFamilies; ++i) {
        if (!reached.count(i))
            continue;
        if (s.nodes.size() - focus >= maxGroups) {
            ++s.symptomsLeftOut;
            continue;
        }
        index[i] = s.nodes.size();
        s.nodes.push_back(familyNode(r.families[i]));
    }
    std::set<std::pair<size_t, size_t>> edges;
    for (const auto& [from, tos] : out) {
        auto f = index.find(from);
        if (f == index.end())
            continue;
        for (uint32_t to : tos) {
            auto t = index.find(to);
            if (t != index.end() && t->second != f->second)
                edges.insert({f->second, t->second});
        }
    }
    s.edges.assign(edges.begin(), edges.end());
    return s;
}

// From the per-event chain: the focus events as themselves, every event
// reachable from them merged by symptom id.
ChainSummary fromEvents(const Result& r, size_t maxFocus, size_t maxSymptoms)
{
    std::map<EventId, const SymptomEvent*> events;
    for (const SymptomEvent& e : r.events)
        events[e.id] = &e;
    std::map<EventId, std::vector<EventId>> out;
    for (const ChainEdge& e : r.edges)
        out[e.from].push_back(e.to);

    ChainSummary s;
    std::map<EventId, size_t> focusIndex;
    auto addFocus = [&](EventId id, bool root) {
        auto ev = events.find(id);
        if (ev == events.end() || focusIndex.count(id))
            return;
        focusIndex[id] = s.nodes.size();
        const SymptomEvent& e = *ev->second;
        s.nodes.push_back({true, root, e.symptom, place(e.node, e.gpuIndex, e.pciBus, e.rank),
                           timeText(e.time), 1, 1});
    };
    if (r.rootCause)
        addFocus(r.rootCause->event, true);
    else
        for (const Candidate& c : r.candidates)
            if (focusIndex.size() < maxFocus)
                addFocus(c.event, false);

    std::map<std::string, std::pair<size_t, std::set<std::string>>> bySymptom;
    std::set<EventId> seen;
    std::vector<EventId> queue;
    for (const auto& [id, index] : focusIndex) {
        queue.push_back(id);
        seen.insert(id);
    }
    std::vector<std::pair<std::string, std::string>> symptomEdges;  // from key, to symptom
    for (size_t q = 0; q < queue.size(); ++q) {
        const EventId from = queue[q];
        auto fe = events.find(from);
        const std::string fromKey = focusIndex.count(from) ? "#" + std::to_string(from.value) : fe->second->symptom.str();
        for (EventId to : out[from]) {
            auto te = events.find(to);
            if (te == events.end() || focusIndex.count(to))
                continue;
            const std::string& symptom = te->second->symptom;
            symptomEdges.push_back({fromKey, symptom});
            if (!seen.insert(to).second)
                continue;
            auto& slot = bySymptom[symptom];
            ++slot.first;
            slot.second.insert(te->second->node);
            queue.push_back(to);
        }
    }
    std::map<std::string, size_t> index;
    for (const auto& [id, i] : focusIndex)
        index["#" + std::to_string(id.value)] = i;
    for (const auto& [symptom, info] : bySymptom) {
        if (index.size() - focusIndex.size() >= maxSymptoms) {
            ++s.symptomsLeftOut;
            continue;
        }
        index[symptom] = s.nodes.size();
        s.nodes.push_back({false, false, symptom, {}, {}, info.first, info.second.size()});
    }
    std::set<std::pair<size_t, size_t>> edges;
    for (const auto& [fromKey, symptom] : symptomEdges) {
        auto f = index.find(fromKey), t = index.find(symptom);
        if (f != index.end() && t != index.end() && f->second != t->second)
            edges.insert({f->second, t->second});
    }
    s.edges.assign(edges.begin(), edges.end());
    return s;
}

} // namespace

std::string timeText(const Timestamp& t)
{
    const std::string text = t.known() ? formatTime(t) : std::string();
    return text.empty() ? std::string("no time") : text;
}

ChainSummary summariseChain(const Result& result, size_t maxFocus, size_t maxSymptoms)
{
    return result.families.empty() ? fromEvents(result, maxFocus, maxSymptoms)
                                   : fromFamilies(result, maxFocus, maxSymptoms);
}

} // namespace fl::present

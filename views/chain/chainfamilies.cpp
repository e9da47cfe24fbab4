// SPDX-License-Identifier: MIT
#include "views/chain/chainfamilies.h"

#include "present/family_label.h"
#include "present/verdict.h"

#include <algorithm>
#include <set>

namespace fl {

namespace {

style::Level levelOf(const SymptomFamily& f)
{
    switch (f.role) {
    case EvidenceRole::Root: return style::Root;
    case EvidenceRole::Symptom: return style::Symptom;
    case EvidenceRole::Interesting: return style::Interesting;
    case EvidenceRole::Context: break;
    }
    return style::Suppressed;
}

} // namespace

int ChainFamilies::familyOfEvent(EventId event) const
{
    auto it = familyOf.find(event);
    return it == familyOf.end() ? -1 : static_cast<int>(it->second);
}

ChainFamilies chainFamilies(const Result& r)
{
    std::set<FamilyId> members;
    for (const FamilyEdge& e : r.familyEdges) {
        members.insert(e.from);
        members.insert(e.to);
    }
    for (size_t i = 0; i < r.families.size(); ++i)
        if (r.families[i].role == EvidenceRole::Root)
            members.insert(FamilyId(static_cast<uint32_t>(i)));
    if (members.empty()) {
        // Without a chain the candidates still deserve a place in the graph.
        std::set<EventId> candidates;
        for (const Candidate& c : r.candidates)
            candidates.insert(c.event);
        for (size_t i = 0; i < r.families.size(); ++i) {
            const SymptomFamily& f = r.families[i];
            auto has = [&](const std::vector<EventId>& ids) {
                return std::any_of(ids.begin(), ids.end(), [&](EventId id) { return candidates.count(id) > 0; });
            };
            if (has(f.events) || has(f.representatives))
                members.insert(FamilyId(static_cast<uint32_t>(i)));
        }
    }

    ChainFamilies out;
    std::unordered_map<FamilyId, size_t> indexOf;  // Result::families index -> ours
    for (FamilyId i : members) {
        if (i.value >= r.families.size())
            continue;  // an edge naming a family the result does not hold
        const SymptomFamily& f = r.families[i.value];
        ChainFamily c;
        c.index = i;
        c.family = &f;
        c.level = levelOf(f);
        c.events = f.events.empty() ? f.representatives : f.events;
        std::sort(c.events.begin(), c.events.end());
        c.events.erase(std::unique(c.events.begin(), c.events.end()), c.events.end());
        c.representative = !f.representatives.empty() ? f.representatives.front() : c.events.empty() ? EventId() : c.events.front();
        indexOf[i] = out.families.size();
        for (EventId id : c.events)
            out.familyOf.emplace(id, out.families.size());
        out.families.push_back(std::move(c));
    }
    for (const FamilyEdge& e : r.familyEdges) {
        auto a = indexOf.find(e.from), b = indexOf.find(e.to);
        if (a != indexOf.end() && b != indexOf.end() && a->second != b->second)
            out.edges.push_back({a->second, b->second, e.rule, e.count});
    }
    std::sort(out.edges.begin(), out.edges.end(), [](const ChainFamilyEdge& a, const ChainFamilyEdge& b) {
        return std::tie(a.from, a.to, a.rule) < std::tie(b.from, b.to, b.rule);
    });
    return out;
}

QString familyTitle(const SymptomFamily& f)
{
    return style::q(f.symptom + present::familySize(f));
}

QString familyPlace(const SymptomFamily& f, int maxGroups)
{
    return style::q(present::familyPlace(f, maxGroups > 0 ? static_cast<size_t>(maxGroups) : 0));
}

} // namespace fl

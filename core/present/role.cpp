#include "present/role.h"

#include <map>

namespace fl::present {

EventRoles::EventRoles(const Result& result, const std::vector<ChainEdge>& edges)
{
    if (result.rootCause)
        m_roots.insert(result.rootCause->event);
    if (result.status == ResultStatus::Ambiguous)
        for (const auto& c : result.candidates)
            if (c.outcome.tied())
                m_roots.insert(c.event);
    std::map<EventId, std::vector<EventId>> children;
    for (const auto& e : edges)
        children[e.from].push_back(e.to);
    std::vector<EventId> stack(m_roots.begin(), m_roots.end());
    while (!stack.empty()) {
        const EventId id = stack.back();
        stack.pop_back();
        if (auto it = children.find(id); it != children.end())
            for (EventId to : it->second)
                if (!m_roots.count(to) && m_downstream.insert(to).second)
                    stack.push_back(to);
    }
}

EvidenceRole EventRoles::operator()(const SymptomEvent& e) const
{
    if (e.evidenceRole)
        return *e.evidenceRole;
    if (isRoot(e.id))
        return EvidenceRole::Root;
    if (e.suppressed)
        return EvidenceRole::Context;
    if (isDownstream(e.id))
        return EvidenceRole::Symptom;
    return EvidenceRole::Interesting;
}

int rolePriority(EvidenceRole r)
{
    switch (r) {
    case EvidenceRole::Root: return 3;
    case EvidenceRole::Symptom: return 2;
    case EvidenceRole::Interesting: return 1;
    case EvidenceRole::Context: return 0;
    }
    return 0;
}

} // namespace fl::present

// The one rule for the role an event plays in a verdict: the root cause (or
// the tied candidates of an ambiguous result), its downstream symptoms, other
// interesting events, and context. The report's evidence roles and every
// view's colours come from it, so the evidence list, the timeline and the
// chain cannot disagree about the same event.
#pragma once

#include "model.h"

#include <set>
#include <vector>

namespace fl::present {

class EventRoles {
public:
    // Roots come from `result` (its root cause, or its tied candidates when
    // ambiguous); downstream is every event reachable from a root along `edges`.
    EventRoles(const Result& result, const std::vector<ChainEdge>& edges);
    // The views' form: the result's own chain edges.
    explicit EventRoles(const Result& result) : EventRoles(result, result.edges) {}

    // A report rule's evidence role wins; then root, suppressed (context),
    // downstream (symptom), anything else (interesting).
    [[nodiscard]] EvidenceRole operator()(const SymptomEvent& e) const;

    [[nodiscard]] bool isRoot(EventId event) const { return m_roots.count(event) != 0; }
    [[nodiscard]] bool isDownstream(EventId event) const { return m_downstream.count(event) != 0; }
    [[nodiscard]] const std::set<EventId>& roots() const { return m_roots; }
    [[nodiscard]] const std::set<EventId>& downstream() const { return m_downstream; }

private:
    std::set<EventId> m_roots;
    std::set<EventId> m_downstream;
};

// Order of strength: root > symptom > interesting > context.
[[nodiscard]] int rolePriority(EvidenceRole r);

} // namespace fl::present

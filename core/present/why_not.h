// Why an event is not the cause of the failure, in one sentence: the lesson a
// learner needs when they picked a red herring, and what the exercise key and
// the quiz's reveal say about every line the engine matched. Written from the
// engine's typed decisions (candidate outcome, suppression, chain edge, role
// override, the catalogue's role), never per fault kind.
#pragma once

#include "model.h"
#include "present/role.h"
#include "present/verdict.h"

#include <string>
#include <unordered_map>

namespace fl::present {

class WhyNot {
public:
    // `result` and `roles` must outlive this object.
    WhyNot(const Result& result, const EventRoles& roles);

    // Empty for a root (it is the cause). `def` is the event's catalogue entry; null when the rules are not at
    // hand (a result read back from the service), when the sentence says less. `title`: the def's title with the
    // event's fields filled in (empty: the symptom id alone names it).
    [[nodiscard]] std::string operator()(const SymptomEvent& e, const SymptomDef* def, const std::string& title) const;

    // Why a root is the cause: its candidate verdict ("root cause: earliest initiating event ...").
    [[nodiscard]] std::string whyRoot(const SymptomEvent& e) const;

private:
    const Result& m_result;
    const EventRoles& m_roles;
    CandidateIndex m_candidates;
    std::unordered_map<EventId, const ChainEdge*> m_cause;     // the first edge into each event
    std::unordered_map<EventId, const SymptomEvent*> m_events;
};

} // namespace fl::present

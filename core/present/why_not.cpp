#include "present/why_not.h"

namespace fl::present {

namespace {

const std::string& str(const SharedText& t)
{
    return t;
}

std::string named(const SymptomEvent& e, const std::string& title)
{
    const std::string& symptom = str(e.symptom);
    return title.empty() || title == symptom ? symptom : title + " [" + symptom + "]";
}

} // namespace

WhyNot::WhyNot(const Result& result, const EventRoles& roles) : m_result(result), m_roles(roles), m_candidates(result)
{
    m_events.reserve(result.events.size());
    for (const SymptomEvent& e : result.events)
        m_events.emplace(e.id, &e);
    for (const ChainEdge& edge : result.edges)
        m_cause.emplace(edge.to, &edge); // the first, as the chain lists them
}

std::string WhyNot::whyRoot(const SymptomEvent& e) const
{
    if (const Candidate* c = m_candidates.find(e.id))
        return candidateVerdict(*c, m_candidates);
    return "the initiating event the verdict names";
}

std::string WhyNot::operator()(const SymptomEvent& e, const SymptomDef* def, const std::string& title) const
{
    if (m_roles.isRoot(e.id))
        return {};
    const std::string what = named(e, title);
    if (e.suppressed)
        return what + " was set aside by rule " + str(e.suppressedBy) +
               (str(e.suppressReason).empty() ? std::string() : ": " + str(e.suppressReason));
    if (const Candidate* c = m_candidates.find(e.id); c && c->outcome.reason != CandidateReason::None)
        return what + " was a candidate cause and " + candidateVerdict(*c, m_candidates);
    if (auto it = m_cause.find(e.id); it != m_cause.end()) {
        const ChainEdge& edge = *it->second;
        std::string cause = "another event";
        if (auto from = m_events.find(edge.from); from != m_events.end())
            cause = str(from->second->symptom) + " on " +
                    place(from->second->node, from->second->gpuIndex, from->second->pciBus, from->second->rank);
        return what + " is a consequence of " + cause + " (rule " + str(edge.rule) + "): it followed the fault, it "
               "did not start it";
    }
    if (e.roleOverride && *e.roleOverride != SymptomRole::Initiator)
        return what + " is counted as " + (*e.roleOverride == SymptomRole::Symptom ? "a symptom" : "context") +
               " here by rule " +
               str(e.roleOverrideBy) + ", so it cannot start the failure";
    if (def) {
        const std::string advice = def->advice.empty() ? std::string() : " (" + def->advice + ")";
        switch (def->role) {
        case SymptomRole::Informational:
            return what + " is informational in the rules' catalogue: benign or context by itself, not a cause" +
                   advice;
        case SymptomRole::Symptom:
            return what + " is a symptom in the rules' catalogue: an effect of a failure, which no rule linked to an "
                          "initiating event here";
        case SymptomRole::Unknown:
            return what + " is a member of its family the catalogue does not know, so it is not weighed as a cause";
        case SymptomRole::Initiator:
            break;
        }
    }
    if (m_result.status == ResultStatus::Unattributed)
        return what + " did not start the failure as far as the evidence shows: the verdict names no cause";
    return what + " is not linked to the failure by any rule and was not a candidate of the terminal episode";
}

} // namespace fl::present

#include "exercise/replay.h"

#include "exercise/quiz.h"
#include "present/role.h"
#include "present/verdict.h"
#include "present/why_not.h"
#include "rules/ruleset.h"
#include "rules/template.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace fl::exercise {

namespace {

// The first phase a trace action touched each event in.
using FirstPhase = std::map<EventId, Phase>;

void note(FirstPhase& at, EventId e, Phase p)
{
    const auto [it, fresh] = at.emplace(e, p);
    if (!fresh && p < it->second)
        it->second = p;
}

struct TraceFacts {
    FirstPhase suppressed, evidenceRole, roleOverride;
    std::set<EventId> rewrittenLater;                      // renamed by a phase after `through`
    std::set<std::tuple<EventId, std::string>> linked;     // (target, rule) linked by `through`
    std::set<std::tuple<EventId, std::string>> linkedLater;
};

TraceFacts factsOf(const std::vector<TraceStep>& trace, Phase through)
{
    TraceFacts f;
    for (const TraceStep& s : trace)
        for (EventId e : s.events)
            switch (s.action) {
            case TraceAction::Suppressed:
            case TraceAction::Merged: note(f.suppressed, e, s.phase); break;
            case TraceAction::EvidenceRole: note(f.evidenceRole, e, s.phase); break;
            case TraceAction::Role: note(f.roleOverride, e, s.phase); break;
            case TraceAction::Rewrote:
            case TraceAction::Decoded:
                if (s.phase > through)
                    f.rewrittenLater.insert(e);
                break;
            case TraceAction::Linked:
                (s.phase <= through ? f.linked : f.linkedLater).emplace(e, s.rule);
                break;
            default: break;
            }
    return f;
}

// Whether a change is known after `through`: its trace step's phase, else (not in the trace) from outcome on.
bool known(const FirstPhase& at, EventId e, Phase through)
{
    const auto it = at.find(e);
    return it != at.end() ? it->second <= through : through >= Phase::Outcome;
}

bool later(const Timestamp& t, int64_t atNs)
{
    return atNs != kNoTime && t.known() && t.basis != TimeBasis::BootRelative && t.ns > atNs;
}

} // namespace

Result knownAfter(const Result& full, const std::vector<TraceStep>& trace, Phase through, int64_t atNs)
{
    Result r = full;
    const TraceFacts facts = factsOf(trace, through);
    for (SymptomEvent& e : r.events) {
        if (e.suppressed && !known(facts.suppressed, e.id, through)) {
            e.suppressed = false;
            e.suppressedBy = {};
            e.suppressReason = {};
        }
        if (e.evidenceRole && !known(facts.evidenceRole, e.id, through))
            e.evidenceRole.reset();
        if (e.roleOverride && !known(facts.roleOverride, e.id, through)) {
            e.roleOverride.reset();
            e.roleOverrideBy = {};
        }
        if (facts.rewrittenLater.count(e.id) && !e.originalSymptom.empty())
            e.symptom = e.originalSymptom;  // the name it was found under
    }
    std::erase_if(r.edges, [&](const ChainEdge& edge) {
        const auto key = std::make_tuple(edge.to, edge.rule.str());
        if (facts.linked.count(key))
            return false;
        return facts.linkedLater.count(key) || through < Phase::Outcome;
    });
    if (through < Phase::Outcome) {
        clearVerdict(r);
        r.familyEdges.clear();
        for (SymptomFamily& f : r.families) {
            f.role = EvidenceRole::Interesting;
            f.causes.clear();
        }
    }
    if (atNs != kNoTime) {
        std::set<EventId> gone;
        for (const SymptomEvent& e : r.events)
            if (later(e.time, atNs))
                gone.insert(e.id);
        std::erase_if(r.events, [&](const SymptomEvent& e) { return gone.count(e.id) != 0; });
        std::erase_if(r.edges, [&](const ChainEdge& e) { return gone.count(e.from) || gone.count(e.to); });
        std::erase_if(r.evidence, [&](const EvidenceItem& ev) { return gone.count(ev.event) || later(ev.time, atNs); });
        std::erase_if(r.candidates, [&](const Candidate& c) { return gone.count(c.event) != 0; });
        if (r.rootCause && gone.count(r.rootCause->event)) {
            r.rootCause.reset();
            r.status = r.candidates.size() >= 2 ? ResultStatus::Ambiguous : ResultStatus::Unattributed;
        }
    }
    // Evidence roles follow the events' roles as now known (the report phase writes them from the same rule).
    if (through < Phase::Report || atNs != kNoTime) {
        const present::EventRoles roles(r);
        std::map<EventId, const SymptomEvent*> byId;
        for (const SymptomEvent& e : r.events)
            byId.emplace(e.id, &e);
        for (EvidenceItem& ev : r.evidence)
            if (const auto it = byId.find(ev.event); it != byId.end())
                ev.role = roles(*it->second);
            else
                ev.role = EvidenceRole::Interesting;
    }
    return r;
}

std::string eventTitle(const Analysis& a, const SymptomEvent& e, const SymptomDef** def)
{
    const SymptomDef* d = a.rules ? a.rules->symptom(static_cast<const std::string&>(e.symptom)) : nullptr;
    if (def)
        *def = d;
    return d && !d->title.empty() ? expandTemplate(d->title, e.fields) : std::string(e.symptom);
}

WhyNotLines whyNotAt(const Analysis& full, const std::vector<TraceStep>& trace, Phase phase, size_t limit)
{
    // What this phase set aside; at outcome also what the choice passed over (said at no earlier phase).
    std::set<EventId> demoted, earlier;
    for (const TraceStep& s : trace) {
        bool demotes = false;
        switch (s.action) {
        case TraceAction::Suppressed:
        case TraceAction::Merged:
        case TraceAction::Linked: demotes = true; break;
        case TraceAction::Role: demotes = s.change != toString(SymptomRole::Initiator); break;
        default: break;
        }
        if (!demotes)
            continue;
        if (s.phase == phase)
            demoted.insert(s.events.begin(), s.events.end());
        else if (s.phase < phase)
            earlier.insert(s.events.begin(), s.events.end());
    }
    Analysis known;
    known.result = knownAfter(full.result, trace, phase);
    const Result& r = known.result;
    const present::EventRoles roles(r);
    const present::WhyNot whyNot(r, roles);
    const bool passedOver = phase == Phase::Outcome && (r.rootCause || !r.candidates.empty());
    std::vector<const SymptomEvent*> said;
    for (const SymptomEvent& e : r.events)
        if (!roles.isRoot(e.id) && (demoted.count(e.id) || (passedOver && !earlier.count(e.id))))
            said.push_back(&e);
    // In time order (an investigation reads forwards; the red herring before the fault comes first); untimed and
    // boot-relative (not comparable with dates) last.
    std::stable_sort(said.begin(), said.end(), [](const SymptomEvent* a, const SymptomEvent* b) {
        const bool at = a->time.known() && a->time.basis != TimeBasis::BootRelative;
        const bool bt = b->time.known() && b->time.basis != TimeBasis::BootRelative;
        return at != bt ? at : at && a->time.ns < b->time.ns;
    });
    WhyNotLines out;
    out.total = said.size();
    for (size_t i = 0; i < said.size() && i < limit; ++i) {
        const SymptomEvent& e = *said[i];
        const SymptomDef* def = nullptr;
        const std::string title = eventTitle(full, e, &def);
        out.lines.push_back({e.id, present::place(e.node, e.gpuIndex, e.pciBus, e.rank) + ": " + whyNot(e, def, title)});
    }
    return out;
}

} // namespace fl::exercise

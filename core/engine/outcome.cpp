// OUTCOME: pick the initiating event of the terminal episode, or say that the
// evidence fits several causes (ambiguous) or none (unattributed).
//
// Candidates are the non-suppressed bad-node events whose effective role is
// "initiator". The episode ends at the manifest's detected_at (or the last bad
// event) and reaches back episode_window_s. Among candidates in the episode,
// those that no other precedes (engine/ordering.cpp: interval order after
// clock offsets, then causal edges, then weight on one node) are first: one is
// the root cause, several on different nodes make the verdict ambiguous.
#include "engine/clock_offsets.h"
#include "engine/internal.h"
#include "engine/ordering.h"
#include "present/timefmt.h"
#include "present/verdict.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace fl::detail {

namespace {

bool comparableTime(const SymptomEvent& e)
{
    return e.timeNs != kNoTime && e.timeBasis != TimeBasis::BootRelative && e.timeBasis != TimeBasis::None;
}

std::string place(const SymptomEvent& e)
{
    return present::place(e.node, e.gpuIndex, e.pciBus, e.rank);
}

} // namespace

void computeOutcome(const State& state, const std::vector<SymptomEvent>& events, const std::vector<ChainEdge>& edges,
                    Result& result, std::vector<TraceStep>* trace)
{
    const RuleSet& rules = *state.rules;
    const int64_t tol = static_cast<int64_t>(rules.setting("clock_skew_tolerance_s", 2.0) * 1e9);
    const int64_t window = static_cast<int64_t>(rules.setting("episode_window_s", 3600.0) * 1e9);
    const int margin = static_cast<int>(rules.setting("ambiguity_weight_margin", 10.0));

    const ClockModel& clocks = state.clocks;
    for (const auto& [node, off] : clocks.offsets)
        result.clockOffsets.push_back(off);

    auto def = [&](const SymptomEvent& e) { return rules.symptom(e.symptom); };
    // A cause that symptoms name but no line shows (an `infer` rule) weighs
    // less than one observed: at the same place and time the observed one wins.
    const int inferredPenalty = static_cast<int>(rules.setting("inferred_weight_penalty", 25.0));
    auto weight = [&](const SymptomEvent& e) {
        const SymptomDef* d = def(e);
        return (d ? d->weight : 0) - (e.inferred ? inferredPenalty : 0);
    };

    // Episode end: the manifest's detection time, else the last bad event.
    int64_t end = kNoTime;
    if (state.manifest && state.manifest->detectedAtNs != kNoTime)
        end = state.manifest->detectedAtNs;
    if (end == kNoTime)
        for (const auto& e : events)
            if (!e.suppressed && e.kind == EventKind::BadNode && comparableTime(e))
                end = std::max(end, e.timeNs);
    const int64_t start = end == kNoTime ? kNoTime : end - window;

    std::vector<const SymptomEvent*> all, inEpisode, untimed;
    for (const auto& e : events) {
        if (e.suppressed || e.kind != EventKind::BadNode || effectiveRole(state, e) != SymptomRole::Initiator)
            continue;
        all.push_back(&e);
        if (!comparableTime(e))
            untimed.push_back(&e);
        else if (end == kNoTime || (e.timeNs >= start && e.timeNs <= end + tol))
            inEpisode.push_back(&e);
    }
    std::sort(inEpisode.begin(), inEpisode.end(), [](const SymptomEvent* a, const SymptomEvent* b) {
        return std::tie(a->timeNs, a->id) < std::tie(b->timeNs, b->id);
    });

    std::set<std::pair<EventId, EventId>> edgeSet;
    for (const auto& e : edges)
        edgeSet.insert({e.from, e.to});
    auto supportOf = [&](EventId id) {
        return static_cast<uint32_t>(
            std::count_if(edges.begin(), edges.end(), [&](const ChainEdge& x) { return x.from == id; }));
    };

    // Timed candidates are ordered by their intervals and causal links
    // (engine/ordering.cpp); a candidate whose time cannot be placed at all
    // stands only when no timed one does.
    const OrderingInputs ordering{clocks, edgeSet, weight, margin};
    const InitiatorOrder first = orderInitiators(ordering, inEpisode.empty() ? untimed : inEpisode);
    const SymptomEvent* winner = first.winner;
    const std::vector<const SymptomEvent*> tied = first.tied;

    // Candidates, with why each lost.
    for (const auto* c : all) {
        Candidate cand;
        const SymptomDef* d = def(*c);
        cand.event = c->id;
        cand.symptom = c->symptom;
        cand.title = d ? expandTemplate(d->title, c->fields) : c->symptom;
        cand.domain = d ? d->domain : "unknown";
        cand.subDomain = d ? d->subDomain : "";
        cand.node = c->node;
        cand.rank = c->rank;
        cand.gpuIndex = c->gpuIndex;
        cand.timeNs = c->timeNs;
        cand.timeBasis = c->timeBasis;
        cand.interval = clocks.corrected(*c);
        cand.support = supportOf(c->id);
        cand.pciBus = c->pciBus;
        cand.inferred = c->inferred;
        CandidateOutcome& o = cand.outcome;
        if (winner && c != winner)
            o.other = winner->id;
        if (c == winner) {
            cand.chosen = tied.empty();
            o.reason = tied.empty() ? CandidateReason::RootCause : CandidateReason::TiedWinner;
        } else if (std::find(tied.begin(), tied.end(), c) != tied.end()) {
            o.reason = CandidateReason::TiedWith;
            o.deltaNs = std::llabs(c->timeNs - winner->timeNs);
            o.limitNs = tol;
        } else if (!comparableTime(*c)) {
            o.reason = CandidateReason::Untimed;
        } else if (end != kNoTime && (c->timeNs < start || c->timeNs > end + tol)) {
            o.reason = c->timeNs < start ? CandidateReason::BeforeEpisode : CandidateReason::AfterDetection;
            o.limitNs = window;
        } else if (winner && edgeSet.count({winner->id, c->id})) {
            o.reason = CandidateReason::Consequence;
        } else if (winner && c->timeNs >= winner->timeNs) {
            o.reason = CandidateReason::Later;
            o.deltaNs = c->timeNs - winner->timeNs;
        } else if (winner) {
            o.reason = CandidateReason::Lighter;
        }
        result.candidates.push_back(std::move(cand));
    }
    std::sort(result.candidates.begin(), result.candidates.end(), [](const Candidate& a, const Candidate& b) {
        return std::tie(a.timeNs, a.event) < std::tie(b.timeNs, b.event);
    });

    if (winner && tied.empty()) {
        const SymptomDef* d = def(*winner);
        result.status = ResultStatus::Attributed;
        result.domain = d ? d->domain : "unknown";
        result.subDomain = d ? d->subDomain : "";
        RootCause rc;
        rc.event = winner->id;
        rc.symptom = winner->symptom;
        rc.title = d ? expandTemplate(d->title, winner->fields) : winner->symptom;
        rc.node = winner->node;
        rc.gpuIndex = winner->gpuIndex;
        rc.pciBus = winner->pciBus;
        rc.rank = winner->rank;
        rc.timeNs = winner->timeNs;
        rc.timeBasis = winner->timeBasis;
        rc.interval = clocks.corrected(*winner);
        rc.advice = d ? d->advice : "";
        rc.inferred = winner->inferred;
        // A rule may set the event's own advice (Xid 154's required recovery
        // action overrides the catalogue's); the catalogue's follows it.
        if (auto it = winner->fields.find("advice"); it != winner->fields.end() && !it->second.empty())
            rc.advice = it->second + (rc.advice.empty() ? std::string() : " Catalogue: " + rc.advice);
        result.rootCause = rc;
        if (trace)
            trace->push_back({"outcome", "engine", TraceAction::Chose, {winner->id},
                              winner->symptom + " on " + place(*winner) + " at " + formatTime(winner->timeNs, winner->timeBasis), {}});
    } else if (winner) {
        std::set<std::string> domains;
        domains.insert(def(*winner) ? def(*winner)->domain : "unknown");
        for (const auto* c : tied)
            domains.insert(def(*c) ? def(*c)->domain : "unknown");
        result.status = ResultStatus::Ambiguous;
        result.domain = domains.size() == 1 ? *domains.begin() : "unknown";
        result.subDomain = "ambiguous";
        if (trace) {
            std::vector<EventId> ids{winner->id};
            for (const auto* c : tied)
                ids.push_back(c->id);
            trace->push_back({"outcome", "engine", TraceAction::Ambiguous, ids,
                              std::to_string(ids.size()) + " initiating candidates on different nodes within " +
                                  present::seconds(tol), {}});
        }
    } else {
        result.status = ResultStatus::Unattributed;
        result.domain = "unknown";
        result.subDomain = "";
        if (trace)
            trace->push_back({"outcome", "engine", TraceAction::Unattributed, {}, "no initiating event in the evidence", {}});
    }

    // Outcome: what happened to the workload, as far as the evidence says.
    bool anyBad = std::any_of(events.begin(), events.end(),
                              [](const SymptomEvent& e) { return !e.suppressed && e.kind == EventKind::BadNode; });
    result.outcome = "unknown";
    if (state.manifest && !state.manifest->detectionSignal.empty())
        result.outcome = "failed";
    else if (anyBad)
        result.outcome = "failed";
    if (result.rootCause && result.domain == "scheduler")
        result.outcome = "terminated_by_scheduler";
}

} // namespace fl::detail

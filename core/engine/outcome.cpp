// OUTCOME: pick the initiating event of the terminal episode, or say that the
// evidence fits several causes (ambiguous) or none (unattributed).
//
// Candidates are the non-suppressed bad-node events whose effective role is
// "initiator". The episode ends at the manifest's detected_at (or the last bad
// event) and reaches back episode_window_s. Among candidates in the episode,
// those that no other precedes (engine/ordering.cpp: interval order after
// clock offsets, then causal edges, then weight on one node) are first: one is
// the root cause, several on different nodes make the verdict ambiguous. A
// candidate that began clearly after the waiting symptoms say the hang began
// (engine/onset.h) is none of them: it lost to the onset, not to another candidate.
#include "engine/clock_offsets.h"
#include "engine/internal.h"
#include "engine/onset.h"
#include "engine/ordering.h"
#include "engine/would_decide.h"
#include "present/timefmt.h"
#include "present/verdict.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace fl::detail {

namespace {

bool comparableTime(const SymptomEvent& e)
{
    return e.time.known() && e.time.basis != TimeBasis::BootRelative && e.time.basis != TimeBasis::None;
}

std::string place(const SymptomEvent& e)
{
    return present::place(e.node, e.gpuIndex, e.pciBus, e.rank);
}

// The rule set's settings the outcome reads, in nanoseconds where they are times.
struct OutcomeSettings {
    int64_t tolNs = 0;       // clock_skew_tolerance_s: closer than this is "at the same time"
    int64_t windowNs = 0;    // episode_window_s: how far before the detection an initiator may be
    int margin = 0;          // ambiguity_weight_margin
    int inferredPenalty = 0; // inferred_weight_penalty
};

OutcomeSettings settingsOf(const RuleSet& rules)
{
    OutcomeSettings s;
    s.tolNs = static_cast<int64_t>(rules.setting("clock_skew_tolerance_s", 2.0) * 1e9);
    s.windowNs = static_cast<int64_t>(rules.setting("episode_window_s", 3600.0) * 1e9);
    s.margin = static_cast<int>(rules.setting("ambiguity_weight_margin", 10.0));
    // A cause that symptoms name but no line shows (an `infer` rule) weighs
    // less than one observed: at the same place and time the observed one wins.
    s.inferredPenalty = static_cast<int>(rules.setting("inferred_weight_penalty", 25.0));
    return s;
}

// The terminal episode: [endNs - window, endNs + tolerance]; unbounded when nothing dates its end.
struct Episode {
    int64_t startNs = kNoTime;
    int64_t endNs = kNoTime;
    int64_t tolNs = 0;

    bool bounded() const { return endNs != kNoTime; }
    bool contains(int64_t t) const { return !bounded() || (t >= startNs && t <= endNs + tolNs); }
};

// Episode end: the manifest's detection time, else the last bad event.
Episode episodeOf(const State& state, const std::vector<SymptomEvent>& events, const OutcomeSettings& s)
{
    Episode ep;
    ep.tolNs = s.tolNs;
    if (state.manifest && state.manifest->detectedAtNs != kNoTime)
        ep.endNs = state.manifest->detectedAtNs;
    if (ep.endNs == kNoTime)
        for (const auto& e : events)
            if (!e.suppressed && e.kind == EventKind::BadNode && comparableTime(e))
                ep.endNs = std::max(ep.endNs, e.time.ns);
    ep.startNs = ep.endNs == kNoTime ? kNoTime : ep.endNs - s.windowNs;
    return ep;
}

// The initiating candidates: every one, those timed inside the episode
// (sorted by time, then id), and those whose time cannot be placed.
struct CandidatePool {
    std::vector<const SymptomEvent*> all, inEpisode, untimed;
};

CandidatePool candidatePool(const State& state, const std::vector<SymptomEvent>& events, const Episode& ep)
{
    CandidatePool pool;
    for (const auto& e : events) {
        if (e.suppressed || e.kind != EventKind::BadNode || effectiveRole(state, e) != SymptomRole::Initiator)
            continue;
        pool.all.push_back(&e);
        if (!comparableTime(e))
            pool.untimed.push_back(&e);
        else if (ep.contains(e.time.ns))
            pool.inEpisode.push_back(&e);
    }
    std::sort(pool.inEpisode.begin(), pool.inEpisode.end(), [](const SymptomEvent* a, const SymptomEvent* b) {
        return std::tie(a->time.ns, a->id) < std::tie(b->time.ns, b->id);
    });
    return pool;
}

// A candidate that began clearly after the hang did: how far after, and the slack it exceeded.
struct Late {
    int64_t deltaNs = 0;
    int64_t limitNs = 0;
};

// The in-episode candidates that began clearly after the hang did.
std::map<const SymptomEvent*, Late> laterThanOnset(const ClockModel& clocks, const std::vector<SymptomEvent>& events,
                                                      const std::optional<HangOnset>& onset,
                                                      const std::vector<const SymptomEvent*>& inEpisode)
{
    std::map<const SymptomEvent*, Late> later;
    if (!onset)
        return later;
    for (const auto* c : inEpisode)
        if (int64_t delta = 0; afterOnset(clocks, events, *onset, *c, delta))
            later.emplace(c, Late{delta, clocks.onsetSlackNs});
    return later;
}

// Why candidate `c` won or lost against the first initiators.
CandidateOutcome outcomeOf(const SymptomEvent& c, const InitiatorOrder& first, const Episode& ep,
                           const std::set<std::pair<EventId, EventId>>& edgeSet, const OutcomeSettings& s,
                           const std::map<const SymptomEvent*, Late>& lateOnes)
{
    const SymptomEvent* winner = first.winner;
    const auto& tied = first.tied;
    CandidateOutcome o;
    if (winner && &c != winner)
        o.other = winner->id;
    if (&c == winner) {
        o.reason = tied.empty() ? CandidateReason::RootCause : CandidateReason::TiedWinner;
    } else if (std::find(tied.begin(), tied.end(), &c) != tied.end()) {
        o.reason = CandidateReason::TiedWith;
        o.deltaNs = std::llabs(c.time.ns - winner->time.ns);
        o.limitNs = s.tolNs;
    } else if (!comparableTime(c)) {
        o.reason = CandidateReason::Untimed;
    } else if (!ep.contains(c.time.ns)) {
        o.reason = c.time.ns < ep.startNs ? CandidateReason::BeforeEpisode : CandidateReason::AfterDetection;
        o.limitNs = s.windowNs;
    } else if (auto late = lateOnes.find(&c); late != lateOnes.end()) {
        o.reason = CandidateReason::AfterOnset;
        o.deltaNs = late->second.deltaNs;
        o.limitNs = late->second.limitNs;
    } else if (winner && edgeSet.count({winner->id, c.id})) {
        o.reason = CandidateReason::Consequence;
    } else if (winner && c.time.ns >= winner->time.ns) {
        o.reason = CandidateReason::Later;
        o.deltaNs = c.time.ns - winner->time.ns;
    } else if (winner) {
        o.reason = CandidateReason::Lighter;
    }
    return o;
}

Domain domainOf(const SymptomDef* d)
{
    return d ? d->domain : Domain::Unknown;
}

// What a candidate and the root cause say alike about their event: which
// one, its title, where and when (also after clock correction), inferred or seen.
template <class Described>
Described describe(const SymptomEvent& e, const SymptomDef* d, const ClockModel& clocks)
{
    Described out;
    out.event = e.id;
    out.symptom = e.symptom;
    out.title = d ? expandTemplate(d->title, e.fields) : e.symptom.str();
    out.node = e.node;
    out.rank = e.rank;
    out.gpuIndex = e.gpuIndex;
    out.pciBus = e.pciBus;
    out.time = {e.time.ns, e.time.basis, clocks.corrected(e)};
    out.inferred = e.inferred;
    return out;
}

// A candidate as the result lists it; its outcome is filled in by the caller.
Candidate candidateOf(const SymptomEvent& c, const SymptomDef* d, const ClockModel& clocks, uint32_t support)
{
    Candidate cand = describe<Candidate>(c, d, clocks);
    cand.domain = domainOf(d);
    cand.subDomain = d ? d->subDomain : "";
    cand.support = support;
    return cand;
}

RootCause rootCauseOf(const SymptomEvent& winner, const SymptomDef* d, const ClockModel& clocks)
{
    RootCause rc = describe<RootCause>(winner, d, clocks);
    rc.advice = d ? d->advice : "";
    // A rule may set the event's own advice (Xid 154's required recovery
    // action overrides the catalogue's); the catalogue's follows it.
    if (auto it = winner.fields.find("advice"); it != winner.fields.end() && !it->second.empty())
        rc.advice = it->second + (rc.advice.empty() ? std::string() : " Catalogue: " + rc.advice);
    return rc;
}

// Status, domain and root cause from the first initiators, with the trace step that says so.
void decide(const RuleSet& rules, const InitiatorOrder& first, const ClockModel& clocks, const OutcomeSettings& s,
            Result& result, std::vector<TraceStep>* trace)
{
    auto def = [&](const SymptomEvent& e) { return rules.symptom(e.symptom.str()); };
    const SymptomEvent* winner = first.winner;
    if (winner && first.tied.empty()) {
        const SymptomDef* d = def(*winner);
        result.status = ResultStatus::Attributed;
        result.domain = domainOf(d);
        result.subDomain = d ? d->subDomain : "";
        result.rootCause = rootCauseOf(*winner, d, clocks);
        if (trace)
            trace->push_back({Phase::Outcome, "engine", TraceAction::Chose, {winner->id},
                              winner->symptom.str() + " on " + place(*winner) + " at " + formatTime(winner->time), {}});
    } else if (winner) {
        std::set<Domain> domains;
        domains.insert(domainOf(def(*winner)));
        for (const auto* c : first.tied)
            domains.insert(domainOf(def(*c)));
        result.status = ResultStatus::Ambiguous;
        result.domain = domains.size() == 1 ? *domains.begin() : Domain::Unknown;
        result.subDomain = "ambiguous";
        if (trace) {
            std::vector<EventId> ids{winner->id};
            for (const auto* c : first.tied)
                ids.push_back(c->id);
            trace->push_back({Phase::Outcome, "engine", TraceAction::Ambiguous, ids,
                              std::to_string(ids.size()) + " initiating candidates on different nodes within " +
                                  present::seconds(s.tolNs), {}});
        }
    } else {
        result.status = ResultStatus::Unattributed;
        result.domain = Domain::Unknown;
        result.subDomain = "";
        if (trace)
            trace->push_back({Phase::Outcome, "engine", TraceAction::Unattributed, {},
                              result.onset ? "no initiating event before the hang's onset"
                                           : "no initiating event in the evidence", {}});
    }
}

// What happened to the workload, as far as the evidence says.
WorkloadOutcome workloadOutcome(const State& state, const std::vector<SymptomEvent>& events, const Result& result)
{
    if (result.rootCause && result.domain == Domain::Scheduler)
        return WorkloadOutcome::TerminatedByScheduler;
    if (state.manifest && !state.manifest->detectionSignal.empty())
        return WorkloadOutcome::Failed;
    const bool anyBad = std::any_of(events.begin(), events.end(),
                                    [](const SymptomEvent& e) { return !e.suppressed && e.kind == EventKind::BadNode; });
    return anyBad ? WorkloadOutcome::Failed : WorkloadOutcome::Unknown;
}

} // namespace

void computeOutcome(const State& state, const std::vector<SymptomEvent>& events, const std::vector<ChainEdge>& edges,
                    Result& result, std::vector<TraceStep>* trace)
{
    const RuleSet& rules = *state.rules;
    const OutcomeSettings settings = settingsOf(rules);
    const ClockModel& clocks = state.clocks;
    for (const auto& [node, off] : clocks.offsets)
        result.clockOffsets.push_back(off);

    const Episode episode = episodeOf(state, events, settings);
    const CandidatePool pool = candidatePool(state, events, episode);

    std::set<std::pair<EventId, EventId>> edgeSet;
    std::map<EventId, uint32_t> support; // edges out of each event
    for (const auto& e : edges) {
        edgeSet.insert({e.from, e.to});
        ++support[e.from];
    }

    // Timed candidates are ordered by their intervals and causal links
    // (engine/ordering.cpp); a candidate whose time cannot be placed at all
    // stands only when no timed one does.
    auto weight = [&](const SymptomEvent& e) {
        const SymptomDef* d = rules.symptom(e.symptom.str());
        return (d ? d->weight : 0) - (e.inferred ? settings.inferredPenalty : 0);
    };
    // The waits say when the hang began: a candidate clearly after it is out of the running. With none
    // left, an untimed one may still have come first.
    result.onset = hangOnset(state, events, episode.startNs,
                             episode.bounded() ? episode.endNs + episode.tolNs : kNoTime);
    const auto lateOnes = laterThanOnset(clocks, events, result.onset, pool.inEpisode);
    std::vector<const SymptomEvent*> running;
    for (const auto* c : pool.inEpisode)
        if (!lateOnes.count(c))
            running.push_back(c);
    const OrderingInputs ordering{clocks, edgeSet, weight, settings.margin};
    const InitiatorOrder first = orderInitiators(ordering, running.empty() ? pool.untimed : running);

    // Candidates, with why each lost.
    for (const auto* c : pool.all) {
        const auto s = support.find(c->id);
        Candidate cand = candidateOf(*c, rules.symptom(c->symptom.str()), clocks, s == support.end() ? 0 : s->second);
        cand.outcome = outcomeOf(*c, first, episode, edgeSet, settings, lateOnes);
        cand.chosen = cand.outcome.reason == CandidateReason::RootCause;
        result.candidates.push_back(std::move(cand));
    }
    std::sort(result.candidates.begin(), result.candidates.end(), [](const Candidate& a, const Candidate& b) {
        return std::tie(a.time.ns, a.event) < std::tie(b.time.ns, b.event);
    });

    decide(rules, first, clocks, settings, result, trace);
    if (result.status == ResultStatus::Ambiguous)
        result.wouldDecide = wouldDecideOf(state, events, result);
    result.outcome = workloadOutcome(state, events, result);
}

} // namespace fl::detail

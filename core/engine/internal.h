// Engine internals shared by the phase implementations. Not installed, not
// used outside core/engine.
#pragma once

#include "engine/engine.h"
#include "engine/metric_rules.h"
#include "engine/trends.h"
#include "placement/placement.h"
#include "rules/rule.h"
#include "rules/template.h" // expandTemplate

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace fl::detail {

// Node clocks against their consensus (engine/clock_offsets.cpp).
struct ClockModel {
    std::map<std::string, ClockOffset> offsets; // nodes with an estimate
    int64_t unknownNs = 0;                      // how far a node without one may be off (each side)
    // onset_slack_s: how long after a wait began its cause may still come (a rank waits in a collective for
    // a slow peer up to a step); a fault later than that did not start the wait (engine/onset.h).
    int64_t onsetSlackNs = 0;
    // What a symptom id stands for: onset dating asks whether a cause was re-read from a report (engine/onset.cpp).
    const RuleSet* rules = nullptr;

    // `e`'s interval on the consensus clock, widened by what its node's offset does not know.
    // kNoTime sides stay unbounded. Boot-relative times have no place on it: empty.
    TimeInterval corrected(const SymptomEvent& e) const;
    // Where what `e` waited for began (onsetInterval), on the same consensus clock; empty when it did not wait.
    TimeInterval correctedOnset(const SymptomEvent& e) const;
};

struct State {
    std::shared_ptr<const RuleSet> rules;
    std::vector<SourceFile> files;
    std::vector<std::shared_ptr<ExtractionDir>> keepAlive;
    std::vector<Observation> observations;
    std::vector<SymptomEvent> extracted;      // output of EXTRACT; later phases work on a copy
    std::vector<MetricSeries> metrics;
    std::optional<Manifest> manifest;
    Placement placement;                      // rebuilt after each ingest from all files so far
    std::vector<std::string> warnings;
    bool keepMetricSamples = true;
    bool keepMetricSeries = true;             // false: metrics files are checked and counted, no series kept
    unsigned threads = 0;                     // scan threads (0: one per core)
    ClockModel clocks;                        // estimated after each scan, from `extracted`
    SeriesStore series;                       // numbers of step lines (extract rules' `series`), for trend rules
    std::vector<MetricTrackData> metricTracks; // series of peers / all_below metric rules, from every file so far
    size_t metricAcrossEvents = 0;            // the last events of `extracted`: those rules' findings (judged again per ingest)
    std::vector<std::shared_ptr<const AppLogFacts>> appLogs; // by file index: what each app log said to placement
};

// EXTRACT: scans every file of `bundle` and appends files, observations,
// events and metrics to `state`.
void scanBundle(State& state, const Bundle& bundle, const Progress& progress);

// What runPhase indexes of the events and edges (their symptoms as numbers, the linked pairs), carried from
// one phase to the next of an attribution instead of being built again for each: at 10,000 ranks that was
// 11-47 ms a phase. Rebuilt when the events or edges it saw changed count in between.
class PhaseIndexes {
public:
    PhaseIndexes();
    ~PhaseIndexes();
    PhaseIndexes(const PhaseIndexes&) = delete;
    PhaseIndexes& operator=(const PhaseIndexes&) = delete;
    struct Impl;
    std::unique_ptr<Impl> d;
};

// FILTER, REFINE: applies the rules of one phase to `events` in place. Only runPhase may change `events` and
// `edges` between two calls with the same `indexes` (other than by appending, which rebuilds them).
void runPhase(const State& state, Phase phase, std::vector<SymptomEvent>& events, std::vector<ChainEdge>& edges,
              std::vector<RuleFiring>& fired, std::vector<TraceStep>* trace, PhaseIndexes& indexes);

// OUTCOME: status, root cause, candidates.
void computeOutcome(const State& state, const std::vector<SymptomEvent>& events, const std::vector<ChainEdge>& edges,
                    Result& result, std::vector<TraceStep>* trace);

// REPORT: evidence list, coverage, what is missing.
void buildReport(const State& state, std::vector<SymptomEvent>& events, const std::vector<ChainEdge>& edges,
                 std::vector<RuleFiring>& fired, Result& result, std::vector<TraceStep>* trace);

SymptomRole effectiveRole(const State& state, const SymptomEvent& e);
bool globMatch(std::string_view pattern, std::string_view text);

} // namespace fl::detail

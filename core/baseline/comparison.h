// What a failed attempt has that a healthy attempt of the same job did not (analyze --baseline): plain data
// made by core/baseline/compare.h, written by core/baseline/baseline_json.cpp beside the result document and said in
// words by core/present/baseline_text.cpp.
#pragma once

#include "model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fl {

enum class BaselineMatch : uint8_t {
    New,            // the failed attempt has it, the baseline does not
    AlsoInBaseline, // both have it (the baseline's count beside it)
    Gone,           // only the baseline has it
};

// How a failed attempt's place was found in the baseline. Node names may differ between attempts (another
// allocation); ranks and GPU indexes usually do not.
enum class PlaceMatch : uint8_t {
    None,         // not matched at a place
    Rank,         // the same global rank
    NodeName,     // the same node name (and GPU index)
    NodePosition, // the node at the same position in the job's sorted node list (and GPU index)
    Elsewhere,    // the same symptom, at another place of the baseline
};

struct BaselineMark {
    BaselineMatch match = BaselineMatch::New;
    uint32_t baselineCount = 0;   // lines behind it in the baseline (merged repeats counted)
    PlaceMatch by = PlaceMatch::None;
};

struct BaselineEventMark {
    EventId event;
    BaselineMark mark;
};

// A symptom (family, candidate) against the baseline: "same rate" when the counts or the per-hour rates are
// within BaselineComparison::sameRateFactor of each other (a one-off start-up line and a periodic poller both
// stay the same when the failed attempt is shorter).
struct BaselineSymptomMark {
    std::string symptom;
    BaselineMark mark;
    uint32_t count = 0;           // lines in the failed attempt
    bool sameRate = false;
};

struct BaselineFamilyMark {
    FamilyId family;
    BaselineSymptomMark symptom;
    uint32_t newEvents = 0;       // member events with no counterpart at their place
    uint32_t matchedEvents = 0;   // member events matched at their place (rank, node, node position)
};

struct BaselineCandidateMark {
    EventId event;
    BaselineSymptomMark symptom;
    bool weighedDown = false;     // also in the baseline at the same rate: ranked after the others
};

// A symptom only the baseline has.
struct BaselineGone {
    std::string symptom;
    uint32_t baselineCount = 0;
    std::vector<std::string> nodes; // the baseline's node names, sorted
};

// Error- and warning-level lines no rule recognises, grouped by their masked template (baseline/line_template.h).
struct UnknownLineGroup {
    std::string text;              // the template
    Severity severity = Severity::Warning;
    BaselineMatch match = BaselineMatch::New;
    uint32_t count = 0;            // lines in the failed attempt
    uint32_t baselineCount = 0;
    std::vector<std::string> nodes; // where, sorted (at most kUnknownNodesShown; nodeCount says how many)
    uint32_t nodeCount = 0;
    int64_t firstNs = kNoTime;     // the earliest timed line, as printed
    TimeBasis basis = TimeBasis::None;
    std::string file;              // the first line's file and line number
    uint32_t line = 0;
};

enum class BaselineVerdictChange : uint8_t {
    None,               // the baseline changed nothing in the verdict
    RootAlsoInBaseline, // the root cause's symptom is also in the healthy attempt at the same rate: doubtful
    RootOnlyNewCandidate, // the other candidates are also in the baseline at the same rate: the root is what is new
};

struct BaselineComparison {
    static constexpr double kSameRateFactor = 2.0;
    static constexpr size_t kUnknownShown = 50;     // new unknown templates listed, most lines first
    static constexpr size_t kUnknownNodesShown = 8;
    std::string workloadId;        // the baseline's manifest
    int attempt = -1;
    int64_t failedSpanNs = 0;      // first to last timed line of each attempt: the rates' denominators
    int64_t baselineSpanNs = 0;
    std::vector<BaselineEventMark> events;        // every failed-attempt event, by id
    std::vector<BaselineFamilyMark> families;     // every family, by id
    std::vector<BaselineCandidateMark> candidates;// in the result's candidate order
    std::vector<BaselineGone> gone;               // by symptom
    std::vector<UnknownLineGroup> unknownNew;     // new templates, most lines first (at most kUnknownShown)
    uint32_t unknownTemplates = 0;                // templates in the failed attempt
    uint32_t unknownAlso = 0;                     // of them, also in the baseline
    uint32_t unknownNewTotal = 0;                 // of them, new (unknownNew lists the first kUnknownShown)
    uint32_t nodesByName = 0;                     // failed-attempt nodes matched by name
    uint32_t nodesByPosition = 0;                 // and by position in the sorted node list
    BaselineVerdictChange change = BaselineVerdictChange::None;
    std::string verdict;                          // the change in words (present::baselineVerdict)
};

} // namespace fl

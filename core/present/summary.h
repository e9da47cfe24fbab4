// The result's prose: its one-sentence summary and its list of missing
// evidence, written from typed facts the engine's report step gathers. The
// engine decides; the words are chosen here, with every other text.
#pragma once

#include "model.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fl::present {

// Unattributed while the waiting symptoms say when the hang began (Result::onset):
// where evidence from that moment would show its cause.
struct OnsetFacts {
    int64_t estimateNs = kNoTime;              // the hang began at ~ (consensus clock)
    std::vector<std::string> nodes;            // the nodes to look at: those that waited and the quiet ones, sorted
    size_t nodeCount = 0;                      // all of them (`nodes` names at most 16)
    std::vector<IndexRange> quietRanks;        // ranks the manifest lists that did not report waiting
    std::vector<std::string> quietNodes;       // their nodes, sorted
    size_t laterInitiators = 0;                // initiating events that began clearly after it (after_onset)
    bool byMetrics = false;                    // dated by a metric finding, not waiting lines (onsetByMetrics)
    std::vector<std::string> symptoms;         // what dated it (HangOnset::symptoms)
};

// What is missing from the bundle, as the engine found it.
struct MissingFacts {
    bool kernelLogs = false;                       // no syslog or dmesg at all
    std::vector<std::string> nodesWithoutKernelLogs; // named when a few, sorted
    size_t nodesWithoutKernelLogsCount = 0;
    bool schedulerRecords = false;
    bool applicationLogs = false;
    // Unattributed only: what was found instead of an initiating event, per
    // symptom id (sorted) the number of distinct node/rank places; empty when
    // no rule matched anything.
    bool initiatingEvent = false;
    std::vector<std::pair<std::string, size_t>> foundInstead;
    std::optional<OnsetFacts> onset;           // unattributed only, when the waits date the hang
};

// The counts the summary sentence gives.
struct SummaryCounts {
    size_t downstream = 0;       // events linked downstream of the root
    size_t downstreamNodes = 0;
    size_t otherErrors = 0;      // failure events linked to no root, kept as interesting
    size_t otherErrorNodes = 0;
};

// Result::missing: for an unattributed result the first line says what was found instead.
std::vector<std::string> missingEvidence(const MissingFacts& facts);

// Result::summary, from the verdict (status, root cause, the tied candidates
// among `result.candidates`), the counts and what is missing.
std::string summary(const Result& result, const std::vector<EventId>& tiedRoots, const SummaryCounts& counts,
                    const MissingFacts& missing);

} // namespace fl::present

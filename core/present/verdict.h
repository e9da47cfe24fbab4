// Words for the engine's typed verdict: where an event happened, why a
// candidate won or lost, what a trace step did. The CLI, the result JSON and
// the workbench all say it with these functions, so they cannot drift apart.
#pragma once

#include "model.h"
#include "present/hostlist.h" // formatRanges: the rank runs every place text uses

#include <string>
#include <unordered_map>
#include <vector>

namespace fl::present {

// Whether place() names the PCI bus of a GPU whose index is known too.
enum class BusDetail { IfNoIndex, Always };

// "node07 GPU 3 rank 25"; the PCI bus stands in for an unknown GPU index
// ("node07 GPU 0000:91:00"), or, with BusDetail::Always, follows a known one
// ("node07 GPU 3 (PCI 0000:91:00) rank 25"). The one way every text names a place.
std::string place(const std::string& node, int gpu, const std::string& pciBus, int rank,
                  BusDetail bus = BusDetail::IfNoIndex);

// A node's name, or "unknown node" when no line or file named it: a field is never left blank.
std::string nodeName(const std::string& node);

// The GPU of a root cause as a field: "3", "3 (PCI 0000:91:00)", or "index unknown (PCI 0000:91:00)"
// when only the bus was read; empty when neither is known.
std::string gpuField(int gpu, const std::string& pciBus);


// A family's place: "node-[01,03-04] ranks 0-1,3-7", its nodes compressed the
// Slurm way and its ranks as runs, both as the result writes them; either may be empty.
std::string placeOfMany(const std::string& nodeRanges, const std::string& rankRanges);

// "3.250 s"
std::string seconds(int64_t ns);

// The candidates of a result by event id. A verdict names the candidate it was measured against; looking
// it up along the list made a result's verdicts quadratic (20,000 NCCL WARN candidates: a sixth of the CPU).
class CandidateIndex {
public:
    explicit CandidateIndex(const Result& result);
    const Candidate* find(EventId id) const;
    const std::string& onsetWitness() const { return onsetWitness_; }

private:
    std::unordered_map<EventId, const Candidate*> byEvent_;
    std::string onsetWitness_; // onsetWitness(result), made once
};

// Whether a metric finding dated the hang's onset (Result::onset): each of its events is shown by metric
// samples only (engine/onset.h takes a job-wide metric finding, every GPU's power or utilisation fallen,
// only when no line dates a wait). An event with no evidence item left leaves it to the waits.
[[nodiscard]] bool onsetByMetrics(const HangOnset& onset, const std::vector<EvidenceItem>& evidence);

// What dated the hang's onset, as every text names it: "the waiting symptoms", or the metric finding
// ("the job-wide fall of every GPU's metrics (workload.metric.all_gpus_stalled)").
std::string onsetWitness(bool byMetrics, const std::vector<std::string>& symptoms);
std::string onsetWitness(const Result& result);

// "lost: 3.250 s later than gpu.xid.79 on node07 GPU 3". `result` (or its index, for a verdict per candidate)
// supplies the candidate the outcome was measured against (outcome.other).
std::string candidateVerdict(const Candidate& c, const Result& result);
std::string candidateVerdict(const Candidate& c, const CandidateIndex& candidates);

// "rewrote gpu.xid -> gpu.xid.79", "chose", "evidence cap 3".
std::string traceAction(const TraceStep& step);

} // namespace fl::present

#include "present/verdict.h"

#include <algorithm>
#include <cstdio>

namespace fl::present {

std::string nodeName(const std::string& node)
{
    return node.empty() ? std::string("unknown node") : node;
}

std::string gpuField(int gpu, const std::string& pciBus)
{
    if (gpu < 0 && pciBus.empty())
        return {};
    std::string s = gpu >= 0 ? std::to_string(gpu) : std::string("index unknown");
    if (!pciBus.empty())
        s += " (PCI " + pciBus + ")";
    return s;
}

std::string place(const std::string& node, int gpu, const std::string& pciBus, int rank, BusDetail bus)
{
    std::string s = nodeName(node);
    if (gpu >= 0) {
        s += " GPU " + std::to_string(gpu);
        if (bus == BusDetail::Always && !pciBus.empty())
            s += " (PCI " + pciBus + ")";
    } else if (!pciBus.empty())
        s += " GPU " + pciBus;
    if (rank >= 0)
        s += " rank " + std::to_string(rank);
    return s;
}

std::string placeOfMany(const std::string& nodeRanges, const std::string& rankRanges)
{
    std::string s = nodeRanges.empty() ? std::string("unknown nodes") : nodeRanges;
    if (!rankRanges.empty())
        s += (rankRanges.find_first_of(",-") == std::string::npos ? " rank " : " ranks ") + rankRanges;
    return s;
}

std::string seconds(int64_t ns)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f s", static_cast<double>(ns) / 1e9);
    return buf;
}

namespace {

// Why time alone could not order two candidates: what their intervals (after
// each node's clock offset) show, not a fixed tolerance.
std::string overlapReason(const Candidate& c, const Candidate* other)
{
    if (!other || !c.time.interval.bounded() || !other->time.interval.bounded())
        return "their times cannot be ordered (one has no bounded interval)";
    const int64_t overlap = std::min(c.time.interval.latestNs, other->time.interval.latestNs) -
                            std::max(c.time.interval.earliestNs, other->time.interval.earliestNs);
    return "after clock-offset correction their intervals, " + seconds(c.time.interval.latestNs - c.time.interval.earliestNs) +
           " and " + seconds(other->time.interval.latestNs - other->time.interval.earliestNs) + " wide, overlap by " +
           seconds(std::max<int64_t>(overlap, 0)) + ", so neither certainly came first";
}

// `other`: the candidate c's outcome was measured against, when known; `witness`: what dated the onset.
std::string verdictAgainst(const Candidate& c, const Candidate* other, const std::string& witness)
{
    const CandidateOutcome& o = c.outcome;
    const std::string otherSymptom = other ? other->symptom : std::string("another candidate");
    const std::string otherPlace = other ? place(other->node, other->gpuIndex, other->pciBus, other->rank)
                                         : std::string("unknown node");
    switch (o.reason) {
    case CandidateReason::None:
        return {};
    case CandidateReason::RootCause:
        return "root cause: earliest initiating event of the terminal episode";
    case CandidateReason::TiedWinner:
        return "tied: cannot be ordered against the other tied candidates";
    case CandidateReason::TiedWith:
        return "tied with " + otherSymptom + " on " + otherPlace + " (" + seconds(o.deltaNs) + " apart as printed; " +
               overlapReason(c, other) + "; nothing known makes one cause the other, on another node)";
    case CandidateReason::Untimed:
        return "lost: its time cannot be compared with the others (" + std::string(toString(c.time.basis)) + ")";
    case CandidateReason::BeforeEpisode:
        return "lost: before the terminal episode (more than " + seconds(o.limitNs) +
               " before the failure was detected)";
    case CandidateReason::AfterDetection:
        return "lost: after the failure was detected";
    case CandidateReason::Consequence:
        return "lost: explained as a consequence of " + otherSymptom;
    case CandidateReason::Later:
        return "lost: " + seconds(o.deltaNs) + " later than " + otherSymptom + " on " + otherPlace;
    case CandidateReason::Lighter:
        return "lost: " + otherSymptom + " on the same node is the stronger cause and " + overlapReason(c, other);
    case CandidateReason::AfterOnset:
        return "lost: began " + seconds(o.deltaNs) + " after the hang did (" + witness + " had begun by then; " +
               "more than the " + seconds(o.limitNs) + " a rank may wait for a slow peer): a later consequence or " +
               "an independent fault, not their cause";
    }
    return {};
}

} // namespace

bool onsetByMetrics(const HangOnset& onset, const std::vector<EvidenceItem>& evidence)
{
    std::vector<EventId> events = onset.events;
    std::sort(events.begin(), events.end(), [](EventId a, EventId b) { return a.value < b.value; });
    enum : uint8_t { Unseen, MetricOnly, Other };
    std::vector<uint8_t> shown(events.size(), Unseen);
    for (const EvidenceItem& e : evidence) {
        const auto it = std::lower_bound(events.begin(), events.end(), e.event,
                                         [](EventId a, EventId b) { return a.value < b.value; });
        if (it == events.end() || it->value != e.event.value)
            continue;
        uint8_t& s = shown[size_t(it - events.begin())];
        s = e.kind == EvidenceKind::Metric && s != Other ? MetricOnly : Other;
    }
    return !events.empty() && std::all_of(shown.begin(), shown.end(), [](uint8_t s) { return s == MetricOnly; });
}

std::string onsetWitness(bool byMetrics, const std::vector<std::string>& symptoms)
{
    if (!byMetrics)
        return "the waiting symptoms";
    std::string s = "the job-wide fall of every GPU's metrics";
    for (size_t i = 0; i < symptoms.size(); ++i)
        s += (i ? ", " : " (") + symptoms[i] + (i + 1 == symptoms.size() ? ")" : "");
    return s;
}

std::string onsetWitness(const Result& result)
{
    if (!result.onset)
        return onsetWitness(false, {});
    return onsetWitness(onsetByMetrics(*result.onset, result.evidence), result.onset->symptoms);
}

CandidateIndex::CandidateIndex(const Result& result) : onsetWitness_(present::onsetWitness(result))
{
    byEvent_.reserve(result.candidates.size());
    for (const Candidate& c : result.candidates)
        byEvent_.emplace(c.event, &c); // the first of an event, as a walk along the list finds
}

const Candidate* CandidateIndex::find(EventId id) const
{
    const auto it = byEvent_.find(id);
    return it == byEvent_.end() ? nullptr : it->second;
}

std::string candidateVerdict(const Candidate& c, const Result& result)
{
    const Candidate* other = nullptr;
    if (c.outcome.other)
        for (const auto& x : result.candidates)
            if (x.event == *c.outcome.other) {
                other = &x;
                break;
            }
    return verdictAgainst(c, other, c.outcome.reason == CandidateReason::AfterOnset ? onsetWitness(result) : std::string());
}

std::string candidateVerdict(const Candidate& c, const CandidateIndex& candidates)
{
    return verdictAgainst(c, c.outcome.other ? candidates.find(*c.outcome.other) : nullptr, candidates.onsetWitness());
}

std::string traceAction(const TraceStep& step)
{
    auto with = [&](const char* verb, const char* sep = " ") {
        return step.change.empty() ? std::string(verb) : std::string(verb) + sep + step.change;
    };
    switch (step.action) {
    case TraceAction::Extracted: return "extracted";
    case TraceAction::Emitted: return "emitted";
    case TraceAction::Moved: return with("moved");
    case TraceAction::Decoded: return with("decoded");
    case TraceAction::SetFields: return "set fields";
    case TraceAction::CopiedFields: return "copied fields";
    case TraceAction::Rewrote: return with("rewrote");
    case TraceAction::Role: return with("role ->");
    case TraceAction::Kind: return with("kind ->");
    case TraceAction::Linked: return with("linked from");
    case TraceAction::Merged: return "merged";
    case TraceAction::Suppressed: return with("suppressed", ": ");
    case TraceAction::EvidenceCap: return with("evidence cap");
    case TraceAction::EvidenceRole: return "evidence role";
    case TraceAction::Chose: return "chose";
    case TraceAction::Ambiguous: return "ambiguous";
    case TraceAction::Unattributed: return "unattributed";
    case TraceAction::Reported: return "reported";
    }
    return {};
}

} // namespace fl::present

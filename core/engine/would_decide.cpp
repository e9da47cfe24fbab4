#include "engine/would_decide.h"

#include "engine/clock_offsets.h"

#include <algorithm>
#include <set>

namespace fl::detail {

namespace {

constexpr int64_t kSec = 1'000'000'000;

int64_t floorSec(int64_t t) { return t >= 0 ? t / kSec * kSec : -((-t + kSec - 1) / kSec) * kSec; }
int64_t ceilSec(int64_t t) { return -floorSec(-t); }

const std::string& clockNodeOf(const SymptomEvent& e) { return e.clockNode.empty() ? e.node : e.clockNode; }

// How far the node's clock may be off the consensus, each side, and its estimated offset.
std::pair<int64_t, int64_t> clockOf(const ClockModel& clocks, const SymptomEvent& e)
{
    if (auto it = clocks.offsets.find(clockNodeOf(e)); it != clocks.offsets.end())
        return {it->second.offsetNs, it->second.residualNs};
    return {0, clocks.unknownNs};
}

void addSources(const State& state, const SymptomEvent& e, std::set<SourceKind>& kinds, std::set<std::string>& files)
{
    for (ObservationId id : e.observations) {
        if (id.value >= state.observations.size())
            continue;
        const Observation& o = state.observations[id.value];
        kinds.insert(o.source);
        if (o.ref.file.value < state.files.size())
            files.insert(state.files[o.ref.file.value].path);
    }
    if (e.observations.empty() && e.file && e.file->value < state.files.size()) {
        kinds.insert(state.files[e.file->value].kind);
        files.insert(state.files[e.file->value].path);
    }
}

std::optional<WouldDecide> pairOf(const State& state, const SymptomEvent& a, const SymptomEvent& b)
{
    const ClockModel& clocks = state.clocks;
    const TimeInterval ia = ownInterval(a), ib = ownInterval(b);
    const TimeInterval ca = clocks.corrected(a), cb = clocks.corrected(b);
    if (!ia.bounded() || !ib.bounded() || !ca.bounded() || !cb.bounded())
        return std::nullopt; // an open side: no window to name
    WouldDecide w;
    w.first = std::min(a.id, b.id);
    w.second = std::max(a.id, b.id);
    std::set<std::string> nodes{a.node, b.node};
    nodes.erase(std::string());
    w.nodes.assign(nodes.begin(), nodes.end());
    std::set<SourceKind> kinds;
    std::set<std::string> files;
    addSources(state, a, kinds, files);
    addSources(state, b, kinds, files);
    w.sources.assign(kinds.begin(), kinds.end());
    w.files.assign(files.begin(), files.end());
    // Whole seconds out: the window a person asks a log store for.
    w.window = {floorSec(std::min(ca.earliestNs, cb.earliestNs)), ceilSec(std::max(ca.latestNs, cb.latestNs) + 1) - 1};
    w.resolutionNs = std::max(ia.latestNs - ia.earliestNs + 1, ib.latestNs - ib.earliestNs + 1);
    const auto [offA, uncA] = clockOf(clocks, a);
    const auto [offB, uncB] = clockOf(clocks, b);
    w.clockNs = std::max(uncA, uncB);
    // The printed intervals with only the offsets applied: apart by `gap`, they are ordered once the two
    // clocks' uncertainties together stay under it, each under half.
    const int64_t aLo = ia.earliestNs - offA, aHi = ia.latestNs - offA;
    const int64_t bLo = ib.earliestNs - offB, bHi = ib.latestNs - offB;
    const int64_t gap = std::max(bLo - aHi, aLo - bHi) - 1;
    if (gap > 1)
        w.clockNeededNs = gap / 2;
    return w;
}

} // namespace

std::vector<WouldDecide> wouldDecideOf(const State& state, const std::vector<SymptomEvent>& events,
                                       const Result& result)
{
    std::vector<const Candidate*> tied;
    for (const Candidate& c : result.candidates)
        if (c.outcome.tied() && c.event.value < events.size())
            tied.push_back(&c);
    std::vector<WouldDecide> out;
    for (size_t i = 0; i < tied.size() && out.size() < kMaxWouldDecidePairs; ++i)
        for (size_t j = i + 1; j < tied.size() && out.size() < kMaxWouldDecidePairs; ++j)
            if (auto w = pairOf(state, events[tied[i]->event.value], events[tied[j]->event.value]))
                out.push_back(std::move(*w));
    return out;
}

} // namespace fl::detail

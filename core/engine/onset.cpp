#include "engine/onset.h"

#include "engine/clock_offsets.h"

#include <algorithm>
#include <set>

namespace fl::detail {

namespace {

bool wallClock(const SymptomEvent& e)
{
    return e.time.known() && e.time.basis != TimeBasis::None && e.time.basis != TimeBasis::BootRelative;
}

// When `cause` began, on the consensus clock: a cause that itself waited (a hung task) began at its onset.
// A line extracted as a report of the failure (a symptom) that a rule then read as a cause: the straggler, read
// from its own watchdog status. Not a cause a rule merely renamed (Xid 149 -> nvlink.fatal): that line is the fault.
bool reReadFromReport(const ClockModel& clocks, const SymptomEvent& cause)
{
    if (cause.symptom == cause.originalSymptom || !clocks.rules)
        return false;
    const SymptomDef* was = clocks.rules->symptom(cause.originalSymptom.str());
    return was && was->role == SymptomRole::Symptom;
}

// A cause no line shows (a rank gone silent, emitted by a rule from the absence of its reports) carries the time of
// the reports it was read from, not its own: it may have begun any time before, so never after a wait. So does a
// cause re-read from a report.
int64_t beganAt(const ClockModel& clocks, const SymptomEvent& cause)
{
    if (!wallClock(cause) || !cause.file || reReadFromReport(clocks, cause))
        return kNoTime;
    return (cause.waited ? clocks.correctedOnset(cause) : clocks.corrected(cause)).earliestNs;
}

// Past the last moment the wait may have begun by more than the slack.
bool clearlyAfter(const ClockModel& clocks, int64_t onsetLatestNs, const SymptomEvent& cause, int64_t* deltaNs)
{
    const int64_t began = beganAt(clocks, cause);
    if (onsetLatestNs == kNoTime || began == kNoTime)
        return false;
    if (deltaNs)
        *deltaNs = began - onsetLatestNs;
    return began - onsetLatestNs > clocks.onsetSlackNs;
}

const std::string& clockOf(const SymptomEvent& e) { return e.clockNode.empty() ? e.node : e.clockNode; }

} // namespace

bool beganAfterWait(const ClockModel& clocks, const SymptomEvent& waiting, const SymptomEvent& cause, int64_t* deltaNs)
{
    if (!waiting.waited)
        return false;
    return clearlyAfter(clocks, clocks.correctedOnset(waiting).latestNs, cause, deltaNs);
}

namespace {

// A job-wide metric finding (every GPU idle, every GPU's power fallen, to the scrape's end): it says when the
// whole job had stopped, not what one rank waited for, and when the ranks time out and exit it comes after
// their waits (utilisation falls as the processes end). Read only when no line dates a wait.
bool jobWideMetric(const SymptomEvent& e)
{
    return e.clockNode == kMetricsClock && e.node.empty();
}

// The waits the onset rests on: the waiting lines; else the job-wide metric finding whose drop came first
// (each says the whole job had stopped by its drop, so the first one bounds it).
std::optional<HangOnset> onsetFrom(const State& state, const std::vector<SymptomEvent>& events, int64_t startNs,
                                   int64_t endNs, bool metrics)
{
    HangOnset h;
    std::set<std::string> nodes, symptoms;
    int64_t firstFire = kNoTime;
    bool earliestBounded = true;
    auto add = [&](const SymptomEvent& e, const TimeInterval& on) {
        // The onset as printed, on the consensus clock by the node's offset alone.
        const auto off = state.clocks.offsets.find(clockOf(e));
        const int64_t point = e.time.ns - e.waited->minNs - (off == state.clocks.offsets.end() ? 0 : off->second.offsetNs);
        h.estimateNs = h.waits == 0 ? point : std::min(h.estimateNs, point);
        h.began.latestNs = h.waits == 0 ? on.latestNs : std::max(h.began.latestNs, on.latestNs);
        if (on.earliestNs == kNoTime)
            earliestBounded = false;
        else if (earliestBounded)
            h.began.earliestNs = h.began.earliestNs == kNoTime ? on.earliestNs : std::min(h.began.earliestNs, on.earliestNs);
        const TimeInterval fire = state.clocks.corrected(e);
        if (fire.earliestNs != kNoTime)
            firstFire = firstFire == kNoTime ? fire.earliestNs : std::min(firstFire, fire.earliestNs);
        ++h.waits;
        h.events.push_back(e.id);
        if (!e.node.empty())
            nodes.insert(e.node);
        symptoms.insert(e.symptom.str());
    };
    const SymptomEvent* firstStop = nullptr;
    TimeInterval firstStopOnset;
    for (const auto& e : events) {
        // Only a line's own stamp dates a wait: an unstamped repeat ("what():  ... ran for") lies anywhere up
        // to the next stamp or the file's last write, which would date the onset at that write.
        if (!e.waited || jobWideMetric(e) != metrics || (!metrics && e.kind != EventKind::BadNode) || !wallClock(e) ||
            e.time.basis == TimeBasis::Inherited || effectiveRole(state, e) != SymptomRole::Symptom)
            continue;
        const TimeInterval on = state.clocks.correctedOnset(e);
        if (on.latestNs == kNoTime)
            continue;
        // A scrape goes on after the job was found failed: a job-wide finding counts when its drop does.
        const int64_t at = metrics ? on.latestNs : e.time.ns;
        if ((startNs != kNoTime && at < startNs) || (endNs != kNoTime && at > endNs))
            continue;
        if (!metrics)
            add(e, on);
        else if (!firstStop || on.latestNs < firstStopOnset.latestNs) {
            firstStop = &e;
            firstStopOnset = on;
        }
    }
    if (firstStop)
        add(*firstStop, firstStopOnset);
    if (h.waits == 0)
        return std::nullopt;
    if (!earliestBounded)
        h.began.earliestNs = kNoTime;
    h.allWaiting = {h.began.latestNs, firstFire};
    std::sort(h.events.begin(), h.events.end());
    h.nodes.assign(nodes.begin(), nodes.end());
    h.symptoms.assign(symptoms.begin(), symptoms.end());
    return h;
}

} // namespace

std::optional<HangOnset> hangOnset(const State& state, const std::vector<SymptomEvent>& events, int64_t startNs,
                                   int64_t endNs)
{
    if (auto fromLines = onsetFrom(state, events, startNs, endNs, false))
        return fromLines;
    return onsetFrom(state, events, startNs, endNs, true);
}

bool afterOnset(const ClockModel& clocks, const std::vector<SymptomEvent>& events, const HangOnset& onset,
                const SymptomEvent& c, int64_t& deltaNs)
{
    const int64_t began = beganAt(clocks, c);
    if (began == kNoTime)
        return false;
    bool any = false;
    for (EventId id : onset.events) {
        const SymptomEvent& w = events[id.value];
        // A wait that was over before `c` began is not one it would explain (an earlier attempt's hang).
        const TimeInterval fire = clocks.corrected(w);
        if (fire.latestNs != kNoTime && fire.latestNs < began)
            continue;
        int64_t delta = 0;
        if (!beganAfterWait(clocks, w, c, &delta))
            return false; // it may have started this one
        deltaNs = any ? std::min(deltaNs, delta) : delta;
        any = true;
    }
    return any;
}

} // namespace fl::detail

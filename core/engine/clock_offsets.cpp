#include "engine/clock_offsets.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace fl::detail {

namespace {

constexpr int64_t kSecNs = 1'000'000'000;

bool wallClock(TimeBasis b) { return b != TimeBasis::None && b != TimeBasis::BootRelative; }

// Only a line's own stamp can anchor its node's clock.
bool stamped(TimeBasis b) { return wallClock(b) && b != TimeBasis::Inherited; }

int64_t lowerMedian(std::vector<int64_t> v)
{
    std::nth_element(v.begin(), v.begin() + (v.size() - 1) / 2, v.end());
    return v[(v.size() - 1) / 2];
}

// A moment every rank of a collective shares: PyTorch's watchdog prints
// "WorkNCCL(SeqNum=N, OpType=...) ran for M milliseconds before timing out"
// (torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp, WorkNCCL::checkTimeout):
// now - M ms is when that rank enqueued collective N, the same step on every
// rank. The rule's `waited` reads M (SymptomEvent::waited, the same reading the
// onset uses); without "ran for", its Timeout(ms), the same on every rank.
const std::string& clockOf(const SymptomEvent& e) { return e.clockNode.empty() ? e.node : e.clockNode; }

//
// Other shared moments are named in rule data: an event whose extract rule
// set the field `clock_anchor` is that moment on its node, and every event
// with the same value (on other nodes) is the same moment: NCCL's "Init
// COMPLETE" of one commId (rules/nccl.jsonc, nccl.extract.init-complete).
bool anchor(const SymptomEvent& e, std::string& key, int64_t& t)
{
    if (clockOf(e).empty() || !stamped(e.time.basis) || !e.time.known())
        return false;
    if (auto named = e.fields.find("clock_anchor"); named != e.fields.end() && !named->second.empty()) {
        key = named->second;
        t = e.time.ns;
        return true;
    }
    if (e.symptom != "nccl.watchdog_timeout")
        return false;
    auto seq = e.fields.find("seq");
    if (seq == e.fields.end() || seq->second.empty())
        return false;
    auto op = e.fields.find("op");
    key = "SeqNum " + seq->second + " " + (op == e.fields.end() ? std::string() : op->second);
    t = e.time.ns - (e.waited ? e.waited->minNs : 0);
    return true;
}

// A node without anchors (its ranks died first, so none timed out) is as
// uncertain as the clocks that were measured: it may sit anywhere in their
// spread. clock_skew_tolerance_s stays the floor; the measured spread plus the
// worst residual raises it (±5 s clocks spread over ~10 s, more than 2 s).
void widenUnknownFromEstimates(ClockModel& m)
{
    if (m.offsets.size() < 2)
        return;
    int64_t lo = 0, hi = 0, residual = 0;
    bool first = true;
    for (const auto& [node, c] : m.offsets) {
        lo = first ? c.offsetNs : std::min(lo, c.offsetNs);
        hi = first ? c.offsetNs : std::max(hi, c.offsetNs);
        residual = std::max(residual, c.residualNs);
        first = false;
    }
    m.unknownNs = std::max(m.unknownNs, hi - lo + residual);
}

} // namespace

TimeInterval ownInterval(const SymptomEvent& e)
{
    if (e.time.interval.earliestNs != kNoTime || e.time.interval.latestNs != kNoTime)
        return e.time.interval;
    if (!e.time.known() || e.time.basis == TimeBasis::None)
        return {};
    return {e.time.ns, e.time.ns + kSecNs - 1};
}

TimeInterval onsetInterval(const SymptomEvent& e)
{
    if (!e.waited || !wallClock(e.time.basis))
        return {};
    const TimeInterval own = ownInterval(e);
    TimeInterval on;
    if (own.earliestNs != kNoTime && e.waited->maxNs != kNoTime)
        on.earliestNs = own.earliestNs - e.waited->maxNs;
    if (own.latestNs != kNoTime)
        on.latestNs = own.latestNs - e.waited->minNs;
    return on;
}

namespace {

// `iv`, printed on `node`'s clock, on the consensus clock: moved by the node's offset and widened by what it
// does not know (the residual, or unknownNs for a node without an estimate).
TimeInterval onConsensus(const ClockModel& m, TimeInterval iv, const std::string& node)
{
    int64_t off = 0, unc = m.unknownNs;
    if (auto it = m.offsets.find(node); it != m.offsets.end()) {
        off = it->second.offsetNs;
        unc = it->second.residualNs;
    }
    if (iv.earliestNs != kNoTime)
        iv.earliestNs -= off + unc;
    if (iv.latestNs != kNoTime)
        iv.latestNs += unc - off;
    return iv;
}

} // namespace

TimeInterval ClockModel::correctedOnset(const SymptomEvent& e) const
{
    const TimeInterval on = onsetInterval(e);
    return on.earliestNs == kNoTime && on.latestNs == kNoTime ? on : onConsensus(*this, on, clockOf(e));
}

TimeInterval ClockModel::corrected(const SymptomEvent& e) const
{
    if (!wallClock(e.time.basis))
        return {};
    return onConsensus(*this, ownInterval(e), clockOf(e));
}

ClockModel estimateClockOffsets(const State& state, const std::vector<SymptomEvent>& events)
{
    ClockModel m;
    m.unknownNs = static_cast<int64_t>(state.rules->setting("clock_skew_tolerance_s", 2.0) * 1e9);
    m.onsetSlackNs = static_cast<int64_t>(state.rules->setting("onset_slack_s", 60.0) * 1e9);
    m.rules = state.rules.get();

    // key -> node -> anchor times of that node's ranks
    std::map<std::string, std::map<std::string, std::vector<int64_t>>> byKey;
    // A launch line (torchrun's start, its rendezvous, slurmd's "launch task")
    // is printed again by every restart: its rule marks it `clock_anchor_first`
    // and only the first on each node is the shared moment (the restarts of
    // one node are not the same moment as each other).
    std::map<std::pair<std::string, std::string>, int64_t> firstOnly;
    for (const auto& e : events) {
        std::string key;
        int64_t t = 0;
        if (!anchor(e, key, t))
            continue;
        if (auto f = e.fields.find("clock_anchor_first"); f != e.fields.end() && f->second == "yes") {
            auto [it, fresh] = firstOnly.try_emplace({key, clockOf(e)}, t);
            if (!fresh)
                it->second = std::min(it->second, t);
            continue;
        }
        byKey[key][clockOf(e)].push_back(t);
    }
    for (const auto& [where, t] : firstOnly)
        byKey[where.first][where.second].push_back(t);
    struct Dev {
        std::vector<int64_t> d;
        std::vector<ClockMoment> moments;
        int64_t spread = 0; // how far the node's own ranks disagree on the moment
    };
    std::map<std::string, Dev> dev;
    std::map<std::string, std::string> firstKey;
    for (const auto& [key, nodes] : byKey) {
        if (nodes.size() < 2)
            continue;
        std::map<std::string, int64_t> nodeTime;
        std::vector<int64_t> all;
        for (const auto& [node, ts] : nodes) {
            const int64_t t = lowerMedian(ts);
            nodeTime[node] = t;
            all.push_back(t);
            auto [lo, hi] = std::minmax_element(ts.begin(), ts.end());
            dev[node].spread = std::max({dev[node].spread, hi[0] - t, t - lo[0]});
        }
        const int64_t ref = lowerMedian(all);
        for (const auto& [node, t] : nodeTime) {
            dev[node].d.push_back(t - ref);
            dev[node].moments.push_back({key, t - ref, static_cast<uint32_t>(nodes.size())});
            firstKey.emplace(node, key);
        }
    }
    for (const auto& [node, d] : dev) {
        ClockOffset c;
        c.node = node;
        c.offsetNs = lowerMedian(d.d);
        int64_t worst = 0;
        for (int64_t x : d.d)
            worst = std::max<int64_t>(worst, std::llabs(x - c.offsetNs));
        // The anchors' own disagreement, and never less than a millisecond of
        // logging delay between the event and its line.
        c.residualNs = std::max({worst, d.spread, int64_t(1'000'000)});
        c.anchors = static_cast<uint32_t>(d.d.size());
        c.basis = std::to_string(c.anchors) + " shared moment(s) (watchdog SeqNum, NCCL init commId ...), first " +
                  firstKey[node];
        c.moments = d.moments;
        m.offsets.emplace(node, std::move(c));
    }
    widenUnknownFromEstimates(m);
    return m;
}

namespace {

// The two events' intervals on one clock: their node's own when they share
// it (and the same kind of time), else the consensus clock.
std::pair<TimeInterval, TimeInterval> comparable(const ClockModel& clocks, const SymptomEvent& a, const SymptomEvent& b)
{
    const bool sameNode = !clockOf(a).empty() && clockOf(a) == clockOf(b);
    if (sameNode && (a.time.basis == TimeBasis::BootRelative) == (b.time.basis == TimeBasis::BootRelative))
        return {ownInterval(a), ownInterval(b)};
    return {clocks.corrected(a), clocks.corrected(b)};
}

} // namespace

bool certainlyWithin(const ClockModel& clocks, const SymptomEvent& self, const SymptomEvent& other, int64_t loNs,
                     int64_t hiNs)
{
    const auto [s, o] = comparable(clocks, self, other);
    if (!s.bounded() || !o.bounded())
        return false;
    return o.earliestNs - s.latestNs >= loNs && o.latestNs - s.earliestNs <= hiNs;
}

TimeOrder order(const ClockModel& clocks, const SymptomEvent& a, const SymptomEvent& b)
{
    const auto [x, y] = comparable(clocks, a, b);
    const bool xKnown = x.earliestNs != kNoTime || x.latestNs != kNoTime;
    const bool yKnown = y.earliestNs != kNoTime || y.latestNs != kNoTime;
    if (!xKnown || !yKnown)
        return TimeOrder::Unknown;
    if (x.latestNs != kNoTime && y.earliestNs != kNoTime && x.latestNs < y.earliestNs)
        return TimeOrder::Before;
    if (y.latestNs != kNoTime && x.earliestNs != kNoTime && y.latestNs < x.earliestNs)
        return TimeOrder::After;
    return TimeOrder::Overlaps;
}

} // namespace fl::detail

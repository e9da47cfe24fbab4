// Node clocks disagree by seconds. Events that every node records at the same
// true moment (the same collective's watchdog timeout, printed by every rank
// that waited on it) say by how much; the estimate is removed from each
// node's times before events on different nodes are ordered.
#pragma once

#include "engine/internal.h"

#include <map>
#include <string>
#include <vector>

namespace fl::detail {

// The clock metric events are on (SymptomEvent::clockNode): the metrics server's. Prometheus stamps a sample
// with its own time when it scrapes it (exporters print none), so no node's log-clock offset applies to a
// metric event; no anchor places that clock either, so it is as uncertain as any node without an estimate
// (ClockModel::unknownNs). Not a host name: a host cannot contain '<'.
inline const std::string kMetricsClock = "<metrics server>";

// Offsets relative to the median node, from the events' anchors; `unknownNs`
// from the rules' clock_skew_tolerance_s.
ClockModel estimateClockOffsets(const State& state, const std::vector<SymptomEvent>& events);

enum class TimeOrder : uint8_t {
    Before,    // a ends before b begins
    After,     // b ends before a begins
    Overlaps,  // their intervals share a moment: time alone cannot order them
    Unknown,   // no comparable times (boot-relative on different nodes, untimed)
};

// Same node: its own clock, no offset. Different nodes: corrected intervals.
TimeOrder order(const ClockModel& clocks, const SymptomEvent& a, const SymptomEvent& b);

// Whether `other` certainly happened within [loNs, hiNs] of `self` (other
// minus self), intervals compared as `order` compares them: every time the
// other's interval allows minus every time self's allows lies in the window.
// An unbounded side (an untimed line with no stamp after it) never does.
bool certainlyWithin(const ClockModel& clocks, const SymptomEvent& self, const SymptomEvent& other, int64_t loNs,
                     int64_t hiNs);

// The event's interval on its own clock; events made by rules (not from a
// line) get their stamp and one second.
TimeInterval ownInterval(const SymptomEvent& e);

// Where what `e` waited for began, on its own clock: its interval moved back by the wait it printed
// (SymptomEvent::waited), the longest wait from its earliest moment, the shortest from its latest. Unbounded
// before when the wait is only a lower bound; empty when it did not wait or has no wall-clock time.
TimeInterval onsetInterval(const SymptomEvent& e);

} // namespace fl::detail

// Which initiating candidate came first, when every time is an interval.
// "A before B" only when A's interval (after its node's clock offset) ends
// before B's begins. Where intervals overlap, causal knowledge decides: a
// causal edge the rules drew (A explains B); a fault seen on a node itself
// explains a report other nodes made about that node; or, on one node, the heavier
// cause (a GPU fault explains the CUDA/NCCL errors of the ranks on it; a
// fault on the node a victim names explains the report the rules moved onto
// that node). Candidates on different nodes that nothing orders are tied:
// the verdict is ambiguous, whatever their domains or weights.
#pragma once

#include "engine/clock_offsets.h"

#include <functional>
#include <set>
#include <utility>
#include <vector>

namespace fl::detail {

enum class Precedence : uint8_t {
    None,        // a does not precede b
    Earlier,     // a's interval ends before b's begins
    Explains,    // overlapping, and a causal edge runs a -> b
    Heavier,     // overlapping on the same node, a is the clearly heavier cause (or as heavy and earlier)
};

struct InitiatorOrder {
    const SymptomEvent* winner = nullptr;         // first of the unordered set (by time, then id)
    std::vector<const SymptomEvent*> tied;        // the rest of it: on other nodes, nothing orders them
};

struct OrderingInputs {
    const ClockModel& clocks;
    const std::set<std::pair<EventId, EventId>>& edges; // (from, to) event ids
    std::function<int(const SymptomEvent&)> weight;
    int margin = 10;                                      // weights closer than this are equally strong
};

// How `a` relates to `b`: whether, and why, it comes first.
Precedence precedes(const OrderingInputs& in, const SymptomEvent& a, const SymptomEvent& b);

// The candidates nothing precedes. `candidates` is sorted by (time, id).
InitiatorOrder orderInitiators(const OrderingInputs& in, const std::vector<const SymptomEvent*>& candidates);

} // namespace fl::detail

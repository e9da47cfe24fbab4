#include "engine/ordering.h"

#include <algorithm>

namespace fl::detail {

namespace {
// Printed on another node's clock: a report about this node. The metrics server's clock is no report.
bool secondHand(const SymptomEvent& e) { return !e.clockNode.empty() && e.clockNode != e.node && e.clockNode != kMetricsClock; }
} // namespace

Precedence precedes(const OrderingInputs& in, const SymptomEvent& a, const SymptomEvent& b)
{
    if (&a == &b)
        return Precedence::None;
    const TimeOrder t = order(in.clocks, a, b);
    if (t == TimeOrder::Before)
        return Precedence::Earlier;
    if (t == TimeOrder::After)
        return Precedence::None;
    // Unordered in time: what do we know about cause?
    const bool ab = in.edges.count({a.id, b.id}) > 0, ba = in.edges.count({b.id, a.id}) > 0;
    if (ab && !ba)
        return Precedence::Explains;
    if (ba)
        return Precedence::None;
    // A fault seen on a node itself explains what other nodes report about
    // that node ("Got completion from peer <its address>", "remote process
    // exited"): the report was moved there by a rule and is printed on the
    // reporter's clock. Second-hand never outranks first-hand, whatever the
    // weights: the victim only saw its peer vanish.
    if (!a.node.empty() && a.node == b.node && secondHand(a) != secondHand(b))
        return secondHand(b) ? Precedence::Explains : Precedence::None;
    // An event without a node (a rank log that never names its host) cannot
    // be said to be elsewhere: it is weighed as on the same node, never tied.
    const bool sameNode = a.node == b.node || a.node.empty() || b.node.empty();
    if (!sameNode)
        return Precedence::None;
    const int wa = in.weight(a), wb = in.weight(b);
    if (wa > wb + in.margin)
        return Precedence::Heavier;
    if (wb > wa + in.margin)
        return Precedence::None;
    // As heavy, one node: the one printed first (then the lower id) leads, so
    // the node is named even when its clock cannot split the two.
    if (a.time.known() && b.time.known() && a.time.ns != b.time.ns)
        return a.time.ns < b.time.ns ? Precedence::Heavier : Precedence::None;
    if (a.time.known() != b.time.known())
        return a.time.known() ? Precedence::Heavier : Precedence::None;
    return a.id < b.id ? Precedence::Heavier : Precedence::None;
}

InitiatorOrder orderInitiators(const OrderingInputs& in, const std::vector<const SymptomEvent*>& candidates)
{
    InitiatorOrder out;
    std::vector<const SymptomEvent*> first;
    for (const auto* c : candidates) {
        const bool preceded = std::any_of(candidates.begin(), candidates.end(), [&](const SymptomEvent* d) {
            return precedes(in, *d, *c) != Precedence::None;
        });
        if (!preceded)
            first.push_back(c);
    }
    // A cycle (A explains B, B is earlier than A) leaves nobody first: the
    // earliest printed then stands, as before intervals.
    if (first.empty() && !candidates.empty())
        first.push_back(candidates.front());
    if (first.empty())
        return out;
    out.winner = first.front();
    out.tied.assign(first.begin() + 1, first.end());
    return out;
}

} // namespace fl::detail

// The clock-offset table (issue #45): per node, its clock against the consensus, how well that is known and
// the shared moments it rests on, as the workbench's compare view and the CLI show it. Nodes without an
// estimate get a row too: the tolerance they are widened by is what ties their candidates.
#pragma once

#include "model.h"

#include <string>
#include <vector>

namespace fl::present {

struct ClockRow {
    std::string node;
    std::string offset;    // "+1.000 s" (node clock minus consensus), "unknown" without an estimate
    std::string residual;  // "±0.001 s"; a node without an estimate: "±N s (clock_skew_tolerance_s)"
    uint32_t moments = 0;  // shared moments the estimate rests on
    std::string from;      // "SeqNum 5210 ALLREDUCE (4 nodes, +1.000 s)", the moments joined by "; "
};

// The result's clockOffsets, sorted by node, then (unknownNs > 0) one row per node of `nodes` without an
// estimate, widened by ±unknownNs.
std::vector<ClockRow> clockRows(const Result& result, const std::vector<std::string>& nodes = {}, int64_t unknownNs = 0);

// Signed seconds to the millisecond: "+1.000 s", "-0.004 s".
std::string signedSeconds(int64_t ns);

} // namespace fl::present

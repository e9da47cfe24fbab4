// Words for the engine's typed verdict: where an event happened, why a
// candidate won or lost, what a trace step did. The CLI, the result JSON and
// the workbench all say it with these functions, so they cannot drift apart.
#pragma once

#include "model.h"

#include <string>

namespace fl::present {

// "node07 GPU 3 rank 25"; the PCI bus stands in for an unknown GPU index.
std::string place(const std::string& node, int gpu, const std::string& pciBus, int rank);

// "3.250 s"
std::string seconds(int64_t ns);

// "lost: 3.250 s later than gpu.xid.79 on node07 GPU 3". `result` supplies the
// candidate the outcome was measured against (outcome.other).
std::string candidateVerdict(const Candidate& c, const Result& result);

// "rewrote gpu.xid -> gpu.xid.79", "chose", "evidence cap 3".
std::string traceAction(const TraceStep& step);

} // namespace fl::present

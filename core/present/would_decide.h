// The sentence of a WouldDecide (model.h): what would order two tied candidates, e.g. "kernel logs of node-01
// and node-03 with sub-second stamps for 2026-03-14 10:00:40–10:00:43 UTC, or their clock offsets known to
// better than ±0.4 s (now ±2 s)". Written here once, for the CLI, the reports and the workbench alike.
#pragma once

#include "model.h"

#include <string>
#include <vector>

namespace fl::present {

std::string wouldDecideText(const WouldDecide& w);

// Every pair's sentence, in the result's order, the same sentence said once (pairs that share nodes, sources
// and window name the same evidence).
std::vector<std::string> wouldDecideLines(const Result& result);

// The heading of Result::missing: "Missing evidence" (unattributed), "What would decide the verdict" (ambiguous,
// the list beginning with wouldDecideLines), else "Would strengthen the verdict".
std::string missingHeading(const Result& result);

} // namespace fl::present

// Human-readable renderings of an analysis for a terminal.
#pragma once

#include "baseline/comparison.h"
#include "engine/engine.h"
#include "rules/rule.h"

#include <string>

namespace fl::cli {

// `detail`: the chain lists every event linked to each source event (grouped by
// symptom); otherwise one line per symptom family.
std::string formatDiagnosis(const Analysis& analysis, bool detail = false);
// analyze --baseline: the comparison with the healthy attempt (baseline_report.cpp).
std::string formatBaseline(const Result& result, const BaselineComparison& comparison);
std::string formatExplanation(const Analysis& analysis);
std::string formatInspection(const Analysis& analysis, bool asJson);

} // namespace fl::cli

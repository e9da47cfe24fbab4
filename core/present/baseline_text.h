// Words for analyze --baseline (Result::baseline): what the healthy attempt changed in the verdict, and the
// comparison in one line.
#pragma once

#include "baseline/comparison.h"

#include <string>
#include <string_view>

namespace fl::present {

std::string_view toString(BaselineMatch);   // new | also_in_baseline | gone
std::string_view toString(PlaceMatch);      // none | rank | node_name | node_position | elsewhere

// BaselineComparison::verdict: empty when the baseline changed nothing.
std::string baselineVerdict(const Result& result, const BaselineComparison& comparison);

// "3 of 8 symptom families are new against the baseline (5 also in it, 1 gone); 4 of 9 unrecognised line
// templates are new".
std::string baselineSummary(const Result& result, const BaselineComparison& comparison);

} // namespace fl::present

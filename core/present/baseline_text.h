// Words for analyze --baseline (Result::baseline): what the healthy attempt changed in the verdict, and the
// comparison in one line.
#pragma once

#include "baseline/comparison.h"

#include <string>
#include <string_view>
#include <vector>

namespace fl::present {

std::string_view toString(BaselineMatch);   // new | also_in_baseline | gone
std::string_view toString(PlaceMatch);      // none | rank | node_name | node_position | elsewhere

// BaselineComparison::verdict: empty when the baseline changed nothing.
std::string baselineVerdict(const Result& result, const BaselineComparison& comparison);

// "3 of 8 symptom families are new against the baseline (5 also in it, 1 gone); 4 of 9 unrecognised line
// templates are new".
std::string baselineSummary(const Result& result, const BaselineComparison& comparison);

// The comparison in sentences, for the text report (analyze --text) and the Markdown/HTML report: one line per
// symptom family (new, or also in the baseline with both counts), per symptom gone, per new unrecognised line.
struct BaselineLine {
    std::string label;   // the family, symptom or line template
    std::string detail;  // "new: 3 lines", "also in the baseline: 12 lines there, 10 here (same rate)", ...
    std::string place;   // where: "node-07 GPU 3 rank 25" (familyGpuPlace), the baseline's or the lines' nodes
    std::string suppressedBy; // a family whose members a rule suppressed (a duplicate of another family's line)
};
// The line's place as the Baseline tab and the reports print it: "node-07 GPU 3 rank 25", with " · suppressed by
// RULE" for a duplicate a rule suppressed (two families of one title at one place are told apart by it).
std::string baselineWhere(const BaselineLine& line);
struct BaselineText {
    std::string summary;                    // baselineSummary
    std::string verdict;                    // what the baseline changed in the verdict; empty: nothing
    std::vector<BaselineLine> candidates;   // in the comparison's order (weighed-down ones last)
    std::vector<BaselineLine> newFamilies;
    std::vector<BaselineLine> alsoFamilies;
    std::vector<BaselineLine> gone;
    std::string newLinesHeading;            // "New failure-indicating lines not in the catalogue (2 of 2, ...)"
    std::vector<BaselineLine> newLines;     // template; "4 lines on node-01,node-02, from ... (file:line)"
};
BaselineText baselineText(const Result& result, const BaselineComparison& comparison);

} // namespace fl::present

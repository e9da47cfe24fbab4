#include "text_report.h"

#include "baseline/comparison.h"
#include "present/baseline_text.h"

namespace fl::cli {

std::string formatBaseline(const Result& result, const BaselineComparison& c)
{
    const present::BaselineText t = present::baselineText(result, c);
    std::string out = "\nAgainst the baseline\n  " + t.summary + "\n";
    if (!t.verdict.empty())
        out += "  " + t.verdict + "\n";
    // "new family TITLE at PLACE: detail": the place tells two families of one title apart (the Baseline tab's Where).
    auto line = [&out](const char* what, const present::BaselineLine& l) {
        const std::string where = present::baselineWhere(l);
        out += std::string("  ") + what + " " + l.label + (where.empty() ? "" : " at " + where) + ": " + l.detail + "\n";
    };
    for (const auto& l : t.candidates)
        line("candidate", l);
    for (const auto& l : t.newFamilies)
        line("new family", l);
    for (const auto& l : t.alsoFamilies)
        line("also in baseline", l);
    for (const auto& l : t.gone)
        line("gone", l);
    if (!t.newLines.empty()) {
        out += "  " + t.newLinesHeading + ":\n";
        for (const auto& l : t.newLines)
            out += "    " + l.label + "\n      " + l.detail + "\n";
    }
    return out;
}

} // namespace fl::cli

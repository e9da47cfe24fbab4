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
    for (const auto& l : t.candidates)
        out += "  candidate " + l.label + ": " + l.detail + "\n";
    for (const auto& l : t.newFamilies)
        out += "  new family " + l.label + ": " + l.detail + "\n";
    for (const auto& l : t.alsoFamilies)
        out += "  also in baseline " + l.label + ": " + l.detail + "\n";
    for (const auto& l : t.gone)
        out += "  gone " + l.label + ": " + l.detail + "\n";
    if (!t.newLines.empty()) {
        out += "  " + t.newLinesHeading + ":\n";
        for (const auto& l : t.newLines)
            out += "    " + l.label + "\n      " + l.detail + "\n";
    }
    return out;
}

} // namespace fl::cli

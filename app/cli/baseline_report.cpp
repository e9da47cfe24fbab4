#include "text_report.h"

#include "baseline/comparison.h"
#include "present/baseline_text.h"
#include "present/timefmt.h"

namespace fl::cli {

std::string formatBaseline(const Result& result, const BaselineComparison& c)
{
    std::string out = "\nAgainst the baseline\n  " + present::baselineSummary(result, c) + "\n";
    if (!c.verdict.empty())
        out += "  " + c.verdict + "\n";
    for (const auto& m : c.candidates)
        out += "  candidate " + m.symptom.symptom + ": " + std::string(present::toString(m.symptom.mark.match)) +
               (m.symptom.mark.match == BaselineMatch::New ? "" : " (" + std::to_string(m.symptom.mark.baselineCount) +
                                                                    " there, " + std::to_string(m.symptom.count) + " here)") +
               (m.weighedDown ? ", weighed down" : "") + "\n";
    for (const auto& f : c.families)
        if (f.symptom.mark.match == BaselineMatch::New)
            out += "  new family " + f.symptom.symptom + " (" + std::to_string(f.symptom.count) + " lines)\n";
    for (const auto& g : c.gone)
        out += "  gone " + g.symptom + " (" + std::to_string(g.baselineCount) + " in the baseline)\n";
    if (!c.unknownNew.empty()) {
        out += "  New failure-indicating lines not in the catalogue (" + std::to_string(c.unknownNew.size()) + " of " +
               std::to_string(c.unknownNewTotal) + ", most lines first):\n";
        for (const auto& u : c.unknownNew) {
            std::string nodes;
            for (const auto& n : u.nodes)
                nodes += (nodes.empty() ? "" : ",") + n;
            if (u.nodeCount > u.nodes.size())
                nodes += ",… (" + std::to_string(u.nodeCount) + ")";
            const Timestamp first{u.firstNs, u.basis, {}};
            out += "    " + std::to_string(u.count) + "x  " + u.text + "\n      on " + (nodes.empty() ? "?" : nodes) +
                   ", from " + (first.known() ? formatTime(first) : std::string("?")) + " (" + u.file + ":" +
                   std::to_string(u.line) + ")\n";
        }
    }
    return out;
}

} // namespace fl::cli

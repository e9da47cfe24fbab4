#include "present/baseline_text.h"

#include <algorithm>

namespace fl::present {

std::string_view toString(BaselineMatch m)
{
    switch (m) {
    case BaselineMatch::New: return "new";
    case BaselineMatch::AlsoInBaseline: return "also_in_baseline";
    case BaselineMatch::Gone: return "gone";
    }
    return "new";
}

std::string_view toString(PlaceMatch p)
{
    switch (p) {
    case PlaceMatch::None: return "none";
    case PlaceMatch::Rank: return "rank";
    case PlaceMatch::NodeName: return "node_name";
    case PlaceMatch::NodePosition: return "node_position";
    case PlaceMatch::Elsewhere: return "elsewhere";
    }
    return "none";
}

namespace {

std::string times(uint32_t n) { return n == 1 ? "once" : std::to_string(n) + " times"; }

std::string attemptName(const BaselineComparison& c)
{
    std::string s = "the healthy attempt";
    if (!c.workloadId.empty())
        s += " (" + c.workloadId + (c.attempt >= 0 ? " attempt " + std::to_string(c.attempt) : std::string()) + ")";
    return s;
}

} // namespace

std::string baselineVerdict(const Result& result, const BaselineComparison& c)
{
    if (!result.rootCause)
        return {};
    const std::string& root = result.rootCause->symptom;
    const auto rootMark = std::find_if(c.candidates.begin(), c.candidates.end(),
                                       [&](const BaselineCandidateMark& m) { return m.event == result.rootCause->event; });
    switch (c.change) {
    case BaselineVerdictChange::None:
        return {};
    case BaselineVerdictChange::RootAlsoInBaseline: {
        std::string s = "The root cause " + root + " also appears in " + attemptName(c) + ", " +
                        times(rootMark->symptom.mark.baselineCount) + " (" + times(rootMark->symptom.count) +
                        " here, within " + std::to_string(static_cast<int>(BaselineComparison::kSameRateFactor)) +
                        "x): it may be noise this job always prints.";
        const auto fresh = std::find_if(c.candidates.begin(), c.candidates.end(),
                                        [](const BaselineCandidateMark& m) { return !m.weighedDown; });
        if (fresh != c.candidates.end())
            s += " New or more frequent here: " + fresh->symptom.symptom + ".";
        else
            s += " No other candidate is new.";
        return s;
    }
    case BaselineVerdictChange::RootOnlyNewCandidate: {
        const size_t others = c.candidates.size() - 1;
        return "Of the " + std::to_string(c.candidates.size()) + " candidates only the root cause " + root +
               " is new against " + attemptName(c) + "; the other " + std::to_string(others) +
               (others == 1 ? " appears" : " appear") + " there at a similar rate.";
    }
    }
    return {};
}

std::string baselineSummary(const Result&, const BaselineComparison& c)
{
    size_t fresh = 0;
    for (const auto& f : c.families)
        fresh += f.symptom.mark.match == BaselineMatch::New;
    std::string s = std::to_string(fresh) + " of " + std::to_string(c.families.size()) +
                    " symptom families are new against the baseline (" + std::to_string(c.families.size() - fresh) +
                    " also in it, " + std::to_string(c.gone.size()) + " gone); " + std::to_string(c.unknownNewTotal) +
                    " of " + std::to_string(c.unknownTemplates) + " unrecognised error/warning line templates are new";
    if (c.nodesByPosition)
        s += "; " + std::to_string(c.nodesByPosition) + " node(s) matched by position in the sorted node list";
    return s;
}

} // namespace fl::present

#include "present/baseline_text.h"

#include "present/family_label.h"
#include "present/hostlist.h"
#include "present/timefmt.h"
#include "present/verdict.h"

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

namespace {

std::string lines(uint32_t n) { return counted(n, "line"); }

// A place is a column beside the title: a few runs of each list, then how many more.
constexpr size_t kPlaceGroups = 4;

// `nodes` of `total` (a sample when fewer): "node-[01-03]", "node-[01-08] … (1,250 nodes)", never blank.
std::string nodesPlace(const std::vector<std::string>& nodes, size_t total)
{
    if (nodes.empty())
        return "unknown nodes";
    std::string s = compressHostList(nodes, kPlaceGroups);
    if (total > nodes.size())
        s += " … (" + counted(total, "node") + ")";
    return s;
}

std::string markDetail(const BaselineSymptomMark& m)
{
    if (m.mark.match == BaselineMatch::New)
        return "new: " + lines(m.count);
    return "also in the baseline: " + lines(m.mark.baselineCount) + " there, " + std::to_string(m.count) + " here" +
           (m.sameRate ? " (same rate)" : " (more often here)");
}

} // namespace

std::string baselineWhere(const BaselineLine& l)
{
    return l.suppressedBy.empty() ? l.place : l.place + " · suppressed by " + l.suppressedBy;
}

BaselineText baselineText(const Result& result, const BaselineComparison& c)
{
    BaselineText t;
    t.summary = baselineSummary(result, c);
    t.verdict = c.verdict;
    for (const auto& m : c.candidates)
        t.candidates.push_back({m.symptom.symptom, markDetail(m.symptom) + (m.weighedDown ? ", weighed down" : ""),
                                m.event.value < result.events.size()
                                    ? place(result.events[m.event.value].node, result.events[m.event.value].gpuIndex,
                                            result.events[m.event.value].pciBus, result.events[m.event.value].rank)
                                    : std::string("unknown node"),
                                {}});
    for (const auto& f : c.families) {
        const std::string name = f.family.value < result.families.size() ? familyName(result.families[f.family.value])
                                                                          : f.symptom.symptom;
        const std::string where = f.family.value < result.families.size()
                                      ? familyGpuPlace(result.families[f.family.value], result.events, kPlaceGroups)
                                      : std::string();
        (f.symptom.mark.match == BaselineMatch::New ? t.newFamilies : t.alsoFamilies)
            .push_back({name, markDetail(f.symptom), where,
                        f.family.value < result.families.size() ? result.families[f.family.value].suppressedBy : std::string()});
    }
    for (const auto& g : c.gone) {
        std::string nodes;
        for (const auto& n : g.nodes)
            nodes += (nodes.empty() ? "" : ",") + n;
        t.gone.push_back({g.symptom, "only in the baseline: " + lines(g.baselineCount) + (nodes.empty() ? "" : " on " + nodes),
                          nodesPlace(g.nodes, g.nodes.size()), {}});
    }
    if (!c.unknownNew.empty())
        t.newLinesHeading = "New failure-indicating lines not in the catalogue (" + std::to_string(c.unknownNew.size()) +
                            " of " + std::to_string(c.unknownNewTotal) + " templates, most lines first)";
    for (const auto& u : c.unknownNew) {
        std::string nodes;
        for (const auto& n : u.nodes)
            nodes += (nodes.empty() ? "" : ",") + n;
        if (u.nodeCount > u.nodes.size())
            nodes += ",… (" + std::to_string(u.nodeCount) + " nodes)";
        const Timestamp first{u.firstNs, u.basis, {}};
        t.newLines.push_back({u.text, std::string(toString(u.severity)) + ", " + lines(u.count) + " on " +
                                          (nodes.empty() ? "?" : nodes) + ", from " +
                                          (first.known() ? formatTime(first) : std::string("?")) + " (" + u.file + ":" +
                                          std::to_string(u.line) + ")",
                             nodesPlace(u.nodes, u.nodeCount), {}});
    }
    return t;
}

} // namespace fl::present

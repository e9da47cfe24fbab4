#include "present/compare.h"

#include "present/timefmt.h"
#include "present/verdict.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace fl::present {

namespace {

// "10:00:40.999" of "2026-03-14T10:00:40.999Z": the compare view spans seconds, the date is in its header.
std::string clockText(int64_t ns)
{
    std::string t = formatTimeUtc(ns);
    if (t.size() > 11 && t[10] == 'T')
        t = t.substr(11);
    if (!t.empty() && t.back() == 'Z')
        t.pop_back();
    return t;
}

std::string intervalText(const TimeInterval& iv)
{
    if (!iv.bounded())
        return iv.earliestNs == kNoTime && iv.latestNs == kNoTime
                   ? std::string("no time on the consensus clock")
                   : (iv.earliestNs == kNoTime ? "… " : clockText(iv.earliestNs) + "–") +
                         (iv.latestNs == kNoTime ? "…" : clockText(iv.latestNs)) + " UTC (corrected, open)";
    return clockText(iv.earliestNs) + "–" + clockText(iv.latestNs) + " UTC (corrected)";
}

const SymptomEvent* eventOf(const Result& r, EventId id)
{
    if (id.value < r.events.size() && r.events[id.value].id == id)
        return &r.events[id.value];
    const auto it = std::find_if(r.events.begin(), r.events.end(), [id](const SymptomEvent& e) { return e.id == id; });
    return it == r.events.end() ? nullptr : &*it;
}

void addOnce(std::vector<std::string>& out, const std::string& item)
{
    if (!item.empty() && std::find(out.begin(), out.end(), item) == out.end())
        out.push_back(item);
}

// Every column's rules (the event's own, then those of the links to or from it) and the symptoms it explains
// (the events it links to, by symptom), in one pass over the edges.
void fillFromChain(const Result& r, std::vector<CompareColumn>& columns)
{
    std::unordered_map<uint32_t, size_t> column;
    for (size_t i = 0; i < columns.size(); ++i) {
        column.emplace(columns[i].event.value, i);
        if (const SymptomEvent* e = eventOf(r, columns[i].event)) {
            addOnce(columns[i].rules, e->extractedBy.str());
            addOnce(columns[i].rules, e->roleOverrideBy.str());
        }
    }
    std::vector<std::map<std::string, uint32_t>> explained(columns.size());
    for (const ChainEdge& edge : r.edges) {
        if (const auto to = column.find(edge.to.value); to != column.end())
            addOnce(columns[to->second].rules, edge.rule.str());
        const auto from = column.find(edge.from.value);
        if (from == column.end())
            continue;
        addOnce(columns[from->second].rules, edge.rule.str());
        if (const SymptomEvent* to = eventOf(r, edge.to))
            ++explained[from->second][to->symptom.str()];
    }
    for (size_t i = 0; i < columns.size(); ++i)
        for (const auto& [symptom, n] : explained[i])
            columns[i].explains.push_back(symptom + " × " + std::to_string(n));
}

std::string tieSettingOf(const Result& r, const std::vector<const Candidate*>& tied)
{
    if (tied.size() < 2) {
        const auto won = std::find_if(r.candidates.begin(), r.candidates.end(), [](const Candidate& c) { return c.chosen; });
        return won == r.candidates.end() ? std::string("no tie and no chosen candidate")
                                         : "no tie: " + candidateVerdict(*won, r);
    }
    int64_t tolerance = 0;
    std::set<std::string> nodes;
    for (const Candidate* c : tied) {
        tolerance = std::max(tolerance, c->outcome.limitNs);
        nodes.insert(c->node);
    }
    std::string clocks;
    for (const std::string& node : nodes) {
        const auto it = std::find_if(r.clockOffsets.begin(), r.clockOffsets.end(),
                                     [&](const ClockOffset& c) { return c.node == node; });
        clocks += (clocks.empty() ? "" : ", ") + nodeName(node) + " " +
                  (it == r.clockOffsets.end() ? "±" + seconds(tolerance) + " (no offset estimate)"
                                              : "offset " + seconds(it->offsetNs) + " ±" + seconds(it->residualNs));
    }
    return "tied: their corrected intervals overlap, so time cannot order them (each printed second widened by its "
           "node's clock: " + clocks + "; clock_skew_tolerance_s " + seconds(tolerance) +
           " for a node without an estimate)";
}

} // namespace

std::string candidateLabel(size_t index)
{
    return index < 26 ? std::string(1, static_cast<char>('A' + index)) : "#" + std::to_string(index + 1);
}

Comparison compareCandidates(const Result& result, int64_t marginNs)
{
    Comparison out;
    std::vector<const Candidate*> chosen;
    for (const Candidate& c : result.candidates)
        if (c.outcome.tied())
            chosen.push_back(&c);
    const std::vector<const Candidate*> tied = chosen;
    if (chosen.empty())
        for (const Candidate& c : result.candidates)
            chosen.push_back(&c);
    // A side-by-side view holds a handful: the first (the result's order puts the root and the ties first).
    if (chosen.size() > kMaxColumns) {
        out.omitted = chosen.size() - kMaxColumns;
        chosen.resize(kMaxColumns);
    }
    std::unordered_map<EvidenceId, const EvidenceItem*> evidence;
    for (const EvidenceItem& e : result.evidence)
        evidence.emplace(e.id, &e);
    for (size_t i = 0; i < chosen.size(); ++i) {
        const Candidate& c = *chosen[i];
        CompareColumn col;
        col.label = candidateLabel(i);
        col.event = c.event;
        col.title = c.title;
        col.place = place(c.node, c.gpuIndex, c.pciBus, c.rank);
        col.node = c.node;
        col.interval = c.time.interval;
        col.printed = formatTime(c.time);
        col.intervalText = intervalText(c.time.interval);
        for (const EvidenceId id : c.evidence)
            if (const auto it = evidence.find(id); it != evidence.end())
                col.rawLines.push_back(it->second->file + ":" + std::to_string(it->second->ref.line) + "  " +
                                       it->second->excerpt);
        col.verdict = candidateVerdict(c, result);
        if (col.interval.earliestNs != kNoTime)
            out.zoom.earliestNs = out.zoom.earliestNs == kNoTime ? col.interval.earliestNs
                                                                 : std::min(out.zoom.earliestNs, col.interval.earliestNs);
        if (col.interval.latestNs != kNoTime)
            out.zoom.latestNs = std::max(out.zoom.latestNs, col.interval.latestNs);
        out.columns.push_back(std::move(col));
    }
    if (out.zoom.earliestNs != kNoTime)
        out.zoom.earliestNs -= marginNs;
    if (out.zoom.latestNs != kNoTime)
        out.zoom.latestNs += marginNs;
    fillFromChain(result, out.columns);
    out.tieSetting = tieSettingOf(result, tied);
    return out;
}

} // namespace fl::present

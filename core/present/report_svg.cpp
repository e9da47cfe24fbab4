// The report's two pictures, Qt-free: the timeline drawn as SVG here, and the
// summarised chain as Graphviz DOT (the CLI lays it out with Graphviz; the
// workbench embeds its own view instead). Bounded whatever the bundle's size:
// at most kLanes lanes and one mark per pixel column, role and lane.
#include "present/report.h"
#include "present/report_chain.h"
#include "present/timefmt.h"
#include "present/verdict.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace fl::present {

namespace {

constexpr size_t kLanes = 32;
constexpr size_t kDotCandidates = 12;
constexpr size_t kDotGroups = 32;

enum class Mark { Symptom, Candidate, Root };

struct TimedEvent {
    int64_t ns = 0;
    std::string node;
    Mark mark = Mark::Symptom;
};

std::set<EventId> candidateEvents(const Result& result)
{
    std::set<EventId> ids;
    for (const Candidate& c : result.candidates)
        ids.insert(c.event);
    return ids;
}

// A step a clock reader likes (1 ms .. 1 day): about `ticks` ticks over `rangeNs`.
int64_t tickStep(int64_t rangeNs, int ticks)
{
    constexpr int64_t ms = 1'000'000, s = 1000 * ms, min = 60 * s, h = 60 * min;
    static const int64_t kSteps[] = {ms,      2 * ms,  5 * ms,  10 * ms, 20 * ms,  50 * ms, 100 * ms, 200 * ms,
                                     500 * ms, s,      2 * s,   5 * s,   10 * s,   15 * s,  30 * s,   min,
                                     2 * min, 5 * min, 10 * min, 15 * min, 30 * min, h,     2 * h,    3 * h,
                                     6 * h,   12 * h,  24 * h};
    for (int64_t step : kSteps)
        if (rangeNs / step <= ticks)
            return step;
    return std::max<int64_t>(24 * h, rangeNs / ticks / (24 * h) * (24 * h));
}

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string dotQuote(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
    }
    return out + "\"";
}

std::string clip(std::string s, size_t max)
{
    if (s.size() > max) {
        size_t cut = max;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
            --cut;  // not inside a UTF-8 sequence
        s = s.substr(0, cut) + "…";
    }
    return s;
}

} // namespace

std::string timelineSvg(const Result& result)
{
    const std::set<EventId> candidates = candidateEvents(result);
    const std::optional<EventId> root = result.rootCause ? std::optional(result.rootCause->event) : std::nullopt;
    std::vector<TimedEvent> events;
    size_t untimed = 0;
    // A boot-relative time is not a date: it cannot be drawn on the clock.
    auto add = [&](const Timestamp& time, const std::string& node, EventId id) {
        if (!time.known() || time.basis == TimeBasis::BootRelative) {
            ++untimed;
            return;
        }
        events.push_back({time.ns, node.empty() ? std::string("(no node)") : node,
                          id == root ? Mark::Root : candidates.count(id) ? Mark::Candidate : Mark::Symptom});
    };
    // A 2.0 result keeps its events as families: the marks are its evidence
    // lines (every family's representatives among them), not every event.
    const bool fromEvidence = !result.families.empty() || result.events.empty();
    if (fromEvidence) {
        std::set<EventId> drawnEvents;
        for (const EvidenceItem& e : result.evidence)
            if (e.role != EvidenceRole::Context && drawnEvents.insert(e.event).second)
                add(e.time, e.node, e.event);
    } else {
        for (const SymptomEvent& e : result.events)
            if (!e.suppressed)
                add(e.time, e.node, e.id);
    }
    if (events.empty())
        return {};

    // Lanes: the root cause's node, then the candidates', then by first event.
    std::map<std::string, std::pair<int, int64_t>> laneKey;  // node -> (class, first time)
    for (const TimedEvent& e : events) {
        auto [it, fresh] = laneKey.try_emplace(e.node, 2, e.ns);
        it->second.first = std::min(it->second.first, e.mark == Mark::Root ? 0 : e.mark == Mark::Candidate ? 1 : 2);
        it->second.second = std::min(it->second.second, e.ns);
    }
    std::vector<std::string> lanes;
    for (const auto& [node, key] : laneKey)
        lanes.push_back(node);
    std::stable_sort(lanes.begin(), lanes.end(),
                     [&](const std::string& a, const std::string& b) { return laneKey[a] < laneKey[b]; });
    const size_t hidden = lanes.size() > kLanes ? lanes.size() - kLanes : 0;
    lanes.resize(std::min(lanes.size(), kLanes));
    std::map<std::string, size_t> laneOf;
    for (size_t i = 0; i < lanes.size(); ++i)
        laneOf[lanes[i]] = i;

    int64_t t0 = events.front().ns, t1 = t0;
    for (const TimedEvent& e : events) {
        t0 = std::min(t0, e.ns);
        t1 = std::max(t1, e.ns);
    }
    const int64_t pad = std::max<int64_t>((t1 - t0) / 20, 500'000'000);
    t0 -= pad;
    t1 += pad;

    const double left = 170, right = 1060, top = 34, laneH = 22;
    const double width = right + 20;
    const double plotBottom = top + laneH * static_cast<double>(lanes.size());
    const double height = plotBottom + 64 + (hidden || untimed ? 18 : 0);
    auto x = [&](int64_t ns) {
        return left + (right - left) * static_cast<double>(ns - t0) / static_cast<double>(t1 - t0);
    };

    std::ostringstream os;
    os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << num(height)
       << "\" viewBox=\"0 0 " << width << " " << num(height) << "\" font-family=\"DejaVu Sans, sans-serif\" "
       << "font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
    for (size_t i = 0; i < lanes.size(); ++i) {
        const double y = top + laneH * static_cast<double>(i);
        if (i % 2 == 0)
            os << "<rect x=\"" << left << "\" y=\"" << num(y) << "\" width=\"" << right - left << "\" height=\"" << laneH
               << "\" fill=\"#f4f5f7\"/>\n";
        os << "<text x=\"" << left - 8 << "\" y=\"" << num(y + 15) << "\" text-anchor=\"end\">"
           << htmlEscape(clip(lanes[i], 24)) << "</text>\n";
    }
    // Axis: absolute UTC clock time when the ticks are whole seconds, else offsets.
    const int64_t step = tickStep(t1 - t0, 8);
    const bool wholeSeconds = step >= 1'000'000'000;
    for (int64_t t = (t0 / step + 1) * step; t < t1; t += step) {
        const double tx = x(t);
        std::string label;
        if (wholeSeconds) {
            const std::string iso = formatTimeUtc(t);
            label = iso.size() >= 19 ? iso.substr(11, 8) : iso;
        } else {
            label = "+" + seconds(t - t0);
        }
        os << "<line x1=\"" << num(tx) << "\" y1=\"" << top << "\" x2=\"" << num(tx) << "\" y2=\"" << num(plotBottom)
           << "\" stroke=\"#d8dce3\"/>\n<text x=\"" << num(tx) << "\" y=\"" << num(plotBottom + 14)
           << "\" text-anchor=\"middle\" fill=\"#5f6673\">" << htmlEscape(label) << "</text>\n";
    }
    const std::string day = formatTimeUtc(t0).substr(0, 10);
    os << "<text x=\"" << left << "\" y=\"20\" fill=\"#5f6673\">" << htmlEscape(day)
       << " UTC, on the consensus clock where offsets are known"
       << (fromEvidence ? "; marks are the result's evidence lines" : "") << "</text>\n";

    // One mark per (lane, pixel column, kind); the root cause drawn last, on top.
    std::set<std::tuple<int, size_t, int>> drawn;
    std::vector<std::string> layers[3];
    for (const TimedEvent& e : events) {
        auto lane = laneOf.find(e.node);
        if (lane == laneOf.end())
            continue;
        const double ex = x(e.ns);
        const int kind = static_cast<int>(e.mark);
        if (!drawn.insert({kind, lane->second, static_cast<int>(ex)}).second)
            continue;
        const double cy = top + laneH * static_cast<double>(lane->second) + laneH / 2;
        std::string mark;
        if (e.mark == Mark::Root)
            mark = "<path d=\"M" + num(ex) + " " + num(cy - 8) + " l7 8 l-7 8 l-7 -8 z\" fill=\"#b3261e\" stroke=\"#5c100b\"/>";
        else if (e.mark == Mark::Candidate)
            mark = "<circle cx=\"" + num(ex) + "\" cy=\"" + num(cy) + "\" r=\"5.5\" fill=\"#e08a00\" stroke=\"#6b4200\"/>";
        else
            mark = "<rect x=\"" + num(ex - 1.5) + "\" y=\"" + num(cy - 6) + "\" width=\"3\" height=\"12\" fill=\"#3f6fb5\"/>";
        layers[kind].push_back(mark);
    }
    for (const auto& layer : layers)
        for (const std::string& m : layer)
            os << m << "\n";

    const double ly = plotBottom + 40;
    os << "<rect x=\"" << left << "\" y=\"" << num(ly - 6) << "\" width=\"3\" height=\"12\" fill=\"#3f6fb5\"/>"
       << "<text x=\"" << left + 8 << "\" y=\"" << num(ly + 4) << "\">downstream symptom</text>\n"
       << "<circle cx=\"" << left + 170 << "\" cy=\"" << num(ly) << "\" r=\"5.5\" fill=\"#e08a00\"/>"
       << "<text x=\"" << left + 180 << "\" y=\"" << num(ly + 4) << "\">candidate cause</text>\n"
       << "<path d=\"M" << left + 330 << " " << num(ly - 8) << " l7 8 l-7 8 l-7 -8 z\" fill=\"#b3261e\"/>"
       << "<text x=\"" << left + 342 << "\" y=\"" << num(ly + 4) << "\">root cause</text>\n";
    if (hidden || untimed) {
        std::string more;
        if (hidden)
            more = std::to_string(hidden) + " more node" + (hidden == 1 ? "" : "s") + " not drawn";
        if (untimed)
            more += (more.empty() ? "" : "; ") + std::to_string(untimed) + (fromEvidence ? " evidence line" : " event") +
                    (untimed == 1 ? "" : "s") + " without a date not drawn";
        os << "<text x=\"" << left << "\" y=\"" << num(ly + 22) << "\" fill=\"#5f6673\">" << htmlEscape(more)
           << "</text>\n";
    }
    os << "</svg>\n";
    return os.str();
}

std::string chainDot(const Result& result)
{
    const ChainSummary chain = summariseChain(result, kDotCandidates, kDotGroups);
    std::ostringstream os;
    os << "digraph chain {\n  rankdir=LR;\n  bgcolor=\"white\";\n"
          "  node [shape=box, style=\"rounded,filled\", fontname=\"DejaVu Sans\", fontsize=10, fillcolor=\"#e3e8f0\"];\n"
          "  edge [color=\"#5f6673\"];\n";
    for (size_t i = 0; i < chain.nodes.size(); ++i) {
        const ChainNode& n = chain.nodes[i];
        std::string label;
        if (n.focus)
            label = clip(n.symptom, 60) + "\n" + clip(n.where, 60) + "\n" + clip(n.when, 40);
        else
            label = clip(n.symptom, 60) + " ×" + std::to_string(n.events) + "\non " + std::to_string(n.nodes) + " node" +
                    (n.nodes == 1 ? "" : "s") + (n.where.empty() ? "" : "\n" + clip(n.where, 60));
        os << "  n" << i << " [label=" << dotQuote(label);
        if (n.root)
            os << ", fillcolor=\"#f6d5d2\", penwidth=2, color=\"#b3261e\"";
        else if (n.focus)
            os << ", fillcolor=\"#fde9c8\"";
        os << "];\n";
    }
    for (const auto& [from, to] : chain.edges)
        os << "  n" << from << " -> n" << to << ";\n";
    if (chain.symptomsLeftOut)
        os << "  more [shape=plaintext, style=\"\", label=" << dotQuote("… and " + std::to_string(chain.symptomsLeftOut) + " more symptoms") << "];\n";
    os << "}\n";
    return os.str();
}

} // namespace fl::present

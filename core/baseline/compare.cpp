#include "baseline/compare.h"

#include "baseline/unknown_lines.h"
#include "present/baseline_text.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace fl::baseline {

namespace {

// The job's nodes, sorted: those its files and its events name.
std::vector<std::string> nodesOf(const Analysis& a)
{
    std::set<std::string> nodes;
    for (const SourceFile& f : a.bundle.files)
        if (!f.node.empty())
            nodes.insert(f.node);
    for (const SymptomEvent& e : a.result.events)
        if (!e.node.empty())
            nodes.insert(e.node);
    return {nodes.begin(), nodes.end()};
}

// First to last timed line of the attempt's files.
int64_t spanOf(const Analysis& a)
{
    int64_t first = kNoTime, last = kNoTime;
    for (const SourceFile& f : a.bundle.files) {
        if (f.firstTimeNs == kNoTime || f.lastTimeNs == kNoTime)
            continue;
        first = first == kNoTime ? f.firstTimeNs : std::min(first, f.firstTimeNs);
        last = last == kNoTime ? f.lastTimeNs : std::max(last, f.lastTimeNs);
    }
    return first == kNoTime ? 0 : std::max<int64_t>(0, last - first);
}

struct NodeMatch {
    std::string node;
    PlaceMatch by = PlaceMatch::None;
};

// A failed-attempt node's counterpart: the same name, else the node at the same position of the sorted lists.
std::map<std::string, NodeMatch> matchNodes(const std::vector<std::string>& failed, const std::vector<std::string>& base)
{
    std::map<std::string, NodeMatch> m;
    const std::set<std::string> names(base.begin(), base.end());
    for (size_t i = 0; i < failed.size(); ++i) {
        if (names.count(failed[i]))
            m[failed[i]] = {failed[i], PlaceMatch::NodeName};
        else if (i < base.size())
            m[failed[i]] = {base[i], PlaceMatch::NodePosition};
    }
    return m;
}

// Where an event happened, in terms both attempts share: its rank, else its node (in baseline names) and GPU.
struct Place {
    std::string key;
    PlaceMatch by = PlaceMatch::None;
};

Place placeOf(const SymptomEvent& e, const std::map<std::string, NodeMatch>* nodeMap)
{
    if (e.rank >= 0)
        return {"r" + std::to_string(e.rank), PlaceMatch::Rank};
    if (e.node.empty())
        return {"g" + std::to_string(e.gpuIndex), PlaceMatch::None};
    if (!nodeMap)
        return {"n" + e.node + "/g" + std::to_string(e.gpuIndex), PlaceMatch::NodeName};
    auto it = nodeMap->find(e.node);
    if (it == nodeMap->end())
        return {{}, PlaceMatch::None};
    return {"n" + it->second.node + "/g" + std::to_string(e.gpuIndex), it->second.by};
}

bool withinFactor(double a, double b, double factor) { return a <= b * factor && b <= a * factor; }

} // namespace

BaselineComparison compare(const Analysis& failed, const Analysis& healthy)
{
    BaselineComparison c;
    c.workloadId = healthy.result.workloadId;
    c.attempt = healthy.result.attempt;
    c.failedSpanNs = spanOf(failed);
    c.baselineSpanNs = spanOf(healthy);

    const std::vector<std::string> failedNodes = nodesOf(failed), baseNodes = nodesOf(healthy);
    const auto nodeMap = matchNodes(failedNodes, baseNodes);
    for (const auto& [node, m] : nodeMap)
        (m.by == PlaceMatch::NodeName ? c.nodesByName : c.nodesByPosition) += 1;

    // The baseline's lines per symptom and per symptom at a place.
    std::map<std::string, uint32_t> baseBySymptom;
    std::map<std::string, std::set<std::string>> baseNodesBySymptom;
    std::map<std::pair<std::string, std::string>, uint32_t> baseByPlace;
    for (const SymptomEvent& e : healthy.result.events) {
        baseBySymptom[e.symptom.str()] += e.count;
        if (!e.node.empty())
            baseNodesBySymptom[e.symptom.str()].insert(e.node);
        const Place p = placeOf(e, nullptr);
        baseByPlace[{e.symptom.str(), p.key}] += e.count;
    }
    std::map<std::string, uint32_t> failedBySymptom;
    for (const SymptomEvent& e : failed.result.events)
        failedBySymptom[e.symptom.str()] += e.count;

    auto sameRate = [&](uint32_t f, uint32_t b) {
        if (b == 0 || f == 0)
            return false;
        if (withinFactor(f, b, BaselineComparison::kSameRateFactor))
            return true;
        return c.failedSpanNs > 0 && c.baselineSpanNs > 0 &&
               withinFactor(double(f) / double(c.failedSpanNs), double(b) / double(c.baselineSpanNs),
                            BaselineComparison::kSameRateFactor);
    };
    auto symptomMark = [&](const std::string& symptom) {
        BaselineSymptomMark s;
        s.symptom = symptom;
        s.count = failedBySymptom[symptom];
        auto it = baseBySymptom.find(symptom);
        if (it != baseBySymptom.end()) {
            s.mark = {BaselineMatch::AlsoInBaseline, it->second, PlaceMatch::Elsewhere};
            s.sameRate = sameRate(s.count, it->second);
        }
        return s;
    };

    std::unordered_map<uint32_t, BaselineMark> eventMark;
    for (const SymptomEvent& e : failed.result.events) {
        BaselineMark m;
        const Place p = placeOf(e, &nodeMap);
        if (!p.key.empty())
            if (auto it = baseByPlace.find({e.symptom.str(), p.key}); it != baseByPlace.end())
                m = {BaselineMatch::AlsoInBaseline, it->second, p.by == PlaceMatch::None ? PlaceMatch::Elsewhere : p.by};
        if (m.match == BaselineMatch::New)
            if (auto it = baseBySymptom.find(e.symptom.str()); it != baseBySymptom.end())
                m = {BaselineMatch::AlsoInBaseline, it->second, PlaceMatch::Elsewhere};
        eventMark[e.id.value] = m;
        c.events.push_back({e.id, m});
    }
    std::sort(c.events.begin(), c.events.end(), [](const auto& a, const auto& b) { return a.event < b.event; });

    for (size_t i = 0; i < failed.result.families.size(); ++i) {
        const SymptomFamily& f = failed.result.families[i];
        BaselineFamilyMark fm;
        fm.family = FamilyId(static_cast<uint32_t>(i));
        fm.symptom = symptomMark(f.symptom);
        for (EventId id : f.events) {
            auto it = eventMark.find(id.value);
            if (it == eventMark.end() || it->second.match == BaselineMatch::New ||
                it->second.by == PlaceMatch::Elsewhere) {
                ++fm.newEvents;
            } else {
                // The family says how its members were placed: the first matched member's way (rank, name, position).
                if (fm.matchedEvents++ == 0)
                    fm.symptom.mark.by = it->second.by;
            }
        }
        c.families.push_back(std::move(fm));
    }

    // Weighed down: also in the baseline at the same rate. Ranked after the others, each group in the engine's order.
    std::vector<BaselineCandidateMark> up, down;
    for (const Candidate& cand : failed.result.candidates) {
        BaselineCandidateMark cm;
        cm.event = cand.event;
        cm.symptom = symptomMark(cand.symptom);
        cm.weighedDown = cm.symptom.mark.match == BaselineMatch::AlsoInBaseline && cm.symptom.sameRate;
        (cm.weighedDown ? down : up).push_back(std::move(cm));
    }
    c.candidates = std::move(up);
    c.candidates.insert(c.candidates.end(), down.begin(), down.end());

    for (const auto& [symptom, count] : baseBySymptom) {
        if (failedBySymptom.count(symptom))
            continue;
        BaselineGone g;
        g.symptom = symptom;
        g.baselineCount = count;
        if (auto it = baseNodesBySymptom.find(symptom); it != baseNodesBySymptom.end())
            g.nodes.assign(it->second.begin(), it->second.end());
        c.gone.push_back(std::move(g));
    }

    // Lines no rule knows, compared by template (each attempt's node names masked with its own list).
    const UnknownLines fu = unknownLines(failed, failedNodes), bu = unknownLines(healthy, baseNodes);
    std::vector<UnknownLineGroup> fresh;
    for (const auto& [text, t] : fu.templates) {
        ++c.unknownTemplates;
        if (auto it = bu.templates.find(text); it != bu.templates.end()) {
            ++c.unknownAlso;
            continue;
        }
        UnknownLineGroup g;
        g.text = text;
        g.severity = t.severity;
        g.count = t.count;
        g.nodeCount = static_cast<uint32_t>(t.nodes.size());
        g.nodes.assign(t.nodes.begin(),
                       t.nodes.begin() + static_cast<std::ptrdiff_t>(std::min(t.nodes.size(), BaselineComparison::kUnknownNodesShown)));
        g.firstNs = t.firstNs;
        g.basis = t.basis;
        g.file = t.file;
        g.line = t.line;
        fresh.push_back(std::move(g));
    }
    c.unknownNewTotal = static_cast<uint32_t>(fresh.size());
    std::stable_sort(fresh.begin(), fresh.end(), [](const UnknownLineGroup& a, const UnknownLineGroup& b) {
        if (a.count != b.count)
            return a.count > b.count;
        return a.text < b.text;
    });
    if (fresh.size() > BaselineComparison::kUnknownShown)
        fresh.resize(BaselineComparison::kUnknownShown);
    c.unknownNew = std::move(fresh);

    // What the baseline says about the verdict.
    if (failed.result.rootCause) {
        const EventId root = failed.result.rootCause->event;
        const auto rootMark = std::find_if(c.candidates.begin(), c.candidates.end(),
                                           [&](const BaselineCandidateMark& m) { return m.event == root; });
        if (rootMark != c.candidates.end()) {
            const bool othersDown = c.candidates.size() > 1 &&
                std::all_of(c.candidates.begin(), c.candidates.end(), [&](const BaselineCandidateMark& m) {
                                        return m.event == root || m.weighedDown;
                                    });
            if (rootMark->weighedDown)
                c.change = BaselineVerdictChange::RootAlsoInBaseline;
            else if (rootMark->symptom.mark.match == BaselineMatch::New && othersDown)
                c.change = BaselineVerdictChange::RootOnlyNewCandidate;
        }
    }
    c.verdict = present::baselineVerdict(failed.result, c);
    return c;
}

} // namespace fl::baseline

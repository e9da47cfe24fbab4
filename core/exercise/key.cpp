#include "exercise/key.h"

#include "exercise/replay.h"

#include "present/exercise_text.h"
#include "present/role.h"
#include "present/verdict.h"
#include "present/why_not.h"
#include "rules/ruleset.h"
#include "rules/template.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <unordered_map>

namespace fl::exercise {

namespace {

// A repeat merged into one event may hold many identical lines; a mark on any of the first ones is a mark on it.
constexpr size_t kLinesPerEvent = 64;

std::vector<std::string> labelNodes(const Truth& t)
{
    std::vector<std::string> nodes;
    if (!t.culpritNode.empty())
        nodes.push_back(t.culpritNode);
    for (const auto& n : t.alsoAcceptableNodes)
        if (std::find(nodes.begin(), nodes.end(), n) == nodes.end())
            nodes.push_back(n);
    return nodes;
}

bool isNameChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
}

// The bundle's nodes that a free-text culprit names as a whole word ("jean-zay-iam37", "r10i6n5 (10.148.3.247)").
std::vector<std::string> nodesNamedIn(const std::string& text, const std::set<std::string>& nodes)
{
    std::vector<std::string> out;
    for (const auto& n : nodes) {
        for (size_t at = text.find(n); at != std::string::npos; at = text.find(n, at + 1)) {
            const bool before = at == 0 || !isNameChar(text[at - 1]);
            const size_t end = at + n.size();
            const bool after = end == text.size() || !isNameChar(text[end]) ||
                               (text[end] == '.' && (end + 1 == text.size() || !isNameChar(text[end + 1])));
            if (before && after) {
                out.push_back(n);
                break;
            }
        }
    }
    return out;
}

struct Builder {
    const Analysis& a;
    const Result& r;
    present::EventRoles roles;
    present::WhyNot whyNot;
    std::map<std::pair<std::string, uint32_t>, EvidenceId> evidenceAt; // (file, line) -> evidence id

    explicit Builder(const Analysis& analysis)
        : a(analysis), r(analysis.result), roles(analysis.result), whyNot(analysis.result, roles)
    {
        for (const EvidenceItem& ev : r.evidence)
            evidenceAt.emplace(std::make_pair(ev.file, ev.ref.line), ev.id);
    }

    // The lines an event was read from, with what the key says of them.
    std::vector<KeyLine> linesOf(const SymptomEvent& e) const
    {
        std::vector<KeyLine> out;
        const SymptomDef* d = nullptr;
        const std::string title = eventTitle(a, e, &d);
        const std::string why = roles.isRoot(e.id) ? whyNot.whyRoot(e) : whyNot(e, d, title);
        for (ObservationId id : e.observations) {
            if (out.size() == kLinesPerEvent || id.value >= a.observations.size())
                break;
            const Observation& o = a.observations[id.value];
            if (o.ref.file.value >= a.bundle.files.size() || o.ref.line == 0)
                continue;
            KeyLine l;
            l.file = a.bundle.files[o.ref.file.value].path;
            l.line = o.ref.line;
            l.lineCount = std::max<uint32_t>(1, o.ref.lineCount);
            l.node = e.node;
            l.rank = e.rank;
            l.gpu = e.gpuIndex;
            l.symptom = e.symptom;
            l.title = title;
            if (auto it = evidenceAt.find({l.file, l.line}); it != evidenceAt.end())
                l.evidenceId = it->second;
            l.why = why;
            out.push_back(std::move(l));
        }
        return out;
    }
};

std::string engineBrief(const Result& r, const present::EventRoles& roles)
{
    std::vector<std::string> nodes;
    for (const SymptomEvent& e : r.events)
        if (roles.isRoot(e.id) && std::find(nodes.begin(), nodes.end(), e.node) == nodes.end())
            nodes.push_back(present::nodeName(e.node));
    return present::verdictBrief(r.status, r.domain, r.subDomain, nodes);
}

} // namespace

ExerciseKey buildKey(const Analysis& analysis, const Label& label, const std::string& bundle)
{
    const Result& r = analysis.result;
    Builder b(analysis);
    ExerciseKey key;
    key.bundle = bundle;
    key.label = label;
    key.engineStatus = r.status;
    key.engineDomain = r.domain;
    key.engineSubDomain = r.subDomain;

    std::set<std::string> bundleNodes;
    for (const SourceFile& f : analysis.bundle.files) {
        key.files.push_back({f.path, f.node, f.lines});
        if (!f.node.empty())
            bundleNodes.insert(f.node);
    }
    for (const SymptomEvent& e : r.events)
        if (!e.node.empty())
            bundleNodes.insert(e.node);

    // The nodes the label blames, and whether the engine's roots stand on them.
    std::vector<std::string> nodes;
    bool engineAgrees = false;
    if (label.truth) {
        const Truth& t = *label.truth;
        nodes = labelNodes(t);
        if (t.status == ResultStatus::Unattributed)
            key.noLine = present::noLineUnattributed(t.notes);
        else if (t.status == ResultStatus::Attributed)
            engineAgrees = r.status == ResultStatus::Attributed && r.domain == t.domain;
        else
            engineAgrees = r.status != ResultStatus::Unattributed;
    } else if (!label.culprit) {
        key.noLine = present::noLineNoCulprit();
    } else {
        nodes = nodesNamedIn(*label.culprit, bundleNodes);
        if (nodes.empty())
            key.noLine = present::noLineCulpritNotInBundle(*label.culprit);
        engineAgrees = r.status != ResultStatus::Unattributed;
    }
    key.rootNodes = nodes;

    // Roots first: a line that backs a root and another event (a merged repeat, a rewritten copy) is a root line.
    std::set<std::pair<std::string, uint32_t>> seen;
    auto isRootLine = [&](const SymptomEvent& e) {
        return b.roles.isRoot(e.id) && key.noLine.empty() && engineAgrees &&
               std::find(nodes.begin(), nodes.end(), e.node) != nodes.end();
    };
    for (const bool roots : {true, false})
        for (const SymptomEvent& e : r.events) {
            if (isRootLine(e) != roots)
                continue;
            for (KeyLine& l : b.linesOf(e)) {
                if (!seen.emplace(l.file, l.line).second)
                    continue;
                if (roots) {
                    key.root.push_back(std::move(l));
                    continue;
                }
                // Scoring needs only where the line is and why it is no cause (its words name it): a 10,000-rank
                // key holds ~80,000 of them.
                key.lines.push_back({std::move(l.file), l.line, l.lineCount, {}, -1, -1, {}, {}, {}, std::move(l.why)});
            }
        }
    std::set<std::string> coveredSymptoms;
    if (key.root.empty() && key.noLine.empty())
        key.noLine = present::noLineEngineDisagrees(engineBrief(r, b.roles), nodes);

    // Red herrings: what a learner might take for the cause. One line per symptom: the families that are neither
    // the cause nor downstream of it (sorted root first, so in the chain's order), then the candidates that lost.
    auto addHerring = [&](EventId id) {
        if (id.value >= r.events.size())
            return;
        const SymptomEvent& e = r.events[id.value];
        if (e.id != id || b.roles.isRoot(e.id) || !coveredSymptoms.insert(e.symptom).second)
            return;
        std::vector<KeyLine> lines = b.linesOf(e);
        if (!lines.empty())
            key.redHerrings.push_back(lines.front());
    };
    for (const SymptomFamily& f : r.families)
        if ((f.role == EvidenceRole::Interesting || f.role == EvidenceRole::Context) && !f.representatives.empty())
            addHerring(f.representatives.front());
    for (const Candidate& c : r.candidates)
        if (!c.chosen && !c.outcome.tied())
            addHerring(c.event);
    return key;
}

} // namespace fl::exercise

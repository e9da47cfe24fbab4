// REPORT: turns the decided events into what a reviewer reads — evidence with
// roles and raw references, coverage per file, affected nodes, what is
// missing, and a one-sentence summary.
#include "bundle/mapped_file.h"
#include "engine/families.h"
#include "engine/internal.h"
#include "present/role.h"
#include "present/summary.h"
#include "present/timefmt.h"
#include "present/verdict.h"
#include "present/would_decide.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>
#include <variant>

namespace fl::detail {

namespace {

constexpr size_t kExcerptBytes = 2048;

// The kept text of a line that cannot be read at its place any more (kernel
// and syslog lines keep one), else why it cannot.
std::string unreadable(const Observation& o, std::string_view why)
{
    return o.text.empty() ? "(line not readable: " + std::string(why) + ")" : o.text;
}

std::string excerptOf(const State& state, const Observation& o, std::map<FileId, MappedFile>& maps)
{
    auto it = maps.find(o.ref.file);
    if (it == maps.end()) {
        if (o.ref.file.value >= state.files.size())
            return unreadable(o, "no such file in the bundle");
        MappedFile m;
        std::string err;
        if (!openSource(m, state.files[o.ref.file.value], &err))
            return unreadable(o, err);
        it = maps.emplace(o.ref.file, std::move(m)).first;
    }
    std::string_view data = it->second.data();
    if (o.ref.offset >= data.size())
        return unreadable(o, "the file is shorter than when it was scanned");
    std::string_view s = data.substr(o.ref.offset, std::min<size_t>(o.ref.length, kExcerptBytes));
    std::string out(s);
    if (o.ref.length > kExcerptBytes)
        out += " …";
    return out;
}

// What an evidence item shows: a line the engine read (an observation), or the
// absence of any line (an absent_ranks event whose ranks left none, shown by
// their log file). Distinct alternatives: an absence can never be taken for an
// observation, whatever the counts of either.
struct AbsenceOf {
    EventId event;
    friend bool operator<(AbsenceOf a, AbsenceOf b) { return a.event < b.event; }
    friend bool operator==(AbsenceOf a, AbsenceOf b) { return a.event == b.event; }
};
using EvidenceSource = std::variant<ObservationId, AbsenceOf>;
using SourcedItems = std::vector<std::pair<EvidenceItem, EvidenceSource>>;

// Per event: the roots it is downstream of (ascending), for its family's cause.
std::vector<std::vector<EventId>> rootsOfEvents(const std::vector<ChainEdge>& edges, const std::set<EventId>& roots,
                                                size_t eventCount)
{
    std::vector<std::vector<EventId>> rootsOf(eventCount);
    std::map<EventId, std::vector<EventId>> children;
    for (const auto& e : edges)
        children[e.from].push_back(e.to);
    for (EventId root : roots) {
        std::set<EventId> reached;
        std::vector<EventId> stack{root};
        while (!stack.empty()) {
            EventId id = stack.back();
            stack.pop_back();
            if (auto it = children.find(id); it != children.end())
                for (EventId to : it->second)
                    if (!roots.count(to) && reached.insert(to).second)
                        stack.push_back(to);
        }
        for (EventId id : reached)
            if (id.value < rootsOf.size())
                rootsOf[id.value].push_back(root); // ascending: roots is a set
    }
    return rootsOf;
}

FamilyInputs familyInputsOf(const RuleSet& rules, const std::vector<SymptomEvent>& events,
                            const std::vector<ChainEdge>& edges, const present::EventRoles& roleOf)
{
    FamilyInputs in;
    in.rootsOf = rootsOfEvents(edges, roleOf.roots(), events.size());
    in.roles.reserve(events.size());
    in.titles.reserve(events.size());
    // A wide job's ~80,000 events carry a few dozen symptoms: each is looked up in the rule set once.
    std::unordered_map<std::string_view, std::string_view> titleOf;
    for (const auto& e : events) {
        in.roles.push_back(roleOf(e));
        auto [it, fresh] = titleOf.try_emplace(e.symptom.str());
        if (fresh)
            if (const SymptomDef* def = rules.symptom(e.symptom.str()))
                it->second = def->title;
        in.titles.push_back(it->second);
    }
    return in;
}

// The observation an evidence item shows, with the strongest role of the events it backs.
struct Pick {
    EvidenceRole role = EvidenceRole::Context;
    EventId event;
    bool set = false;
};

// One pick per observation kept: per symptom, the strongest and earliest lines
// up to its cap (max_evidence_per_symptom, or a rule's max_evidence); the
// families' representatives and the root's lines always. Counts what was left
// out in result.evidenceOmitted.
std::map<ObservationId, Pick> pickEvidence(const State& state, const std::vector<SymptomEvent>& events,
                                           const std::vector<EvidenceRole>& roles, Result& result)
{
    std::set<ObservationId> representativeObs;
    for (const auto& f : result.families)
        for (EventId id : f.representatives)
            if (!events[id.value].observations.empty())
                representativeObs.insert(events[id.value].observations.front());

    std::map<ObservationId, Pick> picks;
    const int defaultCap = static_cast<int>(state.rules->setting("max_evidence_per_symptom", 20.0));
    // Each line's sort key is read once: its event's role (familyInputs' roles,
    // by event id) and its observation's time. The comparison is the one it
    // always was, so equal keys keep the order they had.
    struct Line {
        int priority;
        int64_t timeNs;
        ObservationId obs;
        const SymptomEvent* event;
    };
    std::map<std::string, std::vector<Line>> bySymptom;
    for (const auto& e : events) {
        const int priority = present::rolePriority(roles[e.id.value]);
        for (ObservationId obs : e.observations)
            bySymptom[e.symptom].push_back({priority, state.observations[obs.value].time.ns, obs, &e});
    }
    for (auto& [symptom, list] : bySymptom) {
        std::sort(list.begin(), list.end(), [](const Line& a, const Line& b) {
            if (a.priority != b.priority)
                return a.priority > b.priority;
            return std::tie(a.timeNs, a.obs) < std::tie(b.timeNs, b.obs);
        });
        int cap = defaultCap;
        uint32_t kept = 0, omitted = 0;
        for (const Line& line : list) {
            const SymptomEvent* e = line.event;
            const ObservationId obs = line.obs;
            if (e->maxEvidence)
                cap = *e->maxEvidence;
            const EvidenceRole role = roles[e->id.value];
            if (role != EvidenceRole::Root && static_cast<int>(kept) >= cap && !representativeObs.count(obs)) {
                ++omitted;
                continue;
            }
            ++kept;
            Pick& p = picks[obs];
            // Equal roles: the line is shown as what a rule that can name a cause read it as
            // (bad_node), not as the context a catch-all table gave it (rules/nccl-warn-files.jsonc).
            const bool strongerKind = p.set && present::rolePriority(role) == present::rolePriority(p.role) &&
                                      e->kind == EventKind::BadNode && events[p.event.value].kind != EventKind::BadNode;
            if (!p.set || present::rolePriority(role) > present::rolePriority(p.role) || strongerKind) {
                p.role = role;
                p.event = e->id;
                p.set = true;
            }
        }
        if (omitted)
            result.evidenceOmitted[symptom] = omitted;
    }
    return picks;
}

EvidenceItem observationItem(const State& state, ObservationId obsId, const Pick& pick,
                             const std::vector<SymptomEvent>& events, std::map<FileId, MappedFile>& maps)
{
    const Observation& o = state.observations[obsId.value];
    const SymptomEvent& e = events[pick.event.value];
    EvidenceItem item;
    item.kind = o.source == SourceKind::Scheduler ? EvidenceKind::Scheduler
                : o.source == SourceKind::Metrics ? EvidenceKind::Metric
                                                  : EvidenceKind::Log;
    item.source = o.source;
    item.file = o.ref.file.value < state.files.size() ? state.files[o.ref.file.value].path : std::string();
    item.ref = o.ref;
    if (o.source == SourceKind::Metrics)
        item.series = o.text;
    item.node = o.node.empty() ? e.node : o.node;
    item.rank = o.rank;
    item.gpuIndex = o.gpuIndex >= 0 ? o.gpuIndex : e.gpuIndex;
    item.time = {o.time.ns, o.time.basis, {}}; // an evidence item keeps no interval (result-schema.md)
    item.excerpt = excerptOf(state, o, maps);
    // An absence (absent_ranks) points at the last line the rank logged:
    // the excerpt says what was missing, then shows that line.
    if (auto it = e.fields.find("absent"); it != e.fields.end())
        item.excerpt = "absent: " + it->second + "; last line it logged: " + item.excerpt;
    item.role = pick.role;
    item.symptom = e.symptom;
    item.event = e.id;
    return item;
}

// An absence whose ranks left no observation points at their log file (or
// the manifest that lists them): the evidence is what is not there.
std::optional<EvidenceItem> absenceItem(const State& state, const SymptomEvent& e, EvidenceRole role)
{
    auto a = e.fields.find("absent");
    if (!e.absentFile || a == e.fields.end() || !e.observations.empty() || e.suppressed)
        return std::nullopt;
    const FileId file = *e.absentFile;
    if (file.value >= state.files.size())
        return std::nullopt;
    const SourceFile& sf = state.files[file.value];
    EvidenceItem item;
    item.kind = EvidenceKind::Log;
    item.source = sf.kind;
    item.file = sf.path;
    item.ref.file = file;
    item.ref.line = sf.kind == SourceKind::Manifest ? 0 : static_cast<uint32_t>(sf.lines);
    item.ref.length = 0;
    item.node = e.node;
    item.rank = e.rank;
    item.gpuIndex = e.gpuIndex;
    item.time = {e.time.ns, e.time.basis, {}};
    item.excerpt = "absent: " + a->second +
                   (sf.kind == SourceKind::Manifest ? " (the manifest lists the rank; no line of it was read)"
                                                    : " (its log ends before any report of it)");
    item.role = role;
    item.symptom = e.symptom;
    item.event = e.id;
    return item;
}

// Every evidence item, in time order, numbered "ev-00001"...; returns each source's id.
std::map<EvidenceSource, EvidenceId> numberEvidence(SourcedItems& items)
{
    std::sort(items.begin(), items.end(), [](const auto& x, const auto& y) {
        const EvidenceItem& a = x.first;
        const EvidenceItem& b = y.first;
        return std::tie(a.time.ns, a.file, a.ref.offset) < std::tie(b.time.ns, b.file, b.ref.offset);
    });
    std::map<EvidenceSource, EvidenceId> idOf;
    for (size_t i = 0; i < items.size(); ++i) {
        const EvidenceId id(static_cast<uint32_t>(i));
        items[i].first.id = id;
        idOf[items[i].second] = id;
    }
    return idOf;
}

// The evidence ids of the root cause, the candidates and each family's representatives.
void linkEvidence(const std::vector<SymptomEvent>& events, const std::map<EvidenceSource, EvidenceId>& idOf,
                  Result& result)
{
    std::map<EventId, std::vector<EvidenceId>> evidenceOfEvent;
    for (const auto& [source, id] : idOf)
        if (const auto* absence = std::get_if<AbsenceOf>(&source))
            evidenceOfEvent[absence->event].push_back(id);
    for (const auto& e : events)
        for (ObservationId obs : e.observations)
            if (auto it = idOf.find(obs); it != idOf.end()) {
                auto& ids = evidenceOfEvent[e.id];
                if (std::find(ids.begin(), ids.end(), it->second) == ids.end())
                    ids.push_back(it->second);
            }
    if (result.rootCause)
        result.rootCause->evidence = evidenceOfEvent[result.rootCause->event];
    for (auto& c : result.candidates)
        c.evidence = evidenceOfEvent[c.event];
    for (auto& f : result.families)
        for (EventId id : f.representatives) {
            const auto& ids = evidenceOfEvent[id];
            // An event's own primary line first; absences have their absence item.
            std::optional<EvidenceId> pick;
            if (!events[id.value].observations.empty())
                if (auto it = idOf.find(events[id.value].observations.front()); it != idOf.end())
                    pick = it->second;
            if (!pick && !ids.empty())
                pick = ids.front();
            if (pick && std::find(f.evidence.begin(), f.evidence.end(), *pick) == f.evidence.end())
                f.evidence.push_back(*pick);
        }
}

// result.evidence: the picked lines and the absences, numbered, each with its family.
void buildEvidence(const State& state, const std::vector<SymptomEvent>& events, const std::vector<EvidenceRole>& roles,
                   Result& result)
{
    const std::map<ObservationId, Pick> picks = pickEvidence(state, events, roles, result);
    std::map<FileId, MappedFile> maps;
    SourcedItems items;
    for (const auto& [obsId, pick] : picks)
        items.emplace_back(observationItem(state, obsId, pick, events, maps), obsId);
    for (const auto& e : events)
        if (auto item = absenceItem(state, e, roles[e.id.value]))
            items.emplace_back(std::move(*item), AbsenceOf{e.id});
    linkEvidence(events, numberEvidence(items), result);

    std::vector<FamilyId> familyOfEvent(events.size());
    for (size_t i = 0; i < result.families.size(); ++i)
        for (EventId id : result.families[i].events)
            familyOfEvent[id.value] = FamilyId(static_cast<uint32_t>(i));
    for (auto& [item, source] : items) {
        if (item.event.value < familyOfEvent.size() && !result.families.empty())
            item.family = familyOfEvent[item.event.value];
        result.evidence.push_back(std::move(item));
    }
}

// A failure event: not suppressed, on a bad node, not merely informational
// (a benign Xid 63 does not make its node affected).
bool isFailure(const State& state, const SymptomEvent& e)
{
    return !e.suppressed && e.kind == EventKind::BadNode && effectiveRole(state, e) != SymptomRole::Informational;
}

std::vector<std::string> affectedNodes(const State& state, const std::vector<SymptomEvent>& events)
{
    std::set<std::string> affected;
    for (const auto& e : events)
        if (isFailure(state, e) && !e.node.empty())
            affected.insert(e.node);
    return {affected.begin(), affected.end()};
}

// result.connectors, one per file, and what the files say is missing:
// kernel logs (overall or per node), scheduler records, application logs.
present::MissingFacts coverage(const State& state, Result& result)
{
    std::set<SourceKind> kindsRead;
    std::set<std::string> nodesWithSyslog, nodesSeen;
    for (const auto& f : state.files) {
        ConnectorReport c;
        c.file = f.path;
        c.kind = f.kind;
        c.kindReason = f.kindReason;
        c.node = f.node;
        c.rank = f.rank;
        c.status = f.status;
        c.reason = f.statusReason;
        c.bytes = f.size;
        c.lines = f.lines;
        c.observations = f.observations;
        c.parseErrors = f.parseErrors;
        result.connectors.push_back(std::move(c));
        if (f.status == FileStatus::Ok) {
            kindsRead.insert(f.kind);
            if (f.kind == SourceKind::SysLog && !f.node.empty())
                nodesWithSyslog.insert(f.node);
        }
        if (!f.node.empty() && f.kind != SourceKind::Manifest)
            nodesSeen.insert(f.node);
    }
    if (state.manifest)
        for (const auto& n : state.manifest->nodes)
            nodesSeen.insert(n);

    present::MissingFacts missing;
    missing.kernelLogs = !kindsRead.count(SourceKind::SysLog);
    if (!missing.kernelLogs) {
        for (const auto& n : nodesSeen)
            if (!nodesWithSyslog.count(n))
                missing.nodesWithoutKernelLogs.push_back(n);
        missing.nodesWithoutKernelLogsCount = missing.nodesWithoutKernelLogs.size();
        if (missing.nodesWithoutKernelLogs.size() > 16)
            missing.nodesWithoutKernelLogs.clear();  // too many to name: counted
    }
    missing.schedulerRecords = !kindsRead.count(SourceKind::Scheduler);
    missing.applicationLogs = !kindsRead.count(SourceKind::AppLog);
    return missing;
}

// Without an initiating event, what was found instead: each symptom and on how many places.
void addUnattributedFacts(const std::vector<SymptomEvent>& events, present::MissingFacts& missing)
{
    missing.initiatingEvent = true;
    std::map<std::string, std::set<std::string>> seenSymptoms;
    for (const auto& e : events)
        if (!e.suppressed)
            seenSymptoms[e.symptom].insert(e.node + "#" + std::to_string(e.rank));
    for (const auto& [symptom, where] : seenSymptoms)
        missing.foundInstead.emplace_back(symptom, where.size());
}

// Unattributed with a dated onset: the ranks that did not wait and the nodes to look at.
present::OnsetFacts onsetFacts(const State& state, const std::vector<SymptomEvent>& events, const Result& result,
                               const HangOnset& onset)
{
    present::OnsetFacts f;
    f.estimateNs = onset.estimateNs;
    f.byMetrics = present::onsetByMetrics(onset, result.evidence);
    f.symptoms = onset.symptoms;
    for (const Candidate& c : result.candidates)
        f.laterInitiators += c.outcome.reason == CandidateReason::AfterOnset;
    std::set<int> waited;
    for (EventId id : onset.events)
        if (events[id.value].rank >= 0)
            waited.insert(events[id.value].rank);
    std::set<std::string> nodes(onset.nodes.begin(), onset.nodes.end()), quietNodes;
    if (state.manifest && !waited.empty())
        for (const auto& [rank, where] : state.manifest->ranks) {
            if (waited.count(rank))
                continue;
            if (!f.quietRanks.empty() && f.quietRanks.back().last == rank - 1)
                f.quietRanks.back().last = rank;
            else
                f.quietRanks.push_back({rank, rank});
            if (!where.node.empty())
                quietNodes.insert(where.node);
        }
    nodes.insert(quietNodes.begin(), quietNodes.end());
    f.quietNodes.assign(quietNodes.begin(), quietNodes.end());
    f.nodeCount = nodes.size();
    for (const auto& n : nodes)
        if (f.nodes.size() < 16)
            f.nodes.push_back(n);
    return f;
}

// The summary's counts: the root's downstream symptoms, and the other failures
// the rules did not link to it (said, not hidden).
present::SummaryCounts summaryCounts(const State& state, const std::vector<SymptomEvent>& events,
                                     const present::EventRoles& roleOf)
{
    present::SummaryCounts counts;
    counts.downstream = roleOf.downstream().size();
    std::set<std::string> symptomNodes;
    for (EventId id : roleOf.downstream())
        if (!events[id.value].node.empty())
            symptomNodes.insert(events[id.value].node);
    counts.downstreamNodes = symptomNodes.size();
    std::set<std::string> otherNodes;
    for (const auto& e : events)
        if (isFailure(state, e) && !roleOf.isRoot(e.id) && !roleOf.isDownstream(e.id)) {
            ++counts.otherErrors;
            if (!e.node.empty())
                otherNodes.insert(e.node);
        }
    counts.otherErrorNodes = otherNodes.size();
    return counts;
}

} // namespace

void buildReport(const State& state, std::vector<SymptomEvent>& events, const std::vector<ChainEdge>& edges,
                 std::vector<RuleFiring>& fired, Result& result, std::vector<TraceStep>* trace)
{
    (void)fired;
    // Events downstream of the root (or of the tied candidates) are its symptoms.
    const present::EventRoles roleOf(result, edges);

    // The compact chain: one node per family. Its representatives' lines are
    // always evidence, whatever the per-symptom cap.
    // Every event's role is computed once (familyInputs.roles, by event id)
    // and read by the families and the evidence alike.
    const FamilyInputs familyInputs = familyInputsOf(*state.rules, events, edges, roleOf);
    buildFamilies(events, edges, familyInputs, result);
    buildEvidence(state, events, familyInputs.roles, result);
    result.affectedNodes = affectedNodes(state, events);

    // What is missing: said for every verdict, essential for "unattributed".
    present::MissingFacts missing = coverage(state, result);
    if (result.status == ResultStatus::Unattributed) {
        addUnattributedFacts(events, missing);
        if (result.onset)
            missing.onset = onsetFacts(state, events, result, *result.onset);
    }
    result.missing = present::missingEvidence(missing);
    // What would order the tied candidates comes first: it is what decides an ambiguous verdict (issue #45).
    const std::vector<std::string> deciding = present::wouldDecideLines(result);
    result.missing.insert(result.missing.begin(), deciding.begin(), deciding.end());

    const std::set<EventId>& roots = roleOf.roots();
    result.summary = present::summary(result, {roots.begin(), roots.end()}, summaryCounts(state, events, roleOf), missing);
    if (trace)
        trace->push_back({Phase::Report, "engine", TraceAction::Reported, {},
                          std::to_string(result.evidence.size()) + " evidence items, " +
                              std::to_string(result.connectors.size()) + " files", {}});
}

} // namespace fl::detail

#include "engine/engine.h"
#include "engine/datadir.h"

#include "engine/internal.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <set>
#include <string_view>

namespace fl {

struct Engine::Impl {
    detail::State state;
};

Engine::Engine(std::shared_ptr<const RuleSet> rules) : d(std::make_unique<Impl>())
{
    d->state.rules = std::move(rules);
}

Engine::~Engine() = default;

void Engine::setKeepMetricSamples(bool keep)
{
    d->state.keepMetricSamples = keep;
}

void Engine::setKeepMetricSeries(bool keep)
{
    d->state.keepMetricSeries = keep;
}

void Engine::setThreads(unsigned threads)
{
    d->state.threads = threads;
}

void Engine::ingest(const Bundle& bundle, const Progress& progress)
{
    detail::scanBundle(d->state, bundle, progress);
}

namespace {

// The phases work on `events` in place and the result keeps them: the caller
// passes a copy when it may attribute again, the extracted events themselves
// when it will not (analyze), so a 10,000-rank bundle's events are held once.
Result attributeEvents(const detail::State& st, std::vector<SymptomEvent> events, std::vector<TraceStep>* trace)
{
    Result result;
    result.engineVersion = FAULTLINE_VERSION;
    result.rulesDigest = st.rules->digest();
    result.rulesSources = st.rules->sources();
    result.warnings = st.warnings;
    if (st.manifest) {
        result.workloadId = st.manifest->workloadId;
        result.attempt = st.manifest->attempt;
        result.windowStartNs = st.manifest->windowStartNs;
        result.windowEndNs = st.manifest->windowEndNs;
    }

    std::vector<ChainEdge> edges;
    std::vector<RuleFiring> fired;

    // What EXTRACT produced, per rule, so the explanation starts at the beginning.
    std::map<std::string, uint32_t> extractedBy;
    for (const auto& e : events)
        ++extractedBy[e.extractedBy];
    for (const auto& [rule, n] : extractedBy) {
        fired.push_back({rule, "extract", "extracted", n});
        if (trace) {
            std::vector<EventId> ids;
            for (const auto& e : events)
                if (e.extractedBy == rule && ids.size() < 200)
                    ids.push_back(e.id);
            trace->push_back({"extract", rule, TraceAction::Extracted, ids, std::to_string(n) + " events", {}});
        }
    }

    detail::PhaseIndexes indexes;
    for (Phase p : {Phase::FilterEarly, Phase::Filter, Phase::FilterLate, Phase::RefineEarly, Phase::Refine,
                    Phase::RefineFinal})
        detail::runPhase(st, p, events, edges, fired, trace, indexes);
    detail::computeOutcome(st, events, edges, result, trace);
    detail::runPhase(st, Phase::PostOutcome, events, edges, fired, trace, indexes);
    detail::runPhase(st, Phase::Report, events, edges, fired, trace, indexes);
    detail::buildReport(st, events, edges, fired, result, trace);

    std::sort(edges.begin(), edges.end(), [](const ChainEdge& a, const ChainEdge& b) {
        return std::tie(a.from, a.to, a.rule) < std::tie(b.from, b.to, b.rule);
    });
    result.events = std::move(events);
    result.edges = std::move(edges);
    result.rulesFired = std::move(fired);
    return result;
}

// Room for what absent_ranks rules emit (at most one event per node and rule),
// so the working vector does not double its capacity for a handful of events.
size_t eventCapacity(const detail::State& st)
{
    size_t n = st.extracted.size();
    if (st.manifest) {
        std::set<std::string_view> nodes;
        for (const auto& [rank, place] : st.manifest->ranks)
            nodes.insert(place.node);
        size_t absentRules = 0;
        for (const Rule& r : st.rules->rules())
            absentRules += r.absentRanks ? 1 : 0;
        n += nodes.size() * absentRules;
    }
    return n;
}

} // namespace

Result Engine::attribute(std::vector<TraceStep>* trace) const
{
    const detail::State& st = d->state;
    std::vector<SymptomEvent> events;
    events.reserve(eventCapacity(st));
    events.insert(events.end(), st.extracted.begin(), st.extracted.end());
    return attributeEvents(st, std::move(events), trace);
}

Result Engine::attributeOnce(std::vector<TraceStep>* trace)
{
    detail::State& st = d->state;
    const size_t capacity = eventCapacity(st);
    std::vector<SymptomEvent> events = std::move(st.extracted);
    st.extracted = {};
    events.reserve(capacity);
    return attributeEvents(st, std::move(events), trace);
}

const std::vector<Observation>& Engine::observations() const { return d->state.observations; }
const std::vector<MetricSeries>& Engine::metrics() const { return d->state.metrics; }
const std::vector<SourceFile>& Engine::files() const { return d->state.files; }
const Placement& Engine::placement() const { return d->state.placement; }

std::shared_ptr<const RuleSet> loadRulesFor(const AnalyzeOptions& options)
{
    namespace fs = std::filesystem;
    auto rules = std::make_shared<RuleSet>();
    std::string shipped = options.shippedRulesDir;
    if (shipped.empty())
        shipped = defaultShippedRulesDir();
    rules->loadDirectory(shipped);
    if (options.userConfigRules) {
        std::string base;
        if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
            base = xdg;
        else if (const char* home = std::getenv("HOME"); home && *home)
            base = std::string(home) + "/.config";
        std::error_code ec;
        if (!base.empty() && fs::is_directory(base + "/faultline/rules", ec))
            rules->loadDirectory(base + "/faultline/rules");
    }
    for (const auto& dir : options.ruleDirs)
        rules->loadDirectory(dir);
    rules->compile();
    return rules;
}

Analysis analyze(const std::string& bundlePath, const AnalyzeOptions& options, const Progress& progress)
{
    using Clock = std::chrono::steady_clock;
    Analysis a;
    auto t = Clock::now();
    auto stage = [&](const char* name) {
        const auto now = Clock::now();
        a.stageMs.emplace_back(name, std::chrono::duration<double, std::milli>(now - t).count());
        t = now;
    };
    // The rules compile on a thread of their own while the bundle's files are
    // listed and probed: neither needs the other, and on 2 cores the listing
    // leaves one idle. The "rules" stage is what is left of their compile
    // once the bundle is loaded.
    auto compiled = std::async(std::launch::async, [&options] { return loadRulesFor(options); });
    try {
        a.bundle = loadBundle(bundlePath, options.load, progress);
    } catch (...) {
        compiled.get(); // a rule error is told first, as when the rules loaded before the bundle
        throw;
    }
    stage("load");
    auto rules = compiled.get();
    stage("rules");
    // The engine's state is used once here, so its parts are moved into the
    // analysis, not copied (Engine keeps them for another attribute()).
    detail::State st;
    st.rules = rules;
    st.keepMetricSamples = options.keepMetricSamples;
    st.keepMetricSeries = options.keepMetricSeries;
    detail::scanBundle(st, a.bundle, progress);
    st.appLogs = {}; // placement is built: nobody reads them again
    a.bundle.files = {}; // st.files holds them, with what the scan found; they come back below
    stage("scan");
    a.cancelled = progress.cancelled();
    const size_t capacity = eventCapacity(st);
    std::vector<SymptomEvent> events = std::move(st.extracted);
    st.extracted = {};
    events.reserve(capacity);
    a.result = attributeEvents(st, std::move(events), options.keepTrace ? &a.trace : nullptr);
    stage("attribute");
    a.observations = std::move(st.observations);
    a.metrics = std::move(st.metrics);
    a.placement = std::move(st.placement);
    a.rules = std::move(rules);
    a.bundle.files = std::move(st.files); // with scan results (lines, status, times)
    return a;
}

} // namespace fl

#include "collect/collect.h"

#include "collect/sources.h"
#include "present/timefmt.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace fl::collect {

namespace {

using Clock = std::chrono::steady_clock;

std::string shortHostName()
{
    char buf[256] = {};
    ::gethostname(buf, sizeof buf - 1);
    std::string h = buf;
    return h.substr(0, h.find('.'));
}

std::chrono::milliseconds timeoutOf(const CollectOptions& o, const std::string& source)
{
    auto it = o.timeouts.find(source);
    return it == o.timeouts.end() ? o.defaultTimeout : it->second;
}

// Runs `tasks` on up to `parallel` threads; each task gets its own deadline
// when it starts, so a slow node delays only its own report.
void runPool(std::vector<std::function<void()>>& tasks, unsigned parallel)
{
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i; (i = next.fetch_add(1)) < tasks.size();)
            tasks[i]();
    };
    std::vector<std::thread> threads;
    const unsigned n = std::max(1u, std::min<unsigned>(parallel, static_cast<unsigned>(tasks.size())));
    for (unsigned t = 1; t < n; ++t)
        threads.emplace_back(worker);
    worker();
    for (auto& t : threads)
        t.join();
}

void prepareOutDir(const std::string& dir)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (dir.empty())
        throw std::runtime_error("--out: which folder?");
    if (fs::exists(fs::symlink_status(dir, ec))) {
        if (!fs::is_directory(fs::symlink_status(dir)))
            throw std::runtime_error(dir + ": exists and is not a folder");
        if (!fs::is_empty(dir, ec))
            throw std::runtime_error(dir + ": folder is not empty (collect writes a new bundle)");
        return;
    }
    if (!fs::create_directories(dir, ec) && ec)
        throw std::runtime_error(dir + ": cannot create: " + ec.message());
}

} // namespace

std::string_view toString(SourceStatus s)
{
    switch (s) {
    case SourceStatus::Ok:
        return "ok";
    case SourceStatus::Empty:
        return "empty";
    case SourceStatus::Error:
        return "error";
    }
    return "error";
}

CollectResult collect(const Scope& scope, const CollectOptions& optionsIn)
{
    CollectOptions options = optionsIn;
    if (options.localHost.empty())
        options.localHost = shortHostName();
    prepareOutDir(options.outDir);
    BundleWriter writer(options.outDir);
    CollectResult result;
    result.fromNs = options.fromNs;
    result.toNs = options.toNs;
    const auto nowNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
    if (result.toNs == kNoTime)
        result.toNs = scope.endNs != kNoTime ? scope.endNs + 60'000'000'000 : nowNs;
    if (result.fromNs == kNoTime)
        result.fromNs = scope.startNs != kNoTime ? scope.startNs - 300'000'000'000 : result.toNs - 3600'000'000'000;

    std::vector<SourceReport> reports;
    std::mutex reportsMutex;
    auto add = [&](SourceReport r, Clock::time_point began) {
        r.ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - began).count();
        std::lock_guard lock(reportsMutex);
        reports.push_back(std::move(r));
    };

    // What the scheduler said is evidence too.
    for (const auto& [path, bytes] : scope.records) {
        std::string error;
        const std::string rel = writer.reserve({path});
        const bool ok = !rel.empty() && writer.write(rel, bytes, error);
        add({"scheduler", "", ok ? SourceStatus::Ok : SourceStatus::Error, ok ? path : error, ok ? std::vector{rel} : std::vector<std::string>{},
             ok ? bytes.size() : 0, 0},
            Clock::now());
    }

    std::vector<std::string> nodes;
    for (const auto& n : scope.nodes) {
        if (safeNodeName(n))
            nodes.push_back(n);
        else
            add({"scope", n.substr(0, 80), SourceStatus::Error, "node name refused (not a host name): nothing collected for it", {}, 0, 0},
                Clock::now());
    }
    Scope safeScope = scope;
    safeScope.nodes = nodes;

    // One thread per source; inside it, a pool over the nodes.
    std::vector<std::function<void()>> sources;
    auto perNode = [&](const std::string& name, std::function<SourceReport(const SourceContext&, const std::string&)> fn) {
        sources.push_back([&, name, fn] {
            std::vector<std::function<void()>> tasks;
            for (const auto& node : nodes)
                tasks.push_back([&, node] {
                    const auto began = Clock::now();
                    SourceContext ctx{safeScope, options, writer, result.fromNs, result.toNs,
                                      began + timeoutOf(options, name)};
                    add(fn(ctx, node), began);
                });
            runPool(tasks, options.parallel);
        });
    };
    if (!options.fileTemplates.empty())
        perNode("files", collectFiles);
    if (options.journal)
        perNode("journal", collectJournal);
    if (!options.lokiUrl.empty())
        perNode("loki", collectLoki);
    if (!options.prometheusUrl.empty())
        sources.push_back([&] {
            const auto began = Clock::now();
            SourceContext ctx{safeScope, options, writer, result.fromNs, result.toNs,
                              began + timeoutOf(options, "prometheus")};
            for (auto& r : collectPrometheus(ctx))
                add(std::move(r), began);
        });
    if (options.podLogs && scope.scheduler == "kubernetes" && !scope.steps.empty())
        sources.push_back([&] {
            std::vector<std::function<void()>> tasks;
            for (const auto& pod : safeScope.steps)
                tasks.push_back([&] {
                    const auto began = Clock::now();
                    SourceContext ctx{safeScope, options, writer, result.fromNs, result.toNs,
                                      began + timeoutOf(options, "pod-logs")};
                    add(collectPodLog(ctx, pod), began);
                });
            runPool(tasks, options.parallel);
        });
    if (!scope.outputFiles.empty())
        sources.push_back([&] {
            const auto began = Clock::now();
            SourceContext ctx{safeScope, options, writer, result.fromNs, result.toNs,
                              began + timeoutOf(options, "files")};
            add(collectOutputFiles(ctx), began);
        });
    std::vector<std::thread> threads;
    for (auto& s : sources)
        threads.emplace_back(s);
    for (auto& t : threads)
        t.join();

    std::sort(reports.begin(), reports.end(), [](const SourceReport& a, const SourceReport& b) {
        return std::tie(a.source, a.node) < std::tie(b.source, b.node);
    });
    result.reports = std::move(reports);
    std::string error;
    if (!writer.write("workload.json", manifestJson(safeScope, result), error))
        throw std::runtime_error(error);
    return result;
}

std::string manifestJson(const Scope& scope, const CollectResult& result)
{
    using nlohmann::json;
    json m = json::object();
    if (!scope.workloadId.empty())
        m["workload_id"] = scope.workloadId;
    if (scope.attempt >= 0)
        m["attempt"] = scope.attempt;
    m["scheduler"] = scope.scheduler;
    m["nodes"] = scope.nodes;
    if (!scope.rankNodes.empty()) {
        json ranks = json::object();
        for (const auto& [r, n] : scope.rankNodes)
            ranks[std::to_string(r)] = {{"node", n}};
        m["ranks"] = ranks;
    }
    const int64_t start = scope.startNs != kNoTime ? scope.startNs : result.fromNs;
    const int64_t end = scope.endNs != kNoTime ? scope.endNs : result.toNs;
    if (start != kNoTime && end != kNoTime && end >= start)
        m["window"] = {{"start", formatTimeUtc(start)}, {"end", formatTimeUtc(end)}};
    json failure = json::object();
    if (scope.endNs != kNoTime && scope.scheduler != "manual")
        failure["detected_at"] = formatTimeUtc(scope.endNs);
    if (!scope.state.empty())
        failure["detection_signal"] = scope.scheduler + " job state " + scope.state
            + (scope.reason.empty() ? "" : " (" + scope.reason + ")");
    if (!scope.exitCodes.empty())
        failure["exit_codes"] = scope.exitCodes;
    // A workload the scheduler says succeeded had no failure to detect: without this block the engine does not
    // call its outcome "failed".
    if (!failure.empty() && !scope.succeeded)
        m["failure"] = failure;
    // Not read by the loader: what collect did, for people and for the service.
    json sources = json::array();
    for (const auto& r : result.reports)
        sources.push_back({{"source", r.source},
                           {"node", r.node},
                           {"status", std::string(toString(r.status))},
                           {"reason", r.reason},
                           {"files", r.files},
                           {"bytes", r.bytes},
                           {"ms", r.ms}});
    json steps = json::array();
    for (const auto& s : scope.steps)
        steps.push_back({{"id", s.id}, {"name", s.name}, {"state", s.state}, {"exit_code", s.exitCode}, {"nodes", s.nodes}});
    m["collection"] = {{"window", {{"start", formatTimeUtc(result.fromNs)}, {"end", formatTimeUtc(result.toNs)}}},
                       {"collector", std::string("faultline-cli collect ") + FAULTLINE_VERSION},
                       {"scope_notes", scope.notes},
                       {"steps", steps},
                       {"sources", sources}};
    return m.dump(2) + "\n";
}

void addSourceReports(Result& result, const std::vector<SourceReport>& reports)
{
    for (const auto& r : reports) {
        ConnectorReport c;
        c.file = "collect:" + r.source + (r.node.empty() ? "" : "/" + r.node);
        c.kind = r.source == "journal"                            ? SourceKind::SysLog
                 : r.source == "prometheus"                       ? SourceKind::Metrics
                 : r.source == "scheduler" || r.source == "scope" ? SourceKind::Scheduler
                 : r.source == "slurm-output" || r.source == "pod-logs" ? SourceKind::AppLog
                                                                  : SourceKind::Unknown;
        c.kindReason = "collect source '" + r.source + "'";
        c.node = r.node;
        c.status = r.status == SourceStatus::Ok      ? FileStatus::Ok
                   : r.status == SourceStatus::Empty ? FileStatus::Empty
                                                     : FileStatus::Error;
        c.reason = r.reason;
        c.bytes = r.bytes;
        result.connectors.push_back(std::move(c));
        if (r.status == SourceStatus::Error)
            result.missing.push_back(r.source + (r.node.empty() ? "" : " of " + r.node) + " (collect failed: " + r.reason
                                     + ")");
    }
}

} // namespace fl::collect

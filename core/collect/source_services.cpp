// The journal (journalctl), Prometheus and Loki sources.
#include "collect/http.h"
#include "collect/process.h"
#include "collect/sources.h"
#include "rules/metric_detect.h"
#include "rules/rule.h"
#include "rules/ruleset.h"

#include <algorithm>
#include <set>
#include <nlohmann/json.hpp>

namespace fl::collect {

namespace {

std::chrono::milliseconds left(const SourceContext& ctx)
{
    return std::max(std::chrono::milliseconds(1), std::chrono::duration_cast<std::chrono::milliseconds>(
                                                      ctx.deadline - std::chrono::steady_clock::now()));
}

std::string seconds(int64_t ns)
{
    return std::to_string(ns / 1'000'000'000);
}

// Inside a PromQL double-quoted string holding a regular expression.
std::string promRegexQuote(std::string_view s)
{
    std::string out;
    for (char c : s) {
        if (c == '.' || c == '+' || c == '*' || c == '?' || c == '(' || c == ')' || c == '[' || c == ']' || c == '{'
            || c == '}' || c == '|' || c == '^' || c == '$')
            out += "\\\\";
        else if (c == '\\' || c == '"')
            out += "\\";
        out += c;
    }
    return out;
}

bool metricNameOk(std::string_view m)
{
    if (m.empty() || (m[0] >= '0' && m[0] <= '9'))
        return false;
    return std::all_of(m.begin(), m.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == ':';
    });
}

} // namespace

std::vector<std::string> metricsReadBy(const RuleSet& rules)
{
    std::set<std::string> names;
    for (const Rule& r : rules.rules())
        if (r.metric)
            names.insert(r.metric->series);
    if (!names.empty()) // names the host of a series known only by its scrape address
        names.emplace(kHostNameSeries);
    return {names.begin(), names.end()};
}

SourceReport collectJournal(const SourceContext& ctx, const std::string& node)
{
    SourceReport rep{"journal", node, SourceStatus::Error, {}, {}, 0, 0};
    const bool local = isLocalNode(ctx, node);
    if (!local && !ctx.options.ssh) {
        rep.reason = "not this host (" + ctx.options.localHost + "); give --ssh to read its journal";
        return rep;
    }
    // --since/--until take "@<epoch seconds>" (systemd.time(7)).
    std::vector<std::string> cmd = {"journalctl", "--output=json", "--no-pager", "--quiet",
                                    "--since=@" + seconds(ctx.fromNs), "--until=@" + seconds(ctx.toNs + 999'999'999)};
    ProcessOptions po;
    po.timeout = left(ctx);
    po.maxStdoutBytes = ctx.options.maxFileBytes;
    ProcessResult r;
    if (local) {
        r = runProcess(cmd, po);
    } else {
        std::string line;
        for (const auto& a : cmd)
            line += (line.empty() ? "" : " ") + shellQuote(a);
        r = runProcess(remoteArgv(ctx, node, line), po);
    }
    if (!r.started || r.timedOut || (r.exitCode != 0 && r.out.empty())) {
        rep.reason = "journalctl: " + r.describe();
        return rep;
    }
    uint64_t entries = 0, bad = 0;
    const std::string text = journalJsonToSyslog(r.out, node, entries, bad);
    std::string note = r.truncated ? "; cut at --max-file-bytes" : "";
    if (bad)
        note += "; " + std::to_string(bad) + " lines were not journal JSON";
    if (entries == 0) {
        rep.status = bad ? SourceStatus::Error : SourceStatus::Empty;
        rep.reason = "no journal entries in the window" + note;
        return rep;
    }
    const std::string rel = ctx.writer.reserve({node + "/journal.log"});
    std::string error;
    if (rel.empty() || !ctx.writer.write(rel, text, error)) {
        rep.reason = rel.empty() ? "bundle path taken" : error;
        return rep;
    }
    rep.status = SourceStatus::Ok;
    rep.files = {rel};
    rep.bytes = text.size();
    rep.reason = std::to_string(entries) + " entries" + note;
    return rep;
}

std::vector<SourceReport> collectPrometheus(const SourceContext& ctx)
{
    const auto& nodes = ctx.scope.nodes;
    const std::vector<std::string>& metrics = ctx.options.metrics;
    std::vector<SourceReport> reports;
    auto all = [&](SourceStatus st, const std::string& why) {
        for (const auto& n : nodes)
            reports.push_back({"prometheus", n, st, why, {}, 0, 0});
        return reports;
    };
    if (metrics.empty())
        return all(SourceStatus::Empty, "no metric rule reads a series (and no --metrics): nothing to query");
    std::string names;
    for (const auto& m : metrics) {
        if (!metricNameOk(m))
            return all(SourceStatus::Error, "'" + m + "' is not a metric name");
        names += (names.empty() ? "" : "|") + m;
    }
    // Prometheus returns at most 11000 points per series: widen the step for long windows.
    const int64_t span = std::max<int64_t>(1, (ctx.toNs - ctx.fromNs) / 1'000'000'000);
    const int64_t step = std::max<int64_t>(15, (span + 10999) / 11000);
    for (const auto& label : ctx.options.hostLabels)
        if (!metricNameOk(label) || label.find(':') != std::string::npos)
            return all(SourceStatus::Error, "'" + label + "' is not a label name");
    std::map<std::string, nlohmann::json> merged;
    std::map<std::string, std::set<std::string>> seen; // node -> its series' label sets: a series two selectors found is kept once
    std::vector<std::string> errors, notes;
    bool noServer = false;
    // One query_range; its series go to their nodes (by host label, or by scrape address via hostOfAddress).
    auto fetch = [&](const std::string& selector, const std::vector<std::string>& labels,
                     const std::map<std::string, std::string>& hostOfAddress) {
        const HttpResult r = httpGet(ctx.options.prometheusUrl, "/api/v1/query_range",
                                     {{"query", "{__name__=~\"" + names + "\"," + selector + "}"},
                                      {"start", seconds(ctx.fromNs)},
                                      {"end", seconds(ctx.toNs)},
                                      {"step", std::to_string(step)}},
                                     {}, ctx.deadline);
        if (!r.ok) {
            errors.push_back(ctx.options.prometheusUrl + ": " + r.error);
            noServer = r.status == 0; // no server answered: the next query would fail the same way
            return;
        }
        std::string error;
        auto split = splitPrometheusMatrix(r.body, nodes, labels, error, hostOfAddress);
        if (!error.empty()) {
            errors.push_back("query_range: " + error);
            return;
        }
        for (auto& [node, text] : split) {
            auto doc = nlohmann::json::parse(text);
            auto& dst = merged[node];
            if (dst.is_null())
                dst = {{"status", "success"}, {"data", {{"resultType", "matrix"}, {"result", nlohmann::json::array()}}}};
            for (auto& s : doc["data"]["result"])
                if (seen[node].insert(s["metric"].dump()).second)
                    dst["data"]["result"].push_back(std::move(s));
        }
    };
    constexpr size_t kChunk = 100; // nodes per query: keeps the URL short
    for (size_t at = 0; at < nodes.size() && !noServer; at += kChunk) {
        const std::vector<std::string> chunk(nodes.begin() + long(at), nodes.begin() + long(std::min(nodes.size(), at + kChunk)));
        std::string alternatives;
        for (const auto& n : chunk)
            alternatives += (alternatives.empty() ? "" : "|") + promRegexQuote(n);
        for (const auto& label : ctx.options.hostLabels) {
            fetch(label + "=~\"(" + alternatives + ")([.:].*)?\"", {label}, {});
            if (noServer)
                break;
        }
        if (noServer)
            break;
        // Targets scraped by address (instance="10.1.0.4:9100") name no host: their addresses, as each machine's
        // node_uname_info says (nodename -> instance), are asked for by instance too.
        const HttpResult u = httpGet(ctx.options.prometheusUrl, "/api/v1/series",
                                     {{"match[]", std::string(kHostNameSeries) + "{nodename=~\"(" + alternatives + ")([.].*)?\"}"},
                                      {"start", seconds(ctx.fromNs)},
                                      {"end", seconds(ctx.toNs)}},
                                     {}, ctx.deadline);
        std::string error;
        std::vector<std::string> conflicts;
        const auto hostOfAddress = u.ok ? unameAddresses(u.body, chunk, conflicts, error) : std::map<std::string, std::string>{};
        if (!u.ok || !error.empty()) // the host-label queries stand; only targets scraped by address are missed
            notes.push_back("no scrape addresses (series " + std::string(kHostNameSeries) + ": " + (u.ok ? error : u.error) + ")");
        for (const auto& c : conflicts)
            notes.push_back("scrape address " + c + " (node_uname_info): its series are not fetched by address");
        if (hostOfAddress.empty())
            continue;
        std::string addresses;
        for (const auto& [address, node] : hostOfAddress)
            addresses += (addresses.empty() ? "" : "|") + promRegexQuote(address);
        fetch("instance=~\"(" + addresses + ")(:[0-9]+)?\"", {"instance"}, hostOfAddress);
    }
    if (noServer)
        return all(SourceStatus::Error, errors.back());
    for (const auto& n : nodes) {
        SourceReport rep{"prometheus", n, SourceStatus::Empty, {}, {}, 0, 0};
        auto it = merged.find(n);
        if (it == merged.end()) {
            rep.status = errors.empty() ? SourceStatus::Empty : SourceStatus::Error;
            rep.reason = errors.empty() ? "no series of the " + std::to_string(metrics.size()) + " metrics for this node"
                                        : errors.front();
            reports.push_back(std::move(rep));
            continue;
        }
        const std::string text = it->second.dump(1) + "\n";
        const std::string rel = ctx.writer.reserve({"metrics/prometheus-" + n + ".json"});
        std::string error;
        if (rel.empty() || !ctx.writer.write(rel, text, error)) {
            rep.status = SourceStatus::Error;
            rep.reason = rel.empty() ? "bundle path taken" : error;
        } else {
            rep.status = SourceStatus::Ok;
            rep.files = {rel};
            rep.bytes = text.size();
            rep.reason = std::to_string(it->second["data"]["result"].size()) + " series, step " + std::to_string(step)
                + " s";
            if (!errors.empty())
                rep.reason += "; " + errors.front();
            if (!notes.empty())
                rep.reason += "; " + notes.front();
        }
        reports.push_back(std::move(rep));
    }
    return reports;
}

SourceReport collectLoki(const SourceContext& ctx, const std::string& node)
{
    SourceReport rep{"loki", node, SourceStatus::Error, {}, {}, 0, 0};
    std::string selector = ctx.options.lokiSelector;
    for (size_t at = 0; (at = selector.find("{node}", at)) != std::string::npos; at += node.size())
        selector.replace(at, 6, node); // node names are checked: no quote can end the label value
    HttpParams headers;
    if (!ctx.options.lokiOrg.empty())
        headers.emplace_back("X-Scope-OrgID", ctx.options.lokiOrg);
    constexpr uint64_t kPage = 5000;
    int64_t start = ctx.fromNs;
    uint64_t entries = 0;
    std::string text, note;
    for (;;) {
        const HttpResult r = httpGet(ctx.options.lokiUrl, "/loki/api/v1/query_range",
                                     {{"query", selector},
                                      {"start", std::to_string(start)},
                                      {"end", std::to_string(ctx.toNs)},
                                      {"limit", std::to_string(kPage)},
                                      {"direction", "forward"}},
                                     headers, ctx.deadline);
        if (!r.ok) {
            if (entries == 0) {
                rep.reason = ctx.options.lokiUrl + ": " + r.error;
                return rep;
            }
            note = "; stopped early: " + r.error;
            break;
        }
        uint64_t got = 0;
        int64_t lastNs = start;
        std::string error;
        text += lokiStreamsToLines(r.body, got, lastNs, error);
        if (!error.empty()) {
            rep.reason = "query_range " + selector + ": " + error;
            return rep;
        }
        entries += got;
        if (got < kPage)
            break;
        if (entries >= ctx.options.lokiMaxLines) {
            note = "; stopped at " + std::to_string(entries) + " lines (limit)";
            break;
        }
        start = lastNs + 1; // next page after the newest line seen
    }
    if (entries == 0) {
        rep.status = SourceStatus::Empty;
        rep.reason = "no lines for " + selector + note;
        return rep;
    }
    const std::string rel = ctx.writer.reserve({node + "/loki.log"});
    std::string error;
    if (rel.empty() || !ctx.writer.write(rel, text, error)) {
        rep.reason = rel.empty() ? "bundle path taken" : error;
        return rep;
    }
    rep.status = SourceStatus::Ok;
    rep.files = {rel};
    rep.bytes = text.size();
    rep.reason = std::to_string(entries) + " lines" + note;
    return rep;
}

} // namespace fl::collect

namespace fl::collect {

SourceReport collectPodLog(const SourceContext& ctx, const ScopeStep& pod)
{
    const std::string node = pod.nodes.empty() ? std::string() : pod.nodes.front();
    SourceReport rep{"pod-logs", node, SourceStatus::Error, {}, {}, 0, 0};
    const std::string ns = ctx.scope.workloadId.substr(0, ctx.scope.workloadId.find('/'));
    if (!safeNodeName(pod.id) || !safeNodeName(ns) || node.empty()) {
        rep.reason = "pod '" + pod.id + "' not read (no node or not a pod name)";
        return rep;
    }
    // --timestamps: kubelet's receive time on every line, which NCCL lines lack.
    std::vector<std::string> argv = ctx.options.kubectlCommand;
    for (const char* a : {"logs", "--all-containers=true", "--timestamps=true", "-n"})
        argv.emplace_back(a);
    argv.push_back(ns);
    argv.push_back(pod.id);
    ProcessOptions po;
    po.timeout = left(ctx);
    po.maxStdoutBytes = ctx.options.maxFileBytes;
    const ProcessResult r = runProcess(argv, po);
    if (!r.started || r.timedOut || (r.exitCode != 0 && r.out.empty())) {
        rep.reason = "kubectl logs " + pod.id + ": " + r.describe();
        return rep;
    }
    if (r.out.find_first_not_of(" \t\r\n") == std::string::npos) {
        rep.status = SourceStatus::Empty;
        rep.reason = "pod " + pod.id + " printed nothing";
        return rep;
    }
    // The node is in the folder; the pod name stays out of the file name, where
    // its digits would pass for a host name.
    std::vector<std::string> names;
    for (int i = 0; i < 64; ++i)
        names.push_back(node + "/applog" + (i ? "-part" + std::to_string(i) : std::string()) + ".log");
    const std::string rel = ctx.writer.reserve(names);
    std::string error;
    if (rel.empty() || !ctx.writer.write(rel, r.out, error)) {
        rep.reason = rel.empty() ? "too many pods on one node" : error;
        return rep;
    }
    rep.status = SourceStatus::Ok;
    rep.files = {rel};
    rep.bytes = r.out.size();
    rep.reason = "pod " + pod.id + (r.truncated ? ", cut at --max-file-bytes" : "");
    return rep;
}

} // namespace fl::collect

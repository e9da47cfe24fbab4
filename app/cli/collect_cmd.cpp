#include "commands.h"
#include "text_report.h"

#include "bundle/iso_time.h"
#include "collect/collect.h"
#include "collect/process.h"
#include "collect/upload.h"
#include "present/hostlist.h"
#include "engine/engine.h"
#include "engine/result_json.h"
#include "rules/ruleset.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

namespace fl::cli {

namespace {

int fail(const std::string& message)
{
    std::fprintf(stderr, "faultline-cli collect: %s\n", message.c_str());
    return 2;
}

struct CollectArgs {
    std::string slurmJob, k8sJob, nodesText, fromText, toText, workloadId, serviceUrl, tokenFile, historyDb;
    std::string sshCommand, metrics, hostLabels;
    std::vector<std::string> timeouts;
    bool json = false, quiet = false, noJournal = false, noPodLogs = false, noUserRules = false;
    int64_t ranks = -1, marginBefore = 300, marginAfter = 60;
    collect::CollectOptions options;
    std::vector<std::string> ruleDirs;
};

std::vector<std::string> splitComma(const std::string& s)
{
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty())
            out.push_back(item);
    return out;
}

std::vector<std::string> splitWords(const std::string& s)
{
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string w; ss >> w;)
        out.push_back(w);
    return out;
}

// A refusal of the command line, said once by fail(); none when the step went through.
using Refusal = std::optional<std::string>;

// --ssh, --metrics, --host-labels, --rules and friends into the collect and analysis options.
Refusal applyOptions(CollectArgs& a, AnalyzeOptions& analyzeOptions)
{
    collect::CollectOptions& options = a.options;
    options.journal = !a.noJournal;
    options.podLogs = !a.noPodLogs;
    if (!a.sshCommand.empty())
        options.sshCommand = splitWords(a.sshCommand);
    if (!a.metrics.empty())
        options.metrics = splitComma(a.metrics);
    if (!a.hostLabels.empty())
        options.hostLabels = splitComma(a.hostLabels);
    analyzeOptions.keepMetricSamples = false;
    analyzeOptions.keepMetricSeries = false;
    analyzeOptions.ruleDirs = a.ruleDirs;
    analyzeOptions.userConfigRules = !a.noUserRules;
    // Prometheus is asked for exactly the series the metric rules read (the rules the analysis will load).
    if (!options.prometheusUrl.empty() && options.metrics.empty()) {
        try {
            options.metrics = collect::metricsReadBy(*loadRulesFor(analyzeOptions));
        } catch (const RuleError& e) {
            return std::string(e.what());
        }
    }
    return std::nullopt;
}

// --timeout SECONDS or SOURCE=SECONDS (repeatable): per source, the scheduler query and the service.
Refusal applyTimeouts(CollectArgs& a, collect::ScopeQueryOptions& scopeOptions, std::chrono::milliseconds& serviceTimeout)
{
    collect::CollectOptions& options = a.options;
    for (const std::string& v : a.timeouts) {
        const size_t eq = v.find('=');
        const std::string source = eq == std::string::npos ? "" : v.substr(0, eq);
        const std::string secs = v.substr(eq == std::string::npos ? 0 : eq + 1);
        if (secs.empty() || secs.size() > 7 || secs.find_first_not_of("0123456789") != std::string::npos
            || std::stoll(secs) < 1)
            return "--timeout: '" + v + "': SECONDS or SOURCE=SECONDS";
        const std::chrono::milliseconds ms(std::stoll(secs) * 1000);
        if (source.empty())
            options.defaultTimeout = scopeOptions.timeout = ms;
        else if (source == "scheduler")
            scopeOptions.timeout = ms;
        else if (source == "service")
            serviceTimeout = ms;
        else if (source == "files" || source == "journal" || source == "prometheus" || source == "loki"
                 || source == "pod-logs")
            options.timeouts[source] = ms;
        else
            return "--timeout: unknown source '" + source + "'";
    }
    return std::nullopt;
}

// The service's bearer token: the first line of --token-file, trailing blanks dropped.
Refusal readToken(const std::string& tokenFile, std::string& token)
{
    if (tokenFile.empty())
        return std::nullopt;
    std::ifstream in(tokenFile);
    if (!in)
        return tokenFile + ": cannot read the token file";
    std::getline(in, token);
    while (!token.empty() && (token.back() == '\r' || token.back() == ' '))
        token.pop_back();
    return std::nullopt;
}

// --nodes with --from and --to: the scope, and the collection window, given by hand.
Refusal manualScope(CollectArgs& a, collect::Scope& scope)
{
    if (a.fromText.empty() || a.toText.empty())
        return "--nodes needs --from and --to (ISO 8601, e.g. 2026-03-01T10:00:00Z)";
    const auto from = parseIso8601Ns(a.fromText), to = parseIso8601Ns(a.toText);
    if (!from)
        return "--from: '" + a.fromText + "' is not an ISO 8601 date-time";
    if (!to)
        return "--to: '" + a.toText + "' is not an ISO 8601 date-time";
    if (*to < *from)
        return "--to is before --from";
    std::string error;
    auto nodes = present::expandHostList(a.nodesText, error);
    if (!nodes || nodes->empty())
        return "--nodes: " + (error.empty() ? "no node" : error);
    scope.scheduler = "manual";
    scope.workloadId = a.workloadId;
    scope.nodes = *nodes;
    scope.startNs = *from;
    scope.endNs = *to;
    scope.notes.push_back("scope given by hand");
    // A window given by hand is the collection window itself.
    a.options.fromNs = *from;
    a.options.toNs = *to;
    return std::nullopt;
}

// Where and when the workload ran, from its scheduler or by hand; the collection window from it.
Refusal findScope(CollectArgs& a, const collect::ScopeQueryOptions& scopeOptions, collect::Scope& scope)
{
    try {
        if (!a.slurmJob.empty())
            scope = collect::scopeFromSlurm(a.slurmJob, scopeOptions);
        else if (!a.k8sJob.empty())
            scope = collect::scopeFromKubernetes(a.k8sJob, scopeOptions);
        else if (Refusal r = manualScope(a, scope))
            return r;
    } catch (const std::exception& e) {
        return std::string(e.what());
    }
    if (!scope.nodes.empty() && std::none_of(scope.nodes.begin(), scope.nodes.end(), collect::safeNodeName)) {
        std::string names;
        for (size_t i = 0; i < scope.nodes.size() && i < 5; ++i)
            names += (i ? ", '" : "'") + scope.nodes[i].substr(0, 80) + "'";
        return "no node of the scope has a usable host name (" + names + (scope.nodes.size() > 5 ? ", ..." : "")
            + "; letters, digits, '.', '-', '_'): nothing to collect";
    }
    if (a.ranks > 0)
        scope.tasks = static_cast<int>(a.ranks);
    if (scope.scheduler != "manual") {
        if (scope.startNs != kNoTime)
            a.options.fromNs = scope.startNs - a.marginBefore * 1'000'000'000;
        if (scope.endNs != kNoTime)
            a.options.toNs = scope.endNs + a.marginAfter * 1'000'000'000;
    }
    if (!a.quiet)
        for (const auto& note : scope.notes)
            std::fprintf(stderr, "scope: %s\n", note.c_str());
    return std::nullopt;
}

// What the command prints, and the result document the history keeps.
struct Diagnosis {
    std::string text;
    nlohmann::json resultDoc;
};

// The bundle sent to faultline-service: its answer, with the collect reports appended.
Refusal askService(const CollectArgs& a, const std::string& token, std::chrono::milliseconds timeout,
                   const collect::CollectResult& collected, Diagnosis& out)
{
    const std::string& serviceUrl = a.serviceUrl;
    const std::string& outDir = a.options.outDir;
    // The collect reports as the result document writes them.
    Result reportsOnly;
    collect::addSourceReports(reportsOnly, collected.reports);
    const nlohmann::json reportsJson = resultToJson(reportsOnly);

    const auto answer = collect::sendBundle(serviceUrl, outDir, token, timeout);
    if (!answer.ok)
        return answer.error + " (the bundle is in " + outDir + ")";
    nlohmann::json doc = nlohmann::json::parse(answer.body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("result") || !doc["result"].is_object())
        return serviceUrl + ": the answer has no result document (the bundle is in " + outDir + ")";
    auto& res = doc["result"];
    // The service's verdict is read the one way every result document is read.
    Result answered;
    try {
        answered = resultFromJson(res);
    } catch (const std::invalid_argument& e) {
        return serviceUrl + ": the answer's result document: " + e.what() + " (the bundle is in " + outDir + ")";
    }
    collect::addSourceReports(answered, collected.reports);
    // The document goes on as the service wrote it, with the collect reports appended as resultToJson writes them.
    for (const auto& c : reportsJson["connector_reports"])
        res["connector_reports"].push_back(c);
    for (const auto& m : reportsJson["missing"])
        res["missing"].push_back(m);
    out.resultDoc = res;
    if (a.json) {
        out.text = doc.dump(2) + "\n";
        return std::nullopt;
    }
    out.text = "session " + doc.value("session_id", std::string("?")) + " at " + serviceUrl + "\n" + "status "
        + std::string(toString(answered.status)) + ", domain " + std::string(toString(answered.domain)) + "\n" + answered.summary + "\n";
    for (const auto& m : answered.missing)
        out.text += "  missing: " + m + "\n";
    return std::nullopt;
}

// The bundle analysed here, the collect reports added to its coverage.
Refusal analyzeHere(const CollectArgs& a, const AnalyzeOptions& analyzeOptions, const collect::CollectResult& collected,
                    Diagnosis& out)
{
    Analysis analysis;
    try {
        analysis = analyze(a.options.outDir, analyzeOptions);
    } catch (const std::exception& e) {
        return std::string("analysing ") + a.options.outDir + ": " + e.what();
    }
    collect::addSourceReports(analysis.result, collected.reports);
    out.text = a.json ? resultToString(analysis.result) : formatDiagnosis(analysis);
    if (!a.historyDb.empty())
        out.resultDoc = resultToJson(analysis.result);
    return std::nullopt;
}

// --history: one row per failed job (a job that ended well is no offence).
void keepHistory(const CollectArgs& a, const collect::Scope& scope, const nlohmann::json& resultDoc)
{
    if (a.historyDb.empty())
        return;
    if (scope.succeeded) {
        if (!a.quiet)
            std::fprintf(stderr, "faultline-cli collect: history not written: job %s ended well (%s, exit 0)\n",
                         scope.workloadId.c_str(), scope.state.c_str());
        return;
    }
    std::string error;
    if (!collect::appendHistory(a.historyDb, resultDoc, scope.scheduler, a.options.outDir, error))
        std::fprintf(stderr, "faultline-cli collect: history not written: %s\n", error.c_str());
}

int collectCommand(CollectArgs& a)
{
    AnalyzeOptions analyzeOptions;
    if (Refusal r = applyOptions(a, analyzeOptions))
        return fail(*r);
    collect::ScopeQueryOptions scopeOptions;
    std::chrono::milliseconds serviceTimeout{600000};
    std::string token;
    collect::Scope scope;
    if (Refusal r = applyTimeouts(a, scopeOptions, serviceTimeout))
        return fail(*r);
    if (Refusal r = readToken(a.tokenFile, token))
        return fail(*r);
    if (Refusal r = findScope(a, scopeOptions, scope))
        return fail(*r);

    // Ctrl-C ends the commands collect started (ssh, journalctl) with it.
    collect::exitOnInterrupt("faultline-cli collect: interrupted; the partial bundle is in " + a.options.outDir);
    collect::CollectResult collected;
    try {
        collected = collect::collect(scope, a.options);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    if (!a.quiet)
        for (const auto& r : collected.reports)
            std::fprintf(stderr, "%-12s %-20s %-5s %6lld ms  %s\n", r.source.c_str(), r.node.c_str(),
                         std::string(collect::toString(r.status)).c_str(), static_cast<long long>(r.ms),
                         r.reason.c_str());

    Diagnosis diagnosis;
    if (Refusal r = a.serviceUrl.empty() ? analyzeHere(a, analyzeOptions, collected, diagnosis)
                                         : askService(a, token, serviceTimeout, collected, diagnosis))
        return fail(*r);
    keepHistory(a, scope, diagnosis.resultDoc);
    std::fwrite(diagnosis.text.data(), 1, diagnosis.text.size(), stdout);
    return 0;
}

} // namespace

Command addCollectCommand(CLI::App& cli)
{
    auto a = std::make_shared<CollectArgs>();
    CLI::App* cmd = cli.add_subcommand(
        "collect", "scope a failed workload (Slurm job, Kubernetes Job or nodes + window), gather its evidence "
                   "into --out DIR as a bundle, analyse it and print the diagnosis");
    cmd->footer("Each source reports ok / empty / error per node into the result's coverage; one slow source never "
                "holds up the others. Nothing is written outside --out (and --history when given). See "
                "docs/collector.md.");
    auto scope = cmd->add_option_group("scope", "where the workload ran (one of)");
    scope->add_option("--slurm-job", a->slurmJob, "Slurm job id: sacct --json (needs slurmdbd), else scontrol show job");
    scope->add_option("--k8s-job", a->k8sJob, "Kubernetes Job NAMESPACE/NAME: kubectl get job/pods/events -o json");
    scope->add_option("--nodes", a->nodesText, "nodes by hand: a,b,c or node[01-04]; with --from and --to");
    scope->require_option(1);
    cmd->add_option("--from", a->fromText, "start of the window given by hand (ISO 8601)");
    cmd->add_option("--to", a->toText, "end of the window given by hand (ISO 8601)");
    cmd->add_option("--workload-id", a->workloadId, "names the workload when the scope is given by hand");
    cmd->add_option("--ranks", a->ranks, "number of ranks (for {rank} in --files)")->check(CLI::PositiveNumber);
    cmd->add_option("--margin-before", a->marginBefore, "seconds collected before the job started")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    cmd->add_option("--margin-after", a->marginAfter, "seconds collected after it ended")
        ->capture_default_str()->check(CLI::NonNegativeNumber);
    cmd->add_option("--files", a->options.fileTemplates,
                    "files per node: {node} {rank} {job} replaced, globs allowed; rotated copies (.1, .2.gz) too. "
                    "Repeatable")->type_name("TEMPLATE");
    cmd->add_flag("--ssh", a->options.ssh, "read files and journals of other nodes over ssh (BatchMode)");
    cmd->add_option("--ssh-command", a->sshCommand, "ssh command line (default 'ssh -o BatchMode=yes -o ConnectTimeout=10')");
    cmd->add_flag("--no-journal", a->noJournal, "do not read the systemd journal");
    cmd->add_flag("--no-pod-logs", a->noPodLogs, "Kubernetes: do not read kubectl logs of the job's pods");
    cmd->add_option("--prometheus", a->options.prometheusUrl, "Prometheus HTTP API base URL (query_range)");
    cmd->add_option("--metrics", a->metrics, "metric names, comma-separated (default: DCGM and node exporter failure "
                                             "signals)");
    cmd->add_option("--host-label", a->hostLabels, "labels naming the host, comma-separated (default Hostname,instance)");
    cmd->add_option("--loki", a->options.lokiUrl, "Loki HTTP API base URL (query_range)");
    cmd->add_option("--loki-selector", a->options.lokiSelector, "LogQL selector, {node} replaced")->capture_default_str();
    cmd->add_option("--loki-org", a->options.lokiOrg, "X-Scope-OrgID header for a multi-tenant Loki");
    cmd->add_option("--timeout", a->timeouts,
                    "[SOURCE=]SECONDS per source and node (default 60); SOURCE: files journal prometheus loki "
                    "pod-logs scheduler service. Repeatable");
    cmd->add_option("--parallel", a->options.parallel, "nodes read at once per source")
        ->capture_default_str()->check(CLI::Range(1, 256));
    cmd->add_option("--max-file-bytes", a->options.maxFileBytes, "cap per copied file")
        ->capture_default_str()->check(CLI::PositiveNumber);
    cmd->add_option("--out", a->options.outDir, "the bundle folder (created; must be empty)")->required();
    cmd->add_flag("--json", a->json, "print the result document instead of the diagnosis text");
    cmd->add_option("--service", a->serviceUrl, "send the bundle to faultline-service (POST /v2/bundles) instead of "
                                                "analysing here");
    cmd->add_option("--service-token-file", a->tokenFile, "bearer token for the service (first line of FILE)");
    cmd->add_option("--history", a->historyDb, "append the result to this SQLite database (created if missing)");
    addRulesOption(cmd, a->ruleDirs);
    cmd->add_flag("--no-user-rules", a->noUserRules, "skip $XDG_CONFIG_HOME/faultline/rules");
    cmd->add_flag("--quiet", a->quiet, "no per-source lines on stderr");
    return {cmd, [a] { return collectCommand(*a); }};
}

} // namespace fl::cli

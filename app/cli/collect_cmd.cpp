#include "collect_cmd.h"
#include "text_report.h"

#include "bundle/iso_time.h"
#include "collect/collect.h"
#include "collect/process.h"
#include "collect/upload.h"
#include "engine/engine.h"
#include "engine/result_json.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

namespace fl::cli {

namespace {

int fail(const std::string& message)
{
    std::fprintf(stderr, "faultline-cli collect: %s\n", message.c_str());
    return 2;
}

constexpr const char* kUsage =
    "usage: faultline-cli collect (--slurm-job ID | --k8s-job NAMESPACE/NAME | --nodes LIST --from ISO --to ISO)\n"
    "                             --out DIR [options]\n"
    "\n"
    "Scope a failed workload, gather its evidence into DIR as a bundle, analyse it and print the diagnosis.\n"
    "\n"
    "scope:\n"
    "  --slurm-job ID          from sacct --json (needs slurmdbd), else scontrol show job\n"
    "  --k8s-job NS/NAME       from kubectl get job/pods -o json (and the namespace's events)\n"
    "  --nodes LIST            by hand: a,b,c or node[01-04]; with --from/--to (ISO 8601)\n"
    "  --workload-id ID        name the workload when the scope is given by hand\n"
    "  --ranks N               number of ranks (for {rank} in --files)\n"
    "  --margin-before S       seconds collected before the job started (300)\n"
    "  --margin-after S        seconds collected after it ended (60)\n"
    "sources (each reports ok / empty / error per node):\n"
    "  --files TEMPLATE        files per node; {node} {rank} {job} are replaced, globs allowed; rotated\n"
    "                          copies (.1, .2.gz, -20260301) come too. Repeatable\n"
    "  --ssh                   read files and journals of other nodes over ssh (BatchMode)\n"
    "  --ssh-command CMD       ssh command line (default 'ssh -o BatchMode=yes -o ConnectTimeout=10')\n"
    "  --no-journal            do not read the systemd journal\n"
    "  --no-pod-logs           Kubernetes: do not read kubectl logs of the job's pods\n"
    "  --prometheus URL        Prometheus HTTP API (query_range)\n"
    "  --metrics A,B           metric names (default: DCGM exporter and node exporter failure signals)\n"
    "  --host-label L[,L]      label naming the host (default Hostname,instance)\n"
    "  --loki URL              Loki HTTP API (query_range)\n"
    "  --loki-selector SEL     LogQL selector, {node} replaced (default '{host=\"{node}\"}')\n"
    "  --loki-org ORG          X-Scope-OrgID header\n"
    "  --timeout [SOURCE=]S    seconds per source and node (default 60); SOURCE: files journal prometheus\n"
    "                          loki pod-logs scheduler service. Repeatable\n"
    "  --parallel N            nodes read at once per source (8)\n"
    "  --max-file-bytes N      cap per copied file (1 GiB)\n"
    "output:\n"
    "  --out DIR               the bundle (created; must be empty). Nothing is written elsewhere\n"
    "  --json                  print the result document instead of the diagnosis text\n"
    "  --service URL           send the bundle to faultline-service (POST /v2/bundles) instead of analysing\n"
    "                          here; prints its answer {session_id, run, result}\n"
    "  --service-token-file F  bearer token for the service\n"
    "  --history DB            append the result to this SQLite database (created if missing)\n"
    "  --rules DIR, --no-user-rules   as for analyze\n"
    "  --quiet                 no per-source lines on stderr\n";

bool number(const std::string& s, int64_t& out)
{
    if (s.empty() || s.size() > 15 || s.find_first_not_of("0123456789") != std::string::npos)
        return false;
    out = std::stoll(s);
    return true;
}

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

} // namespace

int collectCommand(const std::vector<std::string>& args)
{
    std::string slurmJob, k8sJob, nodesText, fromText, toText, workloadId, serviceUrl, tokenFile, historyDb;
    std::chrono::milliseconds serviceTimeout{600000};
    bool json = false, quiet = false;
    int64_t ranks = -1, marginBefore = 300, marginAfter = 60;
    collect::CollectOptions options;
    collect::ScopeQueryOptions scopeOptions;
    AnalyzeOptions analyzeOptions;
    analyzeOptions.keepMetricSamples = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](std::string& out) {
            if (i + 1 >= args.size())
                return false;
            out = args[++i];
            return true;
        };
        std::string v;
        int64_t n = 0;
        if (a == "-h" || a == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (a == "--json") {
            json = true;
        } else if (a == "--quiet") {
            quiet = true;
        } else if (a == "--ssh") {
            options.ssh = true;
        } else if (a == "--no-journal") {
            options.journal = false;
        } else if (a == "--no-pod-logs") {
            options.podLogs = false;
        } else if (a == "--service" && value(serviceUrl)) {
        } else if (a == "--service-token-file" && value(tokenFile)) {
        } else if (a == "--history" && value(historyDb)) {
        } else if (a == "--no-user-rules") {
            analyzeOptions.userConfigRules = false;
        } else if (a == "--slurm-job" && value(slurmJob)) {
        } else if (a == "--k8s-job" && value(k8sJob)) {
        } else if (a == "--nodes" && value(nodesText)) {
        } else if (a == "--from" && value(fromText)) {
        } else if (a == "--to" && value(toText)) {
        } else if (a == "--workload-id" && value(workloadId)) {
        } else if (a == "--out" && value(options.outDir)) {
        } else if (a == "--prometheus" && value(options.prometheusUrl)) {
        } else if (a == "--loki" && value(options.lokiUrl)) {
        } else if (a == "--loki-selector" && value(options.lokiSelector)) {
        } else if (a == "--loki-org" && value(options.lokiOrg)) {
        } else if (a == "--files" && value(v)) {
            options.fileTemplates.push_back(v);
        } else if (a == "--rules" && value(v)) {
            analyzeOptions.ruleDirs.push_back(v);
        } else if (a == "--metrics" && value(v)) {
            options.metrics = splitComma(v);
        } else if (a == "--host-label" && value(v)) {
            options.hostLabels = splitComma(v);
        } else if (a == "--ssh-command" && value(v)) {
            options.sshCommand = splitWords(v);
            if (options.sshCommand.empty())
                return fail("--ssh-command: empty");
        } else if (a == "--ranks" && value(v)) {
            if (!number(v, ranks))
                return fail("--ranks: '" + v + "' is not a number");
        } else if ((a == "--margin-before" || a == "--margin-after") && value(v)) {
            if (!number(v, n))
                return fail(a + ": '" + v + "' is not a number of seconds");
            (a == "--margin-before" ? marginBefore : marginAfter) = n;
        } else if (a == "--parallel" && value(v)) {
            if (!number(v, n) || n < 1 || n > 256)
                return fail("--parallel: 1 to 256");
            options.parallel = static_cast<unsigned>(n);
        } else if (a == "--max-file-bytes" && value(v)) {
            if (!number(v, n) || n < 1)
                return fail("--max-file-bytes: a positive number");
            options.maxFileBytes = static_cast<uint64_t>(n);
        } else if (a == "--timeout" && value(v)) {
            const size_t eq = v.find('=');
            const std::string source = eq == std::string::npos ? "" : v.substr(0, eq);
            if (!number(v.substr(eq == std::string::npos ? 0 : eq + 1), n) || n < 1)
                return fail("--timeout: '" + v + "': SECONDS or SOURCE=SECONDS");
            const std::chrono::milliseconds ms(n * 1000);
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
                return fail("--timeout: unknown source '" + source + "'");
        } else {
            return fail("unknown option or missing value: '" + a + "'\n\n" + kUsage);
        }
    }
    const int scopes = !slurmJob.empty() + !k8sJob.empty() + !nodesText.empty();
    if (scopes != 1)
        return fail("give one scope: --slurm-job ID, --k8s-job NS/NAME, or --nodes LIST --from ISO --to ISO\n\n"
                    + std::string(kUsage));
    if (options.outDir.empty())
        return fail("--out DIR is required (the bundle is written there)");
    std::string token;
    if (!tokenFile.empty()) {
        std::ifstream in(tokenFile);
        if (!in)
            return fail(tokenFile + ": cannot read the token file");
        std::getline(in, token);
        while (!token.empty() && (token.back() == '\r' || token.back() == ' '))
            token.pop_back();
    }

    collect::Scope scope;
    try {
        if (!slurmJob.empty()) {
            scope = collect::scopeFromSlurm(slurmJob, scopeOptions);
        } else if (!k8sJob.empty()) {
            scope = collect::scopeFromKubernetes(k8sJob, scopeOptions);
        } else {
            if (fromText.empty() || toText.empty())
                return fail("--nodes needs --from and --to (ISO 8601, e.g. 2026-03-01T10:00:00Z)");
            const auto from = parseIso8601Ns(fromText), to = parseIso8601Ns(toText);
            if (!from)
                return fail("--from: '" + fromText + "' is not an ISO 8601 date-time");
            if (!to)
                return fail("--to: '" + toText + "' is not an ISO 8601 date-time");
            if (*to < *from)
                return fail("--to is before --from");
            std::string error;
            auto nodes = collect::expandHostlist(nodesText, error);
            if (!nodes || nodes->empty())
                return fail("--nodes: " + (error.empty() ? "no node" : error));
            scope.scheduler = "manual";
            scope.workloadId = workloadId;
            scope.nodes = *nodes;
            scope.startNs = *from;
            scope.endNs = *to;
            scope.notes.push_back("scope given by hand");
            // A window given by hand is the collection window itself.
            options.fromNs = *from;
            options.toNs = *to;
        }
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    if (ranks > 0)
        scope.tasks = static_cast<int>(ranks);
    if (scope.scheduler != "manual") {
        if (scope.startNs != kNoTime)
            options.fromNs = scope.startNs - marginBefore * 1'000'000'000;
        if (scope.endNs != kNoTime)
            options.toNs = scope.endNs + marginAfter * 1'000'000'000;
    }
    if (!quiet)
        for (const auto& note : scope.notes)
            std::fprintf(stderr, "scope: %s\n", note.c_str());

    // Ctrl-C ends the commands collect started (ssh, journalctl) with it.
    collect::exitOnInterrupt("faultline-cli collect: interrupted; the partial bundle is in " + options.outDir);
    collect::CollectResult collected;
    try {
        collected = collect::collect(scope, options);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    if (!quiet)
        for (const auto& r : collected.reports)
            std::fprintf(stderr, "%-12s %-20s %-5s %6lld ms  %s\n", r.source.c_str(), r.node.c_str(),
                         std::string(collect::toString(r.status)).c_str(), static_cast<long long>(r.ms),
                         r.reason.c_str());

    // The collect reports as the result document writes them.
    Result reportsOnly;
    collect::addSourceReports(reportsOnly, collected.reports);
    const nlohmann::json reportsJson = resultToJson(reportsOnly);

    nlohmann::json resultDoc;
    std::string text;
    if (!serviceUrl.empty()) {
        const auto answer = collect::sendBundle(serviceUrl, options.outDir, token, serviceTimeout);
        if (!answer.ok)
            return fail(answer.error + " (the bundle is in " + options.outDir + ")");
        nlohmann::json doc = nlohmann::json::parse(answer.body, nullptr, false);
        if (doc.is_discarded() || !doc.is_object() || !doc.contains("result") || !doc["result"].is_object())
            return fail(serviceUrl + ": the answer has no result document (the bundle is in " + options.outDir + ")");
        auto& res = doc["result"];
        for (const auto& c : reportsJson["connector_reports"])
            res["connector_reports"].push_back(c);
        for (const auto& m : reportsJson["missing"])
            res["missing"].push_back(m);
        resultDoc = res;
        if (json) {
            text = doc.dump(2) + "\n";
        } else {
            text = "session " + doc.value("session_id", std::string("?")) + " at " + serviceUrl + "\n"
                + "status " + res.value("status", std::string("?")) + ", domain " + res.value("domain", std::string("?"))
                + "\n" + res.value("summary", std::string()) + "\n";
            for (const auto& m : res["missing"])
                if (m.is_string())
                    text += "  missing: " + m.get<std::string>() + "\n";
        }
    } else {
        Analysis analysis;
        try {
            analysis = analyze(options.outDir, analyzeOptions);
        } catch (const std::exception& e) {
            return fail(std::string("analysing ") + options.outDir + ": " + e.what());
        }
        collect::addSourceReports(analysis.result, collected.reports);
        text = json ? resultToString(analysis.result) : formatDiagnosis(analysis);
        if (!historyDb.empty())
            resultDoc = resultToJson(analysis.result);
    }
    if (!historyDb.empty()) {
        std::string error;
        if (!collect::appendHistory(historyDb, resultDoc, scope.scheduler, options.outDir, error))
            std::fprintf(stderr, "faultline-cli collect: history not written: %s\n", error.c_str());
    }
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

} // namespace fl::cli

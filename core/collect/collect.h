// `collect`: from a scope (nodes + window) to a bundle folder in the loader's
// format. Every source reports ok / empty / error with a reason, per node;
// each source runs on its own threads with its own deadline, so one slow or
// dead source never holds up the others. Nothing is written outside outDir.
#pragma once

#include "collect/scope.h"
#include "model.h"

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace fl {
class RuleSet;
}

namespace fl::collect {

enum class SourceStatus : uint8_t { Ok, Empty, Error };
std::string_view toString(SourceStatus);

struct SourceReport {
    std::string source;              // files | journal | prometheus | loki | slurm-output | scheduler
    std::string node;                // empty: the source as a whole
    SourceStatus status = SourceStatus::Error;
    std::string reason;              // why empty/error; what was found when ok
    std::vector<std::string> files;  // bundle paths written
    uint64_t bytes = 0;
    int64_t ms = 0;                  // wall time (manifest only; never in the result)
};

struct CollectOptions {
    std::string outDir;
    int64_t fromNs = kNoTime;        // collection window; defaults to the scope's window plus margins
    int64_t toNs = kNoTime;
    std::vector<std::string> fileTemplates;   // {node} {rank} {job}, shell globs
    bool journal = true;
    std::string prometheusUrl;
    std::vector<std::string> metrics;          // the series to query: metricsReadBy(rules), or --metrics
    std::vector<std::string> hostLabels{"Hostname", "instance"};
    std::string lokiUrl;
    std::string lokiSelector = "{host=\"{node}\"}";
    std::string lokiOrg;                        // X-Scope-OrgID, for multi-tenant Loki
    uint64_t lokiMaxLines = 500000;
    bool podLogs = true;                        // kubectl logs of each pod of a Kubernetes scope
    std::vector<std::string> kubectlCommand{"kubectl"};
    bool ssh = false;
    std::vector<std::string> sshCommand{"ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10"};
    std::string localHost;                      // this machine's short host name (default: gethostname)
    std::map<std::string, std::chrono::milliseconds> timeouts; // per source; defaultTimeout otherwise
    std::chrono::milliseconds defaultTimeout{60000};
    unsigned parallel = 8;                      // concurrent nodes per source
    uint64_t maxFileBytes = 1ull << 30;
    int64_t rotatedSlackNs = 3600'000'000'000;  // rotated copies older than from - slack are skipped
};

// The metric names the metric rules of `rules` read (docs/rules.md, "Metric rules"), sorted: what
// `collect --prometheus` queries unless --metrics names others. A series no rule reads is not fetched.
std::vector<std::string> metricsReadBy(const RuleSet& rules);

struct CollectResult {
    std::vector<SourceReport> reports;   // sorted by source, node
    int64_t fromNs = kNoTime;
    int64_t toNs = kNoTime;
};

// Writes the bundle into options.outDir (created; must not exist or be empty).
// Throws std::runtime_error only when outDir cannot be used.
CollectResult collect(const Scope& scope, const CollectOptions& options);

// The workload.json text (see docs/bundle-format.md and docs/collector.md).
std::string manifestJson(const Scope& scope, const CollectResult& result);

// Source reports into the result's coverage (connector reports) and warnings,
// so a verdict on partial evidence says what is missing and why.
void addSourceReports(Result& result, const std::vector<SourceReport>& reports);

// --- converters, exposed for tests on recorded answers ---

// `journalctl --output=json` lines -> "2026-12-03T08:00:00.123456Z node ident[pid]: message" lines.
std::string journalJsonToSyslog(std::string_view jsonLines, std::string_view node, uint64_t& entries,
                                uint64_t& badLines);

// A Prometheus query_range answer split by node (the host label's value, port and
// domain stripped); each node's series get a "node" label. Nodes with no series are absent.
// A series whose host label is a scrape address found in `hostOfAddress` (unameAddresses) goes to that node.
std::map<std::string, std::string> splitPrometheusMatrix(std::string_view body, const std::vector<std::string>& nodes,
                                                         const std::vector<std::string>& hostLabels,
                                                         std::string& error,
                                                         const std::map<std::string, std::string>& hostOfAddress = {});

// "10.1.0.4:9100" -> "10.1.0.4", "[fe80::1]:9100" -> "[fe80::1]"; anything without a numeric port as it is.
std::string scrapeAddress(std::string_view instance);

// A Prometheus /api/v1/series answer for node_uname_info: the scrape address (instance, port dropped) of each
// of `nodes` as the machine names itself (nodename, domain dropped), address -> node. A target Prometheus
// scrapes by address carries no host name in any label, so only this finds its series. An address two
// machines claim is left out and said in `conflicts`.
std::map<std::string, std::string> unameAddresses(std::string_view body, const std::vector<std::string>& nodes,
                                                  std::vector<std::string>& conflicts, std::string& error);

// A Loki query_range "streams" answer -> its lines in time order. lastNs: the newest entry.
std::string lokiStreamsToLines(std::string_view body, uint64_t& entries, int64_t& lastNs, std::string& error);

} // namespace fl::collect

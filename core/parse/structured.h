// Structured sources (Slurm accounting, Kubernetes events, metrics) are turned
// into records with a canonical one-line text, so that the same text rules
// match them, and each record keeps the raw location of what it came from.
#pragma once

#include "model.h"

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace fl {

struct StructuredRecord {
    uint64_t offset = 0;      // raw location in the file
    uint32_t length = 0;
    uint32_t line = 1;
    uint32_t lineCount = 1;
    int64_t timeNs = kNoTime;
    TimeBasis basis = TimeBasis::None;
    std::string node;
    int rank = -1;
    Severity severity = Severity::Info;
    std::string text;         // canonical text, e.g. "sacct job=123 step=0 state=NODE_FAIL exit=0:0 nodes=node03"
};

struct ParseIssue {
    uint32_t line = 0;
    std::string message;
};

// Each returns false when the data is not of that format at all.
[[nodiscard]] bool parseSacctJson(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues);
[[nodiscard]] bool parseSacctPipe(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues);
[[nodiscard]] bool parseK8sEvents(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues);

// Cluster state as the tools print it (issue #41 item 6). Each reader's
// canonical text starts with the tool's name, and names the node a record is
// about, so the pod -> node map of `kubectl get pods -o wide` / `describe pod`
// places what happened to a pod on its node.
//   "k8s pod pod=<name> status=<STATUS> restarts=<n> node=<node>"                  kubectl get pods [-o wide]
//   "k8s pod pod=<name> container=<c> state=Terminated reason=<r> exit=<code> signal=<n> last=<yes|no> node=<node> message=<m>"
//   "k8s pod pod=<name> phase=<Failed> reason=<Evicted> node=<node> message=<m>"  describe pod, get pod(s) -o json
//   "k8s node node=<name> condition=<Type> status=<True|False|Unknown> reason=<r> message=<m>"  describe node, get node(s) -o json
[[nodiscard]] bool parseKubectlText(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues);
[[nodiscard]] bool parseK8sObjects(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues);
//   "scontrol job=<id> state=<STATE> reason=<r> exit=<a:b> nodes=<list> failed_node=<node>"
//   "scontrol node=<name> state=<STATE+FLAGS> reason=<r>"
[[nodiscard]] bool parseScontrolShow(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues);
//   "nvidia-smi -q pci=<bus id> minor=<n> <Section>/<Field> : <value>"  (only the fields that report faults)
[[nodiscard]] bool parseNvidiaSmiQuery(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues);
//   "dcgmi diag test=<name> gpu=<n|all> result=<Fail|Warn> message=<m>"
[[nodiscard]] bool parseDcgmiDiag(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues);

struct MetricSample {
    int64_t timeNs = kNoTime;
    double value = 0;
    uint64_t offset = 0;      // raw location of the sample (or of its series in JSON)
    uint32_t line = 1;
    uint32_t length = 0;      // bytes of the sample's text; 0: not measured (metric rules measure what they cite)
};

struct MetricSeries {
    FileId file;
    std::string name;         // "DCGM_FI_DEV_GPU_TEMP", "gpu_temp"
    std::string node;
    int gpu = -1;
    std::map<std::string, std::string> labels;
    std::vector<MetricSample> samples; // sorted by time
};

// What a metrics file adds up to, whatever is kept of it: how many samples were
// read and the times of the first and last timed one (OpenMetrics text may
// leave the time out).
struct MetricsTally {
    int64_t firstNs = kNoTime;
    int64_t lastNs = kNoTime;
    uint64_t samples = 0;
    void add(int64_t ns)
    {
        ++samples;
        if (ns == kNoTime)
            return;
        firstNs = firstNs == kNoTime ? ns : std::min(firstNs, ns);
        lastNs = lastNs == kNoTime ? ns : std::max(lastNs, ns);
    }
    void add(const MetricsTally& o)
    {
        samples += o.samples;
        if (o.firstNs == kNoTime)
            return;
        firstNs = firstNs == kNoTime ? o.firstNs : std::min(firstNs, o.firstNs);
        lastNs = lastNs == kNoTime ? o.lastNs : std::max(lastNs, o.lastNs);
    }
};

// How much of a metrics file the caller keeps. Every row is checked either way
// (a bad row is an issue); a caller that only writes the result document keeps
// nothing, and a CSV of millions of rows is then read without building series.
enum class MetricsKeep { Samples, SeriesOnly, Nothing };

// Metric names whose series keep their samples whatever MetricsKeep says: those metric rules read.
using MetricNames = std::set<std::string, std::less<>>;

// Prometheus query_range / query JSON, OpenMetrics text, CSV "time,node,gpu,metric,value".
[[nodiscard]] bool parseMetrics(std::string_view data, FileId file, std::vector<MetricSeries>& out,
                  std::vector<ParseIssue>& issues);
[[nodiscard]] bool parseMetrics(std::string_view data, FileId file, MetricsKeep keep, std::vector<MetricSeries>& out,
                                MetricsTally& tally, std::vector<ParseIssue>& issues, const MetricNames* judged = nullptr);

} // namespace fl

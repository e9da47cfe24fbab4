// Structured sources (Slurm accounting, Kubernetes events, metrics) are turned
// into records with a canonical one-line text, so that the same text rules
// match them, and each record keeps the raw location of what it came from.
#pragma once

#include "model.h"

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

struct MetricSample {
    int64_t timeNs = kNoTime;
    double value = 0;
    uint64_t offset = 0;      // raw location of the sample (or of its series in JSON)
    uint32_t line = 1;
};

struct MetricSeries {
    FileId file;
    std::string name;         // "DCGM_FI_DEV_GPU_TEMP", "gpu_temp"
    std::string node;
    int gpu = -1;
    std::map<std::string, std::string> labels;
    std::vector<MetricSample> samples; // sorted by time
};

// Prometheus query_range / query JSON, OpenMetrics text, CSV "time,node,gpu,metric,value".
[[nodiscard]] bool parseMetrics(std::string_view data, FileId file, std::vector<MetricSeries>& out,
                  std::vector<ParseIssue>& issues);

} // namespace fl

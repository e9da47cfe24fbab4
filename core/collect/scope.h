// What failed and where: the workload's nodes, time window, state and exit
// codes, from Slurm (sacct --json, scontrol show job), Kubernetes
// (kubectl get -o json) or given by hand. Parsers take recorded text so they
// are tested on real output shapes without a cluster.
#pragma once

#include "model.h"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fl::collect {

struct ScopeStep {
    std::string id;          // "12.0", "12.batch"
    std::string name;
    std::string state;
    std::string exitCode;    // "3:0" (code:signal)
    std::vector<std::string> nodes;
    int tasks = -1;
};

struct Scope {
    std::string scheduler;   // slurm | kubernetes | manual
    std::string workloadId;
    std::string name;
    int attempt = -1;        // 0 = first run; requeues / pod retries count up
    std::vector<std::string> nodes;
    std::map<int, std::string> rankNodes; // only when the scheduler states it
    int tasks = -1;
    int64_t startNs = kNoTime;
    int64_t endNs = kNoTime;
    std::string state;       // FAILED, NODE_FAIL, Failed ...
    std::string reason;
    // The scheduler says the workload ended well (Slurm: exit 0:0 and no step failed, with no reason;
    // Kubernetes: the Complete condition): collect then writes no failure into the manifest and no history row.
    bool succeeded = false;
    std::map<std::string, int> exitCodes; // node or pod/step name -> code
    std::string batchHost;
    std::vector<std::string> outputFiles; // the job's own stdout/stderr paths (Slurm StdOut/StdErr)
    std::vector<ScopeStep> steps;
    std::vector<std::string> notes;       // how the scope was found, fallbacks taken
    // Raw scheduler answers, kept in the bundle as evidence: bundle path -> bytes.
    std::map<std::string, std::string> records;
};

// A node name we will put in a path, a remote command or a query: letters,
// digits, '.', '-', '_' and not starting with '-' or '.'.
bool safeNodeName(std::string_view node);

// sacct --json [-D] for one job id. The last record of the job is the current
// attempt; earlier records of the same id (requeues) count as attempts.
[[nodiscard]] std::optional<Scope> scopeFromSacctJson(std::string_view json, std::string_view jobId, std::string& error);

// `scontrol show job ID` text. Its times carry no zone: they are local time
// of the host that printed them, given here as seconds east of UTC.
[[nodiscard]] std::optional<Scope> scopeFromScontrol(std::string_view text, int utcOffsetSec, std::string& error);

// `kubectl get job NAME -o json` and `kubectl get pods -l job-name=NAME -o json`.
[[nodiscard]] std::optional<Scope> scopeFromKubectl(std::string_view jobJson, std::string_view podsJson, std::string& error);

struct ScopeQueryOptions {
    std::chrono::milliseconds timeout{30000};
    std::vector<std::string> sacct{"sacct"};       // command prefix, e.g. a wrapper
    std::vector<std::string> scontrol{"scontrol"};
    std::vector<std::string> kubectl{"kubectl"};
};

// Runs sacct, falls back to scontrol (saying so in notes); throws
// std::runtime_error with both commands' messages when neither answers.
Scope scopeFromSlurm(const std::string& jobId, const ScopeQueryOptions& options = {});
Scope scopeFromKubernetes(const std::string& namespaceSlashName, const ScopeQueryOptions& options = {});

} // namespace fl::collect

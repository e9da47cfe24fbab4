// Seeded generator of synthetic workload bundles with a known root cause.
// Used for benchmarks and for scoring the engine against ground truth: every
// bundle carries truth.json naming the injected fault and its culprit.
#pragma once

#include "bundle/truth.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fl::synth {

struct Options {
    uint64_t seed = 1;
    int nodes = 8;               // up to 1250
    int gpusPerNode = 8;         // up to 8
    std::string fault = "xid79"; // one of faultKinds(), or "none"
    double clockSkewSec = 0;     // max per-node skew, each node gets a seeded offset in [-skew, +skew]
    // The culprit node's clock runs this far AHEAD of true time (0: seeded like
    // the others). With peerReports its peers' reports then print earlier
    // than its own fault line.
    double culpritAheadSec = 0;
    // A rank killed by its GPU makes its ring neighbours on the previous and
    // next node report NCCL error 12 naming its node's address and the
    // watchdog's "remote process exited" (ncclRemoteError).
    bool peerReports = false;
    // The culprit node's syslog was rotated during the episode: the lines up to
    // just after the episode's first kernel line are lost (the older file is
    // not in the bundle). The driver is R590+, whose teardown Xid 45 says
    // "caused by previous Xid N", so the later lines still name the fault.
    bool rotatedSyslog = false;
    // Syslog and kernel lines stamped as rsyslog's RSYSLOG_FileFormat writes them (RFC 3339 with microseconds,
    // "2026-03-14T10:00:41.123456+00:00 node-03 kernel: ..."), not the classic "Mar 14 10:00:41": the
    // sub-second kernel stamps that order two faults printed in the same second (issue #45).
    bool preciseSyslog = false;
    // Iteration lines only on the last rank, as Megatron's training_log prints
    // them (print_rank_last, megatron/training/training.py): the other ranks'
    // untimed NCCL lines then lie between their start-up lines and the failure.
    bool iterationsOnLastRank = false;
    bool appLogsOnly = false;    // drop syslog, FM, scheduler, metrics
    // How the metrics are written: "csv" (the generator's own columns, which no metric rule reads) or "dcgm"
    // (dcgm-exporter's and node-exporter's series as Prometheus scrapes them, which the metric rules read:
    // scrape-<node>.prom; 15 s, a few failed scrapes, one exporter restart).
    std::string metrics = "csv";
    bool metricsOnly = false;    // write only the manifest and the metrics (a job whose logs were not kept)
    std::vector<std::string> missingSources; // e.g. {"syslog"} on all nodes
    int iterations = 200;        // training steps before the fault (size knob)
    int noiseLevel = 1;          // 0 none, 1 realistic, 2 heavy (benign XID 63, INFO chatter, corrected errors)
    std::string startIso = "2026-03-14T10:00:00Z";
    // How the ranks' output is laid out (the same lines, only the launcher prefix differs):
    // "per-rank" one file per rank; "per-node" one torchrun console per node, lines
    // prefixed "[default<local rank>]:"; "srun" one slurm-<job>.out, lines prefixed
    // "<task id>: " (srun --label, one task per GPU).
    std::string layout = "per-rank";
    // dir/truth.json: off for an exercise, whose answer key must not sit in the folder the learner reads.
    bool writeTruthFile = true;
    // Node names are this prefix and a 4-digit number: another attempt of the job may run on other nodes
    // (synth --baseline names the healthy attempt's nodes "gpu-0001" ...).
    std::string nodePrefix = "node-";
};

// Options::fault of synth --baseline's healthy attempt (not in faultKinds(): nothing to attribute).
inline constexpr const char* kHealthyAttempt = "healthy";

// synth --baseline: the healthy attempt of the same job as `failed` (same seed, so the same benign noise on the
// same places; no fault), started a day earlier on nodes named by `nodePrefix`.
[[nodiscard]] Options healthyAttempt(const Options& failed, const std::string& nodePrefix);

// Layouts accepted in Options::layout.
const std::vector<std::string>& layoutNames();

struct FaultKind {
    std::string id, title;
    Domain domain = Domain::Unknown;
    std::string subDomain, description;
};
const std::vector<FaultKind>& faultKinds();

using Truth = fl::Truth; // core/bundle/truth.h: the one struct for truth.json

// truth.json's document: the truth and the options that made it (under "generator").
nlohmann::ordered_json truthDocument(const Options& options, const Truth& truth);

// Writes the bundle into `dir` (created). Returns the truth that was also written to dir/truth.json
// (unless Options::writeTruthFile is off).
// On failure returns nothing and sets *error (if given).
[[nodiscard]] std::optional<Truth> generate(const Options&, const std::string& dir, std::string* error);

// Source names accepted in Options::missingSources.
const std::vector<std::string>& sourceNames();

} // namespace fl::synth

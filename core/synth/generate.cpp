// Entry point: lays out the world, runs the fault scenario, writes files.
#include "outfile.h"
#include "world.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>

namespace fl::synth {

namespace {

std::string iso(int64_t us)
{
    std::string s;
    appendIso(s, us);
    return s;
}

bool writeText(const std::string& path, const std::string& text, std::string* error)
{
    OutFile f;
    if (!f.open(path, error))
        return false;
    f.put(text);
    return f.close(error);
}

std::string manifestJson(const World& w, const Plan& p)
{
    nlohmann::ordered_json m;
    m["workload_id"] = "slurm-" + std::to_string(w.jobId);
    m["attempt"] = 1;
    m["scheduler"] = "slurm";
    auto nodes = nlohmann::ordered_json::array();
    for (const auto& n : w.node)
        nodes.push_back(n.name);
    m["nodes"] = nodes;
    nlohmann::ordered_json ranks = nlohmann::ordered_json::object();
    for (int r = 0; r < w.ranks; ++r)
        ranks[std::to_string(r)] = {{"node", w.node[size_t(w.nodeOf(r))].name}, {"gpu", w.localOf(r)}};
    m["ranks"] = ranks;
    m["window"] = {{"start", iso(w.tStart)}, {"end", iso(p.jobEnd + 30 * kSec)}};
    nlohmann::ordered_json codes = nlohmann::ordered_json::object();
    for (const auto& [k, v] : p.exitCodes)
        codes[k] = v;
    if (p.jobState != "COMPLETED") // a healthy attempt (synth --baseline) did not fail
        m["failure"] = {{"detected_at", iso(p.detectedAt)}, {"detection_signal", "job_exit"}, {"exit_codes", codes}};
    return m.dump(2) + "\n";
}

} // namespace

nlohmann::ordered_json truthDocument(const Options& opt, const Truth& t)
{
    nlohmann::ordered_json j = truthToJson(t);
    j["generator"] = {{"seed", opt.seed},
                      {"nodes", opt.nodes},
                      {"gpus_per_node", opt.gpusPerNode},
                      {"clock_skew_sec", opt.clockSkewSec},
                      {"culprit_ahead_sec", opt.culpritAheadSec},
                      {"peer_reports", opt.peerReports},
                      {"rotated_syslog", opt.rotatedSyslog},
                      {"precise_syslog", opt.preciseSyslog},
                      {"iterations_on_last_rank", opt.iterationsOnLastRank},
                      {"app_logs_only", opt.appLogsOnly},
                      {"missing_sources", opt.missingSources},
                      {"iterations", opt.iterations},
                      {"noise_level", opt.noiseLevel},
                      {"start", opt.startIso},
                      {"layout", opt.layout}};
    if (opt.metrics != "csv" || opt.metricsOnly) { // written only when asked for: older truth files stay as they were
        j["generator"]["metrics"] = opt.metrics;
        j["generator"]["metrics_only"] = opt.metricsOnly;
    }
    return j;
}

namespace {

// The scenario's truth is what happened; the bundle may not carry the evidence
// to tell it. When the only source that names the cause (kernel log,
// scheduler records) is left out, the truth says what the remaining logs can
// support, so that scoring never rewards a guess. notes keeps what happened.
void honestForSources(const Options& opt, Truth& t, bool xidBeforeScrapes)
{
    auto missing = [&](const char* source) {
        return opt.appLogsOnly ||
               std::find(opt.missingSources.begin(), opt.missingSources.end(), source) != opt.missingSources.end();
    };
    const std::string& f = t.fault;
    auto unattributable = [&](const std::string& why) {
        t.notes += " [" + why + ": truth is unattributed for this bundle]";
        t.status = ResultStatus::Unattributed;
        t.domain.reset();
        t.subDomain.clear();
        t.culpritNode.clear();
        t.culpritRank = -1;
        t.culpritGpu = -1;
        t.alsoAcceptableNodes.clear();
    };
    if (opt.metricsOnly) {
        // The scrapes alone: dcgm-exporter's last-Xid field (its number read through the Xid catalogue) and the
        // rail HCA's port counters name the fault and its GPU or port; nothing else of a failure is in them (a
        // rank that died or hung only leaves its GPU idle, which says where, not why).
        static const std::set<std::string> shown{"xid79",    "xid48",         "xid64",    "xid119",   "xid13",
                                                 "xid74",    "xid149",        "ib_err12", "ib_port_error",
                                                 "pcie_aer", "late_second_fault", "nic_fatal"};
        if (opt.metrics != "dcgm" || !shown.count(f)) {
            unattributable("metrics only: the scrape does not say what failed");
        } else if (f == "pcie_aer") {
            // The GPU behind the failing link fell off the bus: the last-Xid field says 79; the AER itself is
            // only in the kernel log (as without the kernel log below).
            t.notes += " [metrics only: the scrape shows the GPU's Xid 79 (fallen off the bus), not the PCIe error]";
            t.domain = Domain::Gpu;
            t.subDomain = "gpu_lost";
        } else if (f == "nic_fatal") {
            // The HCA's port counters say its link went down; that the HCA itself hit a fatal error is in the
            // kernel's mlx5 lines only.
            t.notes += " [metrics only: the scrape shows the port's link_downed rising, not the HCA's fatal error]";
            t.subDomain = "ib_link";
        } else if (f == "xid74" && opt.gpusPerNode > 1) {
            // Both ends of the link reported Xid 74 within 100 ms: the last-Xid field says 74 on both GPUs in one
            // scrape interval. Which end's register said the fatal bit (0x10000 against the peer's 0x2) is in the
            // kernel lines only: the scrape names the node and the NVLink fault, not the GPU.
            t.notes += " [metrics only: both ends' last-Xid fields turn 74 in one scrape interval; the register bits "
                       "that tell the faulty end are in the kernel lines only: the node, not the GPU]";
            t.culpritGpu = -1;
        } else if (f == "xid149" && xidBeforeScrapes) {
            // The field already says 149 at the first scrape: a value left from before the job, as far as the
            // scrape can tell (no change to date it). The GPU's NVLink counters still tell it: its replays
            // climb through the scrapes and its recovery count steps up when the link goes down.
            t.notes += " [metrics only: the GPU's last Xid was 149 before the first scrape (no change to date it); "
                       "its NVLink replay and recovery counters rising during the job name the link]";
            t.subDomain = "link_errors";
        } else if (f == "xid149") {
            // The field carries the number, not the kernel line's reason code: an NVLink fatal error on this GPU
            // is known (domain-facts.md: Xid 149 is NVLINK_NETIR_ERROR), that signal integrity caused it is not.
            t.notes += " [metrics only: DCGM_FI_DEV_XID_ERRORS says Xid 149 (an NVLink fatal error) on this GPU, "
                       "not the link-down reason code that says signal integrity]";
            t.subDomain = "nvlink_error";
        }
        return;
    }
    // A rotated kernel log lost the episode's first lines: what only they said
    // is gone, what the kernel repeats later (hung tasks, Xid 45 naming its
    // cause, SXids) is kept.
    const bool lostFirst = opt.rotatedSyslog && !missing("syslog");
    const bool noKernel = missing("syslog");
    const bool noScheduler = missing("scheduler");
    // A killed or hung rank stops logging while every other rank times out on
    // the same SeqNum: with the manifest's rank list the silent node is
    // derivable when most ranks still report (absent_ranks, min share 3/4);
    // why it went silent is not.
    const int ranks = opt.nodes * opt.gpusPerNode;
    auto silentNode = [&](int silent, const std::string& why) {
        if (ranks < 2 || 4 * silent > ranks) {
            unattributable(why);
            return;
        }
        t.notes += " [" + why + "; the app logs show the rank(s) of this node going silent while the others time out "
                   "on one SeqNum: the node is derivable, the cause is not]";
        t.domain = Domain::Host;
        t.subDomain = "unresponsive";
    };
    if (lostFirst && noScheduler && f == "oom")
        silentNode(1, "the oom-killer lines were rotated away and there are no scheduler records");
    else if (noKernel && noScheduler && f == "oom")
        silentNode(1, "the app logs show only exit code -9 (SIGKILL), not who killed the rank");
    else if (noKernel && (f == "hung_task" || f == "nfs_hang"))
        silentNode(f == "nfs_hang" ? opt.gpusPerNode : 1, "the culprit rank just stops logging; only the kernel log says why");
    else if (opt.iterationsOnLastRank && f == "straggler")
        silentNode(1, "only the last rank prints step times: the straggler's own times are not in the logs");
    else if (noScheduler && f == "node_fail") {
        // The node's peers report error 12 naming its address; its own ranks just stop (no error,
        // no teardown): a node that went down is derivable, that the scheduler failed it is not.
        t.notes += " [no scheduler records: the app logs show the node's peers losing it while its own ranks "
                   "print nothing, a node that died or hung, not a node failure the scheduler declared]";
        t.domain = Domain::Host;
        t.subDomain = "unresponsive";
    } else if (noScheduler && (f == "preemption" || f == "time_limit" || f == "user_cancel"))
        unattributable("every rank gets SIGTERM; only the scheduler says why");
    else if ((noKernel || lostFirst) && f == "pcie_aer") {
        // The rank still reports CUDA 'unknown error': a lost GPU on that node is derivable, the AER is not.
        t.notes += " [no kernel log: the app logs show a lost GPU (CUDA 'unknown error'), not the PCIe error]";
        t.domain = Domain::Gpu;
        t.subDomain = "gpu_lost";
    }
}

// The culprit node's syslog was cut by logrotate 100 ms after the episode's
// first kernel line (the first one at most 1 s before the fault, else its
// first one at all): that line and the burst printed with it are lost.
void planRotation(const World& w, const Truth& truth, Plan& p)
{
    for (int n = 0; n < w.nodes; ++n) {
        if (w.node[size_t(n)].name != truth.culpritNode)
            continue;
        int64_t first = kNever, any = kNever;
        for (const Line& l : p.sys[size_t(n)]) {
            any = std::min(any, l.t);
            if (l.t >= w.tFault - kSec)
                first = std::min(first, l.t);
        }
        if (first == kNever)
            first = any;
        if (first != kNever)
            p.rotatedAt[size_t(n)] = first + 100 * kMs;
    }
}

// Rewrites the per-rank files of `ranks` into one file, each line behind its
// launcher prefix, and removes them. Streams one line at a time.
bool combineRankLogs(const std::vector<std::pair<std::string, std::string>>& rankFiles, const std::string& path,
                     std::string* error)
{
    OutFile out;
    if (!out.open(path, error))
        return false;
    for (const auto& [file, prefix] : rankFiles) {
        std::ifstream in(file, std::ios::binary);
        if (!in) {
            if (error)
                *error = file + ": cannot read back";
            return false;
        }
        std::string line;
        while (std::getline(in, line)) {
            out.buf() += prefix;
            out.buf() += line;
            out.buf() += '\n';
            out.commit();
        }
        in.close();
        std::error_code ec;
        std::filesystem::remove(file, ec);
    }
    return out.close(error);
}

// One file per rank, then the layout's combined files (one torchrun console
// per node, or one srun --label file completed by appendSrunOutput).
bool writeAppLogs(const World& w, Plan& p, const std::string& dir, std::string* error)
{
    std::vector<std::vector<std::pair<std::string, std::string>>> byNode(size_t(w.nodes));
    std::vector<std::pair<std::string, std::string>> all;
    for (int r = 0; r < w.ranks; ++r) {
        const std::string path = dir + "/applog-" + w.node[size_t(w.nodeOf(r))].name + "-rank" + std::to_string(r) + ".log";
        if (!writeRankLog(w, p, r, path, error))
            return false;
        byNode[size_t(w.nodeOf(r))].emplace_back(path, "[default" + std::to_string(w.localOf(r)) + "]:");
        all.emplace_back(path, std::to_string(r) + ": ");
    }
    if (w.opt.layout == "per-node") {
        for (int n = 0; n < w.nodes; ++n)
            if (!combineRankLogs(byNode[size_t(n)], dir + "/applog-" + w.node[size_t(n)].name + ".log", error))
                return false;
    } else if (w.opt.layout == "srun") {
        if (!combineRankLogs(all, dir + "/slurm-" + std::to_string(w.jobId) + ".out.tasks", error))
            return false;
    }
    return true;
}

// srun's own messages ("srun: error: ... task 17: Exited") end the same stdout file.
bool appendSrunOutput(const World& w, const std::string& dir, std::string* error)
{
    const std::string out = dir + "/slurm-" + std::to_string(w.jobId) + ".out";
    std::error_code ec;
    if (std::filesystem::exists(out, ec)) {
        std::ifstream in(out, std::ios::binary);
        std::ofstream app(out + ".tasks", std::ios::binary | std::ios::app);
        app << in.rdbuf();
        if (!app) {
            if (error)
                *error = out + ": write failed (disk full?)";
            return false;
        }
    }
    std::filesystem::rename(out + ".tasks", out, ec);
    if (ec) {
        if (error)
            *error = out + ": cannot rename: " + ec.message();
        return false;
    }
    return true;
}

} // namespace

const std::vector<std::string>& layoutNames()
{
    static const std::vector<std::string> names{"per-rank", "per-node", "srun"};
    return names;
}

std::optional<Truth> generate(const Options& opt, const std::string& dir, std::string* error)
{
    World w;
    if (!setupWorld(opt, w, error))
        return std::nullopt;
    Plan p;
    if (std::find(layoutNames().begin(), layoutNames().end(), opt.layout) == layoutNames().end()) {
        if (error)
            *error = "unknown layout '" + opt.layout + "' (per-rank, per-node, srun)";
        return std::nullopt;
    }
    Truth truth = buildScenario(w, p);
    if (opt.rotatedSyslog)
        planRotation(w, truth, p);
    // Whether the culprit GPU's last-Xid field already held the fault's number at the first scrape
    // (dcgm-exporter scrapes every 15 s from the first whole interval after the job starts: scrape.cpp).
    bool xidBeforeScrapes = false;
    for (size_t n = 0; n < w.node.size(); ++n)
        if (w.node[n].name == truth.culpritNode && truth.culpritGpu >= 0 && size_t(truth.culpritGpu) < p.fx[n].gpu.size()) {
            const GpuFx& g = p.fx[n].gpu[size_t(truth.culpritGpu)];
            const int64_t firstScrape = (w.tStart / (15 * kSec) + 1) * (15 * kSec);
            const int64_t own = std::min({g.lostAt, g.dbeAt, g.nvlinkAt});
            xidBeforeScrapes = g.xid != 0 && (g.xidAt != kNever ? g.xidAt : own != kNever ? own : w.tFault) < firstScrape;
        }
    honestForSources(opt, truth, xidBeforeScrapes);

    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) {
        if (error)
            *error = dir + ": cannot create folder: " + (ec ? ec.message() : std::string("not a folder"));
        return std::nullopt;
    }
    auto want = [&](const char* source) {
        if (opt.appLogsOnly && std::string(source) != "applog")
            return false;
        if (opt.metricsOnly && std::string(source) != "metrics")
            return false;
        return std::find(opt.missingSources.begin(), opt.missingSources.end(), source) == opt.missingSources.end();
    };
    auto failed = [] { return std::optional<Truth>(); };

    if (!writeText(dir + "/workload.json", manifestJson(w, p), error)
        || (opt.writeTruthFile && !writeText(dir + "/truth.json", truthDocument(opt, truth).dump(2) + "\n", error)))
        return failed();
    if (want("applog") && !writeAppLogs(w, p, dir, error))
        return failed();
    for (int n = 0; n < w.nodes; ++n) {
        const std::string& name = w.node[size_t(n)].name;
        if (want("syslog") && !writeSyslog(w, p, n, dir + "/syslog-" + name + ".log", error))
            return failed();
        if (want("fabricmanager") && !writeFabricManager(w, p, n, dir + "/fabricmanager-" + name + ".log", error))
            return failed();
        if (want("metrics") && opt.metrics == "csv" && !writeMetrics(w, p, n, dir + "/metrics-" + name + ".csv", error))
            return failed();
        if (want("metrics") && opt.metrics == "dcgm" && !writeScrape(w, p, n, dir + "/scrape-" + name + ".prom", error))
            return failed();
    }
    if (want("scheduler") && !writeScheduler(w, p, dir, error))
        return failed();
    if (want("applog") && opt.layout == "srun" && !appendSrunOutput(w, dir, error))
        return failed();
    return truth;
}

} // namespace fl::synth

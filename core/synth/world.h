// The simulated cluster and the plan of what each file will contain.
// A fault scenario (cascade.cpp) fills the plan with injected lines and the
// life span of every rank; the writers (background.cpp) merge those lines
// with the normal output of a training job and format them per file.
#pragma once

#include "clock.h"
#include "rng.h"
#include "synth.h"

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace fl::synth {

inline constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

// How a planned line is prefixed when written; the time printed is always
// the node's skewed clock.
enum class Pfx : uint8_t {
    Raw,       // as is: NCCL lines, agent tracebacks, srun output
    C10,       // "[W314 10:00:05.123456789 " text            (c10 logging outside a rank)
    Rank,      // "[rankR]:" text
    RankGlog,  // "[rankR]:[E314 10:55:12.345678901 " text   (c10 logging)
    RankStamp, // "[rankR]: [2026-03-14 10:00:00] " text     (Megatron)
    Agent,     // "E0314 10:55:13.862000 <pid> " text        (torchrun, python glog)
    Kernel,    // "Mar 14 10:45:00 host kernel: [uptime] " text
    Daemon,    // "Mar 14 10:45:00 host <tag>: " text
    Fm,        // "[Mar 14 2026 10:45:00] [<tag>] [tid N] " text
};

struct Line {
    int64_t t = 0;       // true time (us); the node's skew is added when printing
    uint32_t ord = 0;    // insertion order, keeps multi-line records together
    Pfx pfx = Pfx::Raw;
    char level = 'E';
    std::string tag;
    std::string text;
};

struct Node {
    std::string name, ip;
    int64_t skew = 0;     // us added to every timestamp this node prints
    int64_t boot = 0;     // true boot time, for kernel uptime stamps
    int agentPid = 0;
    int basePid = 0;      // rank pids are basePid + local rank
    int fmTid = 0;
    std::array<std::string, 8> uuid;
    std::array<uint64_t, 8> serial{};
};

struct RankState {
    int64_t end = kNever;      // process exit (true time)
    int exitCode = 0;          // torchrun style: 1, -6, -9, -11, -15
    bool selfFailed = false;   // died on its own (not SIGTERM from its agent)
    bool silent = false;       // hung: prints nothing more, never times out
    int64_t stopIter = kNever; // no iteration lines at or after this time
    bool noInit = false;       // died before NCCL init
};

struct GpuFx {
    int64_t lostAt = kNever;     // no samples from here
    int64_t dbeAt = kNever;      // ecc_dbe_volatile becomes 1
    int64_t nvlinkAt = kNever;   // nvlink_crc_errors and the replays they cause start climbing
    int64_t linkDownAt = kNever; // the NVLink recovery count steps up: a link went down and retrained
    int64_t ibAt = kNever;       // rail HCA counters jump
    int sbe = 0;                 // corrected errors (noise)
    int xid = 0;                 // the fault's Xid on this GPU (R590 Xid 45 "caused by previous Xid N")
    int64_t xidAt = kNever;      // its first Xid line, when dcgm-exporter's last-Xid field changes (kNever: the first of the above)
};

struct NodeFx {
    std::array<GpuFx, 8> gpu;
    int64_t deadAt = kNever;      // node stops printing and reporting
    bool fmDown = false;          // fabric manager not running: no multicast team setup
};

struct Plan {
    std::vector<std::vector<Line>> rank;   // per rank application log
    std::vector<std::vector<Line>> sys;    // per node syslog
    std::vector<std::vector<Line>> fm;     // per node fabric manager log
    std::vector<Line> slurmOut;            // slurm-<job>.out (Raw, time only orders)
    std::vector<Line> slurmctld;           // slurmctld.log (Raw, time only orders)
    std::vector<RankState> rs;
    std::vector<NodeFx> fx;
    std::vector<int64_t> teardown;         // per node: agent noticed a failure (kNever if not)
    std::vector<int64_t> taskExit;         // per node: torchrun exit
    std::vector<int> taskCode;             // per node: torchrun exit code
    std::vector<int64_t> rotatedAt;        // per node: syslog lines before this true time were rotated away
    int64_t jobEnd = 0;
    std::string jobState = "FAILED";       // sacct
    std::string jobExit = "1:0";
    std::string stepState = "FAILED";
    std::string failedNode;                // sacct FailedNode
    int64_t timeLimitSec = 2 * 86400;
    std::vector<std::pair<std::string, int>> exitCodes; // manifest failure.exit_codes
    int64_t detectedAt = 0;
    uint32_t ord = 0;
};

struct World {
    Options opt;
    Rng rng{1};
    uint64_t jobId = 0;
    int nodes = 0, gpus = 0, ranks = 0;
    std::vector<Node> node;
    int64_t tStart = 0;      // allocation / job start
    int64_t tLaunch = 0;     // torchrun starts workers
    int64_t tInit = 0;       // NCCL communicator init
    int64_t tTrain0 = 0;     // first training step begins
    int64_t stepUs = 0;      // time per iteration
    int64_t tFault = 0;      // injected fault (true time)
    int64_t seqPerIter = 0;  // collectives per step on the default PG
    int64_t seqBase = 0;     // collectives before training
    int timeoutMs = 600000;
    int totalIters = 0;      // the --train-iters the job was launched with
    int saveInterval = 0;
    int nanIter = -1;        // nan_loss: first iteration whose loss is NaN
    // straggler: this rank's own step time is slowFactor x from iteration slowFrom
    // (the time it spends in its forward/backward, as per-rank step timers print it).
    int slowRank = -1;
    int slowFrom = 0;
    double slowFactor = 1;
    std::vector<int64_t> iterEnd; // iterEnd[i]: true time iteration i (1-based) is logged
    std::string masterAddr;

    int nodeOf(int r) const { return r / gpus; }
    int localOf(int r) const { return r % gpus; }
    int rankOf(int n, int local) const { return n * gpus + local; }
    int pidOf(int r) const { return node[size_t(nodeOf(r))].basePid + localOf(r); }
    // Collective sequence number of the op a rank enqueues at time t.
    int64_t seqAt(int64_t t) const;
    int iterAt(int64_t t) const; // iterations completed by t
};

// PCI bus of GPU i ("0000:1b:00"), the layout of an HGX H100 board.
const char* gpuBus(int i);
// NVSwitch PCI address ("0000:05:00.0").
const char* switchBus(int i);
// Upstream PCIe port of GPU i.
const char* gpuRootPort(int i);
// BDF of the rail HCA next to GPU i ("0000:1a:00.0").
const char* hcaBus(int i);

// Validates options and lays out nodes, clocks and the training timeline.
bool setupWorld(const Options& opt, World& w, std::string* error);
void setupPlan(const World& w, Plan& p);

// Fills the plan for the fault in w.opt and returns the truth.
Truth buildScenario(World& w, Plan& p);
// Whether buildScenario has a builder of its own for this fault kind.
bool hasScenario(const std::string& fault);

// Writers; each returns false with *error set on I/O failure.
bool writeRankLog(const World& w, Plan& p, int rank, const std::string& path, std::string* error);
bool writeSyslog(const World& w, Plan& p, int node, const std::string& path, std::string* error);
bool writeFabricManager(const World& w, Plan& p, int node, const std::string& path, std::string* error);
bool writeMetrics(const World& w, const Plan& p, int node, const std::string& path, std::string* error);
// Options::metrics "dcgm": dcgm-exporter and node-exporter series as Prometheus scraped them (synth/scrape.cpp).
bool writeScrape(const World& w, const Plan& p, int node, const std::string& path, std::string* error);
bool writeScheduler(const World& w, Plan& p, const std::string& dir, std::string* error);
std::string hostList(const World& w); // node-[0001-0008]

} // namespace fl::synth

#include "world.h"

#include <algorithm>

namespace fl::synth {

namespace {
// HGX H100 board layout (DGX H100 bus numbers).
constexpr const char* kGpuBus[8] = {"0000:1b:00", "0000:43:00", "0000:52:00", "0000:61:00",
                                    "0000:9d:00", "0000:c3:00", "0000:d1:00", "0000:df:00"};
constexpr const char* kRootPort[8] = {"0000:17:01.0", "0000:3f:01.0", "0000:4e:01.0", "0000:5d:01.0",
                                      "0000:99:01.0", "0000:bf:01.0", "0000:cd:01.0", "0000:db:01.0"};
constexpr const char* kHcaBus[8] = {"0000:1a:00.0", "0000:40:00.0", "0000:4f:00.0", "0000:5e:00.0",
                                    "0000:9a:00.0", "0000:c0:00.0", "0000:ce:00.0", "0000:dc:00.0"};
constexpr const char* kSwitchBus[4] = {"0000:05:00.0", "0000:06:00.0", "0000:07:00.0", "0000:08:00.0"};

std::string uuidFor(Rng& rng)
{
    std::string s = "GPU-";
    const int groups[5] = {8, 4, 4, 4, 12};
    for (int gi = 0; gi < 5; ++gi) {
        if (gi)
            s.push_back('-');
        for (int i = 0; i < groups[gi]; ++i)
            s.push_back("0123456789abcdef"[rng.range(0, 15)]);
    }
    return s;
}
} // namespace

const char* gpuBus(int i) { return kGpuBus[i & 7]; }
const char* switchBus(int i) { return kSwitchBus[i & 3]; }
const char* gpuRootPort(int i) { return kRootPort[i & 7]; }
const char* hcaBus(int i) { return kHcaBus[i & 7]; }

int World::iterAt(int64_t t) const
{
    // iterEnd is sorted; count entries <= t (index 0 is a sentinel).
    auto it = std::upper_bound(iterEnd.begin() + 1, iterEnd.end(), t);
    return int(it - (iterEnd.begin() + 1));
}

int64_t World::seqAt(int64_t t) const
{
    if (t < tTrain0)
        return t < tInit ? 0 : seqBase;
    const int done = iterAt(t);
    int64_t seq = seqBase + int64_t(done) * seqPerIter;
    if (size_t(done + 1) < iterEnd.size()) {
        const int64_t from = iterEnd[size_t(done)], to = iterEnd[size_t(done + 1)];
        if (to > from)
            seq += (t - from) * seqPerIter / (to - from);
    }
    return seq;
}

namespace {

// Why the options cannot make a world, or empty when they can.
std::string optionsError(const Options& opt)
{
    if (opt.nodes < 1 || opt.nodes > 1250)
        return "nodes must be between 1 and 1250";
    if (opt.gpusPerNode < 1 || opt.gpusPerNode > 8)
        return "gpusPerNode must be between 1 and 8";
    if (opt.iterations < 1 || opt.iterations > 10'000'000)
        return "iterations must be between 1 and 10000000";
    if (opt.noiseLevel < 0 || opt.noiseLevel > 2)
        return "noiseLevel must be 0, 1 or 2";
    if (!(opt.clockSkewSec >= 0 && opt.clockSkewSec <= 86400))
        return "clockSkewSec must be between 0 and 86400";
    if (!(opt.culpritAheadSec >= 0 && opt.culpritAheadSec <= 86400))
        return "culpritAheadSec must be between 0 and 86400";
    bool known = false;
    for (const auto& k : faultKinds())
        known = known || k.id == opt.fault;
    known = known || opt.fault == kHealthyAttempt; // not a fault kind: the matrix does not score it
    if (!known)
        return "unknown fault kind '" + opt.fault + "'";
    if (opt.metrics != "csv" && opt.metrics != "dcgm")
        return "unknown metrics format '" + opt.metrics + "' (csv, dcgm)";
    if (opt.metricsOnly && opt.appLogsOnly)
        return "metrics only and app logs only exclude each other";
    for (const auto& m : opt.missingSources)
        if (std::find(sourceNames().begin(), sourceNames().end(), m) == sourceNames().end())
            return "unknown source '" + m + "' in missingSources (known: applog, fabricmanager, metrics, "
                   "scheduler, syslog)";
    return {};
}

// Job start-up, the iteration times shared by all ranks (synchronous data
// parallel) and the fault inside the step after the last logged one.
void layOutTimeline(const Options& opt, World& w)
{
    Rng jr = w.rng.fork(1);
    w.jobId = uint64_t(jr.range(100000, 999999));
    w.tLaunch = w.tStart + jr.range(2 * kSec, 5 * kSec);
    w.tInit = w.tLaunch + jr.range(14 * kSec, 25 * kSec);
    w.tTrain0 = w.tInit + jr.range(20 * kSec, 40 * kSec);
    w.stepUs = jr.range(2600 * kMs, 3800 * kMs);
    w.seqPerIter = jr.range(3, 9);
    w.seqBase = jr.range(8, 40);
    w.totalIters = std::max(10000, (opt.iterations * 5 + 999) / 1000 * 1000);
    w.saveInterval = opt.iterations >= 400 ? 200 : std::max(10, opt.iterations / 2);
    w.masterAddr = opt.nodePrefix + "0001";

    const int nIter = opt.iterations + 64;
    w.iterEnd.assign(size_t(nIter) + 1, 0);
    w.iterEnd[0] = w.tTrain0;
    Rng ir = w.rng.fork(2);
    for (int i = 1; i <= nIter; ++i) {
        const int64_t jitter = ir.range(-w.stepUs / 40, w.stepUs / 40);
        // The first steps are slower (warm-up, allocator growth).
        const int64_t warm = i <= 3 ? w.stepUs * (4 - i) / 2 : 0;
        w.iterEnd[size_t(i)] = w.iterEnd[size_t(i - 1)] + w.stepUs + jitter + warm;
    }
    Rng fr = w.rng.fork(3);
    w.tFault = w.iterEnd[size_t(opt.iterations)] + fr.range(w.stepUs / 10, w.stepUs * 9 / 10);
}

// Names, addresses, clocks, boot times, pids and GPU identities, one seeded stream per node.
void layOutNodes(const Options& opt, World& w)
{
    w.node.resize(size_t(w.nodes));
    const int64_t skewUs = int64_t(opt.clockSkewSec * double(kSec));
    for (int n = 0; n < w.nodes; ++n) {
        Node& nd = w.node[size_t(n)];
        Rng nr = w.rng.fork(1000 + uint64_t(n));
        std::string num = std::to_string(n + 1);
        nd.name = opt.nodePrefix + std::string(4 - std::min<size_t>(4, num.size()), '0') + num;
        nd.ip = "10.64." + std::to_string(n / 250) + "." + std::to_string(n % 250 + 1);
        nd.skew = skewUs > 0 ? nr.range(-skewUs, skewUs) : 0;
        nd.boot = w.tStart - nr.range(3 * 86400 * kSec, 60 * 86400 * kSec);
        nd.agentPid = int(nr.range(20000, 90000));
        nd.basePid = nd.agentPid + int(nr.range(40, 400));
        nd.fmTid = int(nr.range(800, 3000));
        for (int g = 0; g < 8; ++g) {
            nd.uuid[size_t(g)] = uuidFor(nr);
            nd.serial[size_t(g)] = uint64_t(nr.range(1650000000000LL, 1659999999999LL));
        }
    }
}

} // namespace

bool setupWorld(const Options& opt, World& w, std::string* error)
{
    std::string problem = optionsError(opt);
    if (problem.empty() && !parseIsoUtc(opt.startIso, &w.tStart))
        problem = "startIso must look like 2026-03-14T10:00:00Z, got '" + opt.startIso + "'";
    if (!problem.empty()) {
        if (error)
            *error = std::move(problem);
        return false;
    }
    w.opt = opt;
    w.rng = Rng(opt.seed);
    w.nodes = opt.nodes;
    w.gpus = opt.gpusPerNode;
    w.ranks = w.nodes * w.gpus;
    layOutTimeline(opt, w);
    layOutNodes(opt, w);
    return true;
}

void setupPlan(const World& w, Plan& p)
{
    p.rank.assign(size_t(w.ranks), {});
    p.sys.assign(size_t(w.nodes), {});
    p.fm.assign(size_t(w.nodes), {});
    p.rs.assign(size_t(w.ranks), {});
    p.fx.assign(size_t(w.nodes), {});
    p.teardown.assign(size_t(w.nodes), kNever);
    p.taskExit.assign(size_t(w.nodes), kNever);
    p.taskCode.assign(size_t(w.nodes), 0);
    p.rotatedAt.assign(size_t(w.nodes), kNever);
}

} // namespace fl::synth

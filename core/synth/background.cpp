// The normal output of a healthy training job (start-up, NCCL init,
// iteration lines, checkpoints, benign kernel noise, telemetry), merged with
// the fault scenario's lines and written file by file.
#include "outfile.h"
#include "world.h"

#include <algorithm>
#include <cmath>

namespace fl::synth {

namespace {

constexpr const char* kCkptDir = "/checkpoints/gpt-175b";


void pad(std::string& s, int64_t v, int width) { appendPadded(s, v, width, ' '); }

void formatLine(std::string& out, const World& w, int n, int r, const Line& l)
{
    const Node& nd = w.node[size_t(n)];
    const int64_t t = l.t + nd.skew;
    const int nano = int((uint64_t(l.t) * 7 + uint64_t(r) * 131 + l.ord) % 1000);
    switch (l.pfx) {
    case Pfx::Raw:
        break;
    case Pfx::C10:
        out.push_back('[');
        appendGlog(out, l.level, t, nano);
        out.push_back(' ');
        break;
    case Pfx::Rank:
        out += "[rank";
        appendInt(out, r);
        out += "]:";
        break;
    case Pfx::RankGlog:
        out += "[rank";
        appendInt(out, r);
        out += "]:[";
        appendGlog(out, l.level, t, nano);
        out.push_back(' ');
        break;
    case Pfx::RankStamp:
        out += "[rank";
        appendInt(out, r);
        out += "]: [";
        appendPyDate(out, t);
        out += "] ";
        break;
    case Pfx::Agent:
        appendGlog(out, l.level, t, -1);
        out.push_back(' ');
        appendInt(out, nd.agentPid);
        out.push_back(' ');
        break;
    case Pfx::Kernel:
        w.opt.preciseSyslog ? appendRfc3339Micro(out, t) : appendSyslogTime(out, t);
        out.push_back(' ');
        out += nd.name;
        out += " kernel: ";
        appendUptime(out, l.t - nd.boot);
        out.push_back(' ');
        break;
    case Pfx::Daemon:
        w.opt.preciseSyslog ? appendRfc3339Micro(out, t) : appendSyslogTime(out, t);
        out.push_back(' ');
        out += nd.name;
        out.push_back(' ');
        out += l.tag;
        out += ": ";
        break;
    case Pfx::Fm:
        out.push_back('[');
        appendFmTime(out, t);
        out += "] [";
        out += l.tag;
        out += "] [tid ";
        appendInt(out, nd.fmTid);
        out += "] ";
        break;
    }
    out += l.text;
    out.push_back('\n');
}

void sortLines(std::vector<Line>& v)
{
    std::stable_sort(v.begin(), v.end(), [](const Line& a, const Line& b) {
        return a.t != b.t ? a.t < b.t : a.ord < b.ord;
    });
}

bool writeSorted(const World& w, std::vector<Line>& lines, int n, int r, const std::string& path, std::string* error)
{
    sortLines(lines);
    OutFile out;
    if (!out.open(path, error))
        return false;
    for (const auto& l : lines) {
        formatLine(out.buf(), w, n, r, l);
        out.commit();
    }
    return out.close(error);
}

struct Bg {
    std::vector<Line>& v;
    uint32_t ord = 0;
    void add(int64_t t, Pfx pfx, std::string text, char level = 'I', std::string tag = {})
    {
        v.push_back(Line{t, ord++, pfx, level, std::move(tag), std::move(text)});
    }
};

std::string head(const World& w, int r, int tid)
{
    const int pid = w.pidOf(r);
    std::string s = w.node[size_t(w.nodeOf(r))].name;
    s.push_back(':');
    appendInt(s, pid);
    s.push_back(':');
    appendInt(s, pid + tid);
    s += " [";
    appendInt(s, w.localOf(r));
    s += "] NCCL INFO ";
    return s;
}

void ncclInit(const World& w, Bg& bg, int r, int64_t t0)
{
    const int n = w.nodeOf(r), l = w.localOf(r);
    const Node& nd = w.node[size_t(n)];
    const std::string h0 = head(w, r, 0), h = head(w, r, 73);
    const std::string bus = std::string(gpuBus(l)).substr(5, 2) + "000";
    std::string comm = "0x";
    appendHex(comm, 0x55d400000000ull + mix64(w.opt.seed + uint64_t(r)) % 0xffffffull * 16, 12);
    std::string commId = "0x";
    appendHex(commId, mix64(w.opt.seed ^ 0xc0ffee), 16);
    const int level = w.opt.noiseLevel;
    int64_t t = t0;
    auto at = [&](std::string s) { bg.add(t, Pfx::Raw, std::move(s)); t += 1500; };
    std::string nets;
    for (int i = 0; i < w.gpus; ++i)
        nets += "[" + std::to_string(i) + "]mlx5_" + std::to_string(i) + ":1/IB ";
    at(h0 + "cudaDriverVersion 12040");
    at(h0 + "Bootstrap : Using eth0:" + nd.ip + "<0>");
    if (r == 0)
        at(h0 + "NCCL version 2.21.5+cuda12.4");
    at(h + "NET/Plugin: No plugin found (libnccl-net.so)");
    at(h + "NET/IB : Using " + nets + "[RO]; OOB eth0:" + nd.ip + "<0>");
    at(h + "Using non-device net plugin version 0");
    at(h + "Using network IB");
    at(h + "comm " + comm + " rank " + std::to_string(r) + " nranks " + std::to_string(w.ranks) + " cudaDev "
       + std::to_string(l) + " nvmlDev " + std::to_string(l) + " busId " + bus + " commId " + commId + " - Init START");
    if (level >= 1) {
        at(h + "Setting affinity for GPU " + std::to_string(l) + " to " + (l < 4 ? "ffffffff,00000000,ffffffff" : "ffffffff,00000000,ffffffff,00000000"));
        at(h + "NVLS multicast support is available on dev " + std::to_string(l));
        at(h + "comm " + comm + " rank " + std::to_string(r) + " nRanks " + std::to_string(w.ranks) + " nNodes "
           + std::to_string(w.nodes) + " localRanks " + std::to_string(w.gpus) + " localRank " + std::to_string(l)
           + " MNNVL 0");
        const int prev = (r + w.ranks - 1) % w.ranks, next = (r + 1) % w.ranks;
        at(h + "Trees [0] " + std::to_string(next) + "/-1/-1->" + std::to_string(r) + "->" + std::to_string(prev)
           + " [1] " + std::to_string(next) + "/-1/-1->" + std::to_string(r) + "->" + std::to_string(prev));
        at(h + "P2P Chunksize set to 524288");
    }
    const int channels = level == 0 ? 0 : level == 1 ? 2 : 8;
    const int next = (r + 1) % w.ranks;
    const bool crossNode = w.nodeOf(next) != n;
    for (int c = 0; c < channels; ++c) {
        std::string cs = c < 10 ? "0" + std::to_string(c) : std::to_string(c);
        if (crossNode)
            at(h + "Channel " + cs + "/0 : " + std::to_string(r) + "[" + std::to_string(l) + "] -> " + std::to_string(next)
               + "[" + std::to_string(w.localOf(next)) + "] [send] via NET/IB/" + std::to_string(l));
        else
            at(h + "Channel " + cs + "/0 : " + std::to_string(r) + "[" + std::to_string(l) + "] -> " + std::to_string(next)
               + "[" + std::to_string(w.localOf(next)) + "] via P2P/CUMEM/read");
    }
    if (level >= 1) {
        at(h + "Connected all rings");
        at(h + "Connected all trees");
        at(h + "threadThresholds 8/8/64 | " + std::to_string(8 * w.ranks) + "/8/64 | 512 | 512");
        at(h + "24 coll channels, 24 collnet channels, 16 nvls channels, 32 p2p channels, 32 p2p channels per peer");
    }
    if (level >= 2) {
        at(h + "NCCL_IB_GID_INDEX set by environment to 3.");
        at(h + "NCCL_IB_TIMEOUT set by environment to 22.");
        at(h + "CC Off, Multi-GPU CC Off, workFifoBytes 1048576");
        at(h + "TUNER/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-tuner.so");
        at(h + "TUNER/Plugin: Using internal tuner plugin.");
    }
    at(h + "comm " + comm + " rank " + std::to_string(r) + " nranks " + std::to_string(w.ranks) + " cudaDev "
       + std::to_string(l) + " nvmlDev " + std::to_string(l) + " busId " + bus + " commId " + commId + " - Init COMPLETE");
}

double lossAt(const World& w, int i)
{
    double loss = 2.0 + 8.5 * std::exp(-double(i) / 400.0) + 0.06 * (hashUnit(w.opt.seed, uint64_t(i), 1) - 0.5);
    if (w.nanIter > 0 && i > w.nanIter - 4)
        loss *= 1.0 + 0.9 * double(i - (w.nanIter - 4));
    return loss;
}

std::string iterationText(const World& w, int i, int r)
{
    std::string s = "iteration ";
    pad(s, i, 8);
    s.push_back('/');
    pad(s, w.totalIters, 8);
    s += " | consumed samples: ";
    pad(s, int64_t(i) * 1024, 12);
    double ms = double(w.iterEnd[size_t(i)] - w.iterEnd[size_t(i - 1)]) / 1000.0;
    if (r == w.slowRank && i >= w.slowFrom)
        ms *= w.slowFactor;
    s += " | elapsed time per iteration (ms): ";
    appendFixed(s, ms, 1);
    s += " | throughput per GPU (TFLOP/s/GPU): ";
    appendFixed(s, 400.0 * double(w.stepUs) / 1000.0 / ms, 1);
    s += " | learning rate: ";
    appendSci(s, 1.5e-4 * std::min(1.0, double(i) / 2000.0), 6);
    s += " | global batch size:  1024 | lm loss: ";
    const bool nan = w.nanIter > 0 && i >= w.nanIter;
    appendSci(s, nan ? std::nan("") : lossAt(w, i), 6);
    s += " | loss scale: 1.0 | grad norm: ";
    double gn = 0.6 + 0.5 * hashUnit(w.opt.seed, uint64_t(i), 2);
    if (w.nanIter > 0 && i > w.nanIter - 4)
        gn *= std::pow(40.0, double(i - (w.nanIter - 4)));
    appendFixed(s, nan ? std::nan("") : gn, 3);
    s += " | number of skipped iterations:   0 | number of nan iterations: ";
    pad(s, nan ? 1 : 0, 3);
    s += " |";
    return s;
}

// torchrun's OMP_NUM_THREADS banner, once per node (in local rank 0's file).
void agentBanner(const World& w, Bg& bg)
{
    bg.add(w.tLaunch, Pfx::Agent, "torch/distributed/run.py:793] ", 'W');
    bg.add(w.tLaunch, Pfx::Agent, "torch/distributed/run.py:793] *****************************************", 'W');
    bg.add(w.tLaunch, Pfx::Agent, "torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable for "
                                  "each process to be 1 in default, to avoid your system being overloaded, please "
                                  "further tune the variable for optimal performance in your application as needed. ", 'W');
    bg.add(w.tLaunch, Pfx::Agent, "torch/distributed/run.py:793] *****************************************", 'W');
}

// Megatron's argument dump on rank 0.
void megatronArguments(const World& w, Bg& bg, int64_t t0)
{
    bg.add(t0, Pfx::Rank, "using world size: " + std::to_string(w.ranks) + ", data-parallel size: "
                              + std::to_string(std::max(1, w.ranks / 8)) + ", context-parallel size: 1, "
                              "tensor-model-parallel size: " + std::to_string(std::min(8, w.gpus))
                              + ", pipeline-model-parallel size: 1 ");
    bg.add(t0, Pfx::Rank, "------------------------ arguments ------------------------");
    const char* args[] = {"  accumulate_allreduce_grads_in_fp32 .............. True",
                          "  bf16 ............................................ True",
                          "  ckpt_format ..................................... torch_dist",
                          "  distributed_backend ............................. nccl",
                          "  distributed_timeout_minutes ..................... 10",
                          "  global_batch_size ............................... 1024",
                          "  hidden_size ..................................... 12288",
                          "  lr .............................................. 0.00015",
                          "  micro_batch_size ................................ 1",
                          "  num_attention_heads ............................. 96",
                          "  num_layers ...................................... 96",
                          "  save ............................................ /checkpoints/gpt-175b",
                          "  seq_length ...................................... 2048",
                          "  train_iters ..................................... "};
    for (const char* a : args) {
        std::string s = a;
        if (s.back() == ' ')
            s += std::to_string(w.totalIters);
        bg.add(t0, Pfx::Rank, s);
    }
    bg.add(t0, Pfx::Rank, "-------------------- end of arguments ---------------------");
    bg.add(t0 + 200 * kMs, Pfx::Rank, "> initializing torch distributed ...");
}

// Megatron's timer block (min and max across ranks), every 10th step at heavy noise.
void timerBlock(Bg& bg, int64_t t, double ms)
{
    bg.add(t, Pfx::Rank, "(min, max) time across ranks (ms):");
    auto row = [&](const char* head, double lo, double hi) {
        std::string s = head;
        appendFixed(s, ms * lo, 2);
        s += ", ";
        appendFixed(s, ms * hi, 2);
        s += ")";
        bg.add(t, Pfx::Rank, s);
    };
    row("    forward-backward ...............................: (", 0.97, 0.975);
    row("    optimizer ......................................: (", 0.021, 0.024);
}

// Iteration lines up to `limit`, and rank 0's checkpoint saves.
void trainingSteps(const World& w, int r, Bg& bg, int64_t limit)
{
    const int64_t offset = int64_t(mix64(w.opt.seed ^ uint64_t(r)) % 40) * kMs;
    for (size_t i = 1; i < w.iterEnd.size(); ++i) {
        const int64_t t = w.iterEnd[i] + offset;
        if (w.iterEnd[i] >= limit)
            break;
        if (w.opt.iterationsOnLastRank && r != w.ranks - 1 && !(r == 0 && int(i) % w.saveInterval == 0))
            continue;
        bg.add(t, Pfx::RankStamp, iterationText(w, int(i), r));
        if (w.opt.noiseLevel >= 2 && i % 10 == 0)
            timerBlock(bg, t, double(w.iterEnd[i] - w.iterEnd[i - 1]) / 1000.0);
        if (r == 0 && int(i) % w.saveInterval == 0) {
            std::string it;
            pad(it, int64_t(i), 8);
            bg.add(t + 100 * kMs, Pfx::RankStamp, "saving checkpoint at iteration " + it + " to " + kCkptDir + " in torch_dist format");
            if (t + 14 * kSec < limit)
                bg.add(t + 14 * kSec, Pfx::Rank, "  successfully saved checkpoint from iteration " + it + " to " + kCkptDir
                                                     + " [ t 1/" + std::to_string(std::min(8, w.gpus)) + ", p 1/1 ]");
        }
    }
}

void rankBackground(const World& w, const Plan& p, int r, Bg& bg)
{
    const RankState& st = p.rs[size_t(r)];
    if (st.stopIter <= w.tLaunch && st.noInit)
        return; // never started (rendezvous never completed)
    const int l = w.localOf(r);
    const int64_t t0 = w.tLaunch + 900 * kMs + int64_t(l) * 37 * kMs;
    if (l == 0)
        agentBanner(w, bg);
    if (r == 0)
        megatronArguments(w, bg, t0);
    if (!st.noInit || st.end > w.tInit)
        ncclInit(w, bg, r, w.tInit + int64_t(l) * 23 * kMs + int64_t(mix64(uint64_t(r)) % 400) * kMs);
    if (r == 0) {
        std::string s = "[after megatron is initialized] datetime: ";
        appendPyDate(s, w.tInit + 6 * kSec + w.node[0].skew);
        bg.add(w.tInit + 6 * kSec, Pfx::Rank, s);
        bg.add(w.tInit + 7 * kSec, Pfx::Rank, "> building train, validation, and test datasets ...");
        s = "[before the start of training step] datetime: ";
        appendPyDate(s, w.tTrain0 + w.node[0].skew);
        bg.add(w.tTrain0, Pfx::Rank, s);
    }
    trainingSteps(w, r, bg, std::min({st.stopIter, st.end, w.tFault}));
}

} // namespace

bool writeRankLog(const World& w, Plan& p, int r, const std::string& path, std::string* error)
{
    std::vector<Line> lines;
    Bg bg{lines};
    rankBackground(w, p, r, bg);
    const int64_t end = p.rs[size_t(r)].end;
    // Background output stops with the process; injected lines are the
    // scenario's and always kept (they include the agent's, which outlives it).
    lines.erase(std::remove_if(lines.begin(), lines.end(),
                               [&](const Line& l) { return l.t >= end && l.pfx != Pfx::Agent; }),
                lines.end());
    auto& inj = p.rank[size_t(r)];
    for (auto& l : inj) {
        l.ord += 1u << 24; // after background lines printed at the same instant
        lines.push_back(std::move(l));
    }
    std::vector<Line>().swap(inj);
    return writeSorted(w, lines, w.nodeOf(r), r, path, error);
}

namespace {

// A node's benign syslog traffic: cron, mlx5 register polls, corrected PCIe
// AER, the cluster's few benign Xid 63, EDAC corrected errors at heavy noise.
void syslogNoise(const World& w, int n, Bg& bg, int64_t from, int64_t to)
{
    const int level = w.opt.noiseLevel;
    Rng nr = w.rng.fork(5000 + uint64_t(n));
    int cronPid = int(nr.range(100000, 900000));
    for (int64_t t = from + nr.range(0, 300 * kSec); t < to; t += 300 * kSec)
        bg.add(t, Pfx::Daemon, "(root) CMD (/usr/sbin/nvidia-healthcheck --quiet >/dev/null 2>&1)", 'I',
               "CRON[" + std::to_string(cronPid++) + "]");
    const bool polls = level >= 2 || mix64(w.opt.seed ^ uint64_t(n) * 31) % 3 == 0;
    if (polls) {
        const int64_t every = level >= 2 ? 30 * kSec : 120 * kSec;
        const int pid = int(nr.range(1000000, 1999999));
        for (int64_t t = from + nr.range(0, every); t < to; t += every) {
            const int hca = int(nr.range(0, w.gpus - 1));
            bg.add(t, Pfx::Kernel, std::string("mlx5_core ") + hcaBus(hca) + ": mlx5_cmd_out_err:838:(pid "
                                       + std::to_string(pid) + "): ACCESS_REG(0x805) op_mod(0x1) failed, status bad "
                                       "resource(0x5), syndrome (0x305684), err(-22)");
        }
    }
    const int aerGroups = level >= 2 ? int(nr.range(1, 4)) : (mix64(w.opt.seed ^ uint64_t(n) * 57) % 7 == 0 ? 1 : 0);
    for (int k = 0; k < aerGroups; ++k) {
        const int64_t t = nr.range(from, to);
        const char* port = "0000:00:03.0";
        bg.add(t, Pfx::Kernel, std::string("pcieport ") + port + ": AER: Corrected error received: " + port);
        bg.add(t, Pfx::Kernel, std::string("pcieport ") + port + ": PCIe Bus Error: severity=Corrected, type=Data Link Layer, (Transmitter ID)");
        bg.add(t, Pfx::Kernel, std::string("pcieport ") + port + ":   device [8086:347a] error status/mask=00001000/00002000");
        bg.add(t, Pfx::Kernel, std::string("pcieport ") + port + ":    [12] Timeout               ");
    }
    // Benign row-remap notices (Xid 63) on a few GPUs across the cluster.
    const int benign = level >= 2 ? 3 : 1;
    for (int k = 0; k < benign; ++k) {
        Rng br = w.rng.fork(6300 + uint64_t(k));
        const int bn = int(br.range(0, w.nodes - 1));
        const int bg_ = int(br.range(0, w.gpus - 1));
        const int64_t t = br.range(w.tTrain0, std::max(w.tTrain0 + 1, w.tFault - 30 * kSec));
        if (bn == n)
            bg.add(t, Pfx::Kernel, std::string("NVRM: Xid (PCI:") + gpuBus(bg_) + "): 63, pid="
                                       + std::to_string(w.pidOf(w.rankOf(n, bg_))) + ", Row Remapper: New row marked for remapping, reset gpu to activate");
    }
    if (level >= 2) {
        const int ce = int(nr.range(0, 3));
        for (int k = 0; k < ce; ++k)
            bg.add(nr.range(from, to), Pfx::Kernel,
                   "EDAC MC" + std::to_string(k % 2) + ": 1 CE memory read error on CPU_SrcID#" + std::to_string(k % 2)
                       + "_MC#0_Chan#1_DIMM#0 (channel:1 slot:0 page:0x" + std::to_string(nr.range(10000, 99999))
                       + " offset:0x0 grain:32 syndrome:0x0 - err_code:0x0000:0x009f)");
    }
}

// The driver prints a GPU's identity before its first Xid since boot.
std::vector<Line> withGpuIdentity(const World& w, const Node& nd, std::vector<Line> lines)
{
    std::vector<Line> out;
    out.reserve(lines.size() + 16);
    std::array<bool, 8> seen{};
    const std::string xidHead = "NVRM: Xid (PCI:";
    for (auto& l : lines) {
        if (l.pfx == Pfx::Kernel && l.text.compare(0, xidHead.size(), xidHead) == 0) {
            for (int g = 0; g < w.gpus; ++g) {
                if (seen[size_t(g)] || l.text.compare(xidHead.size(), 10, gpuBus(g)) != 0)
                    continue;
                seen[size_t(g)] = true;
                out.push_back(Line{l.t, l.ord, Pfx::Kernel, 'I', {},
                                   std::string("NVRM: GPU at PCI:") + gpuBus(g) + ": " + nd.uuid[size_t(g)]});
                out.push_back(Line{l.t, l.ord, Pfx::Kernel, 'I', {},
                                   "NVRM: GPU Board Serial Number: " + std::to_string(nd.serial[size_t(g)])});
            }
        }
        out.push_back(std::move(l));
    }
    return out;
}

} // namespace

bool writeSyslog(const World& w, Plan& p, int n, const std::string& path, std::string* error)
{
    std::vector<Line> lines;
    Bg bg{lines};
    if (w.opt.noiseLevel >= 1)
        syslogNoise(w, n, bg, w.tStart - 60 * kSec, p.jobEnd + 60 * kSec);
    const int64_t dead = p.fx[size_t(n)].deadAt;
    lines.erase(std::remove_if(lines.begin(), lines.end(), [&](const Line& l) { return l.t >= dead; }), lines.end());
    for (auto& l : p.sys[size_t(n)]) {
        if (l.t >= dead)
            continue;
        l.ord += 1u << 24;
        lines.push_back(std::move(l));
    }
    std::vector<Line>().swap(p.sys[size_t(n)]);
    // A rotated file begins where logrotate cut it; the older file is not in the bundle.
    const int64_t rotated = p.rotatedAt[size_t(n)];
    if (rotated != kNever)
        lines.erase(std::remove_if(lines.begin(), lines.end(), [&](const Line& l) { return l.t < rotated; }),
                    lines.end());
    sortLines(lines);
    const std::vector<Line> out = withGpuIdentity(w, w.node[size_t(n)], std::move(lines));
    OutFile f;
    if (!f.open(path, error))
        return false;
    for (const auto& l : out) {
        formatLine(f.buf(), w, n, -1, l);
        f.commit();
    }
    return f.close(error);
}

bool writeFabricManager(const World& w, Plan& p, int n, const std::string& path, std::string* error)
{
    std::vector<Line> lines;
    Bg bg{lines};
    const auto& fx = p.fx[size_t(n)];
    bool started = false;
    for (int l = 0; l < w.gpus; ++l)
        started = started || !p.rs[size_t(w.rankOf(n, l))].noInit;
    if (!fx.fmDown && started) {
        const int teams = w.opt.noiseLevel >= 2 ? 4 : 1;
        for (int k = 0; k < teams; ++k) {
            const int64_t t = w.tInit + 2 * kSec + int64_t(k) * 700 * kMs;
            std::string handles;
            for (int g = 0; g < w.gpus; ++g) {
                handles += g ? " " : "";
                handles += std::to_string(mix64(w.opt.seed ^ (uint64_t(n) << 8) ^ uint64_t(g)) % 9000000000000000000ull);
            }
            const std::string id = std::to_string(mix64(w.opt.seed ^ uint64_t(n) ^ uint64_t(k + 1) << 40) % 9000000000000000000ull);
            bg.add(t, Pfx::Fm, "Team setup request: Allocation Size:60000000 Flags:0 Number of GPUs:" + std::to_string(w.gpus)
                                   + " GPU Handles:" + handles, 'I', "INFO");
            bg.add(t + 3 * kMs, Pfx::Fm, "successfully setup multicast team for request id " + id + ".", 'I', "INFO");
            bg.add(t + 4 * kMs, Pfx::Fm, "multicast group " + std::to_string(k) + " is allocated.", 'I', "INFO");
        }
    }
    const int64_t dead = fx.deadAt;
    lines.erase(std::remove_if(lines.begin(), lines.end(), [&](const Line& l) { return l.t >= dead; }), lines.end());
    for (auto& l : p.fm[size_t(n)])
        if (l.t < dead)
            lines.push_back(std::move(l));
    std::vector<Line>().swap(p.fm[size_t(n)]);
    return writeSorted(w, lines, n, -1, path, error);
}

bool writeMetrics(const World& w, const Plan& p, int n, const std::string& path, std::string* error)
{
    OutFile f;
    if (!f.open(path, error))
        return false;
    f.put("time,node,gpu,metric,value\n");
    const auto& fx = p.fx[size_t(n)];
    const Node& nd = w.node[size_t(n)];
    const int64_t from = (w.tStart / (10 * kSec) + 1) * 10 * kSec;
    const int64_t to = std::min(p.jobEnd + 30 * kSec, fx.deadAt);
    static const char* const kNames[] = {"gpu_temp_c",     "gpu_power_w",     "gpu_util_pct", "gpu_mem_used_mib",
                                         "ecc_dbe_volatile", "nvlink_crc_errors", "ib_link_downed", "ib_symbol_error"};
    std::string stamp;
    for (int64_t t = from; t < to; t += 10 * kSec) {
        stamp.clear();
        // Scraped by a central collector: its clock, not the node's.
        appendIso(stamp, t);
        for (int g = 0; g < w.gpus; ++g) {
            const GpuFx& gx = fx.gpu[size_t(g)];
            if (t >= gx.lostAt)
                continue;
            const RankState& st = p.rs[size_t(w.rankOf(n, g))];
            const double u = hashUnit(w.opt.seed ^ uint64_t(n) << 20, uint64_t(t / kSec), uint64_t(g));
            double temp, power, util, mem;
            if (t < w.tInit || t >= st.end) {
                temp = 34 + 4 * u;
                power = 88 + 10 * u;
                util = 0;
                mem = t < w.tInit || st.end == kNever ? 4 : 0;
            } else if (t < w.tTrain0) {
                temp = 38 + 4 * u;
                power = 120 + 20 * u;
                util = 3 + 5 * u;
                mem = 18000 + 500 * u;
            } else if (t < st.stopIter) {
                temp = 62 + 14 * u;
                power = 560 + 140 * u;
                util = 96 + 4 * u;
                mem = 72000 + 4000 * u;
            } else if (st.silent) {
                temp = 44 + 4 * u;
                power = 130 + 20 * u;
                util = 0;
                mem = 74000;
            } else {
                // NCCL kernels spinning on a collective that never completes.
                temp = 50 + 6 * u;
                power = 260 + 40 * u;
                util = 100;
                mem = 74000;
            }
            const int64_t dbe = t >= gx.dbeAt ? 1 : 0;
            const int64_t crc = t >= gx.nvlinkAt ? (t - gx.nvlinkAt) / kSec * 13 + 40 : 0;
            const int64_t downed = (t >= gx.ibAt ? 1 : 0) + int64_t(mix64(uint64_t(n) * 8 + uint64_t(g)) % 3);
            const int64_t sym = t >= gx.ibAt ? 65535 : int64_t(mix64(uint64_t(n) * 8 + uint64_t(g) + 99) % 5);
            const double vals[] = {temp, power, util, mem, double(dbe), double(crc), double(downed), double(sym)};
            for (int m = 0; m < 8; ++m) {
                std::string& b = f.buf();
                b += stamp;
                b.push_back(',');
                b += nd.name;
                b.push_back(',');
                appendInt(b, g);
                b.push_back(',');
                b += kNames[m];
                b.push_back(',');
                if (m < 2)
                    appendFixed(b, vals[m], 1);
                else
                    appendInt(b, int64_t(std::llround(vals[m])));
                b.push_back('\n');
            }
            f.commit();
        }
    }
    return f.close(error);
}

std::string hostList(const World& w)
{
    if (w.nodes == 1)
        return w.node[0].name;
    const size_t prefix = w.opt.nodePrefix.size();
    return w.opt.nodePrefix + "[" + w.node.front().name.substr(prefix) + "-" + w.node.back().name.substr(prefix) + "]";
}

namespace {
void appendElapsed(std::string& s, int64_t us)
{
    int64_t secs = std::max<int64_t>(0, us / kSec);
    if (secs >= 86400) {
        appendInt(s, secs / 86400);
        s.push_back('-');
        secs %= 86400;
    }
    appendPadded(s, secs / 3600, 2);
    s.push_back(':');
    appendPadded(s, secs / 60 % 60, 2);
    s.push_back(':');
    appendPadded(s, secs % 60, 2);
}

// sacct -P: the job, its batch and extern steps, and the torchrun step.
bool writeSacct(const World& w, const Plan& p, const std::string& path, std::string* error)
{
    const std::string job = std::to_string(w.jobId);
    const std::string hosts = hostList(w);
    OutFile f;
    if (!f.open(path, error))
        return false;
    auto row = [&](const std::string& id, const std::string& name, const std::string& part, int cpus,
                   const std::string& state, const std::string& exit, const std::string& derived,
                   const std::string& nodes, const std::string& failed, bool limit) {
        std::string& b = f.buf();
        b += id + "|" + name + "|" + part + "|llm|";
        appendInt(b, cpus);
        b += "|" + state + "|" + exit + "|" + derived + "|";
        appendIsoLocal(b, w.tStart);
        b.push_back('|');
        appendIsoLocal(b, p.jobEnd);
        b.push_back('|');
        appendElapsed(b, p.jobEnd - w.tStart);
        b.push_back('|');
        if (limit)
            appendElapsed(b, p.timeLimitSec * kSec);
        b += "|" + nodes + "|" + failed + "\n";
    };
    f.put("JobID|JobName|Partition|Account|AllocCPUS|State|ExitCode|DerivedExitCode|Start|End|Elapsed|Timelimit|NodeList|FailedNode\n");
    const std::string shortState = p.jobState.rfind("CANCELLED", 0) == 0 ? "CANCELLED" : p.jobState;
    const std::string stepExit = p.stepState == "FAILED" ? "1:0" : p.stepState == "OUT_OF_MEMORY" ? "0:125" : "0:15";
    row(job, "pretrain_gpt", "gpu", 112 * w.nodes, p.jobState, p.jobExit, "0:0", hosts, p.failedNode, true);
    row(job + ".batch", "batch", "", 112, shortState, p.jobExit, "", w.node[0].name, "", false);
    row(job + ".extern", "extern", "", 112 * w.nodes, "COMPLETED", "0:0", "", hosts, "", false);
    row(job + ".0", "torchrun", "", 112 * w.nodes, p.stepState, stepExit, "", hosts, "", false);
    return f.close(error);
}

// Lines whose text is already complete (srun output, slurmctld), one a line.
bool writeRawLines(const std::string& path, const std::vector<Line>& lines, std::string* error)
{
    OutFile f;
    if (!f.open(path, error))
        return false;
    for (const auto& l : lines) {
        f.buf() += l.text;
        f.buf().push_back('\n');
        f.commit();
    }
    return f.close(error);
}

// slurmctld.log: the scenario's lines between the allocation and the job's completion.
std::vector<Line> slurmctldLines(const World& w, const Plan& p)
{
    const std::string job = std::to_string(w.jobId);
    auto stampLine = [](int64_t t, const std::string& text) {
        std::string s = "[";
        appendIsoLocal(s, t);
        s.push_back('.');
        appendPadded(s, t / kMs % 1000, 3);
        s += "] " + text;
        return s;
    };
    std::vector<Line> lines = p.slurmctld;
    const int64_t alloc = w.tStart - 800 * kMs;
    lines.push_back(Line{alloc, 0, Pfx::Raw, 'I', {},
                         stampLine(alloc, "sched: Allocate JobId=" + job + " NodeList=" + hostList(w) + " #CPUs="
                                              + std::to_string(112 * w.nodes) + " Partition=gpu")});
    const bool signalled = p.jobExit != "1:0";
    lines.push_back(Line{p.jobEnd, 1u << 30, Pfx::Raw, 'I', {},
                         stampLine(p.jobEnd, "_job_complete: JobId=" + job
                                                 + (signalled ? " WTERMSIG 15" : " WEXITSTATUS 1"))});
    lines.push_back(Line{p.jobEnd, (1u << 30) + 1, Pfx::Raw, 'I', {},
                         stampLine(p.jobEnd, "_job_complete: JobId=" + job + " done")});
    sortLines(lines);
    return lines;
}

} // namespace

bool writeScheduler(const World& w, Plan& p, const std::string& dir, std::string* error)
{
    if (!writeSacct(w, p, dir + "/sacct.txt", error))
        return false;
    sortLines(p.slurmOut);
    return writeRawLines(dir + "/slurm-" + std::to_string(w.jobId) + ".out", p.slurmOut, error)
           && writeRawLines(dir + "/slurmctld.log", slurmctldLines(w, p), error);
}

} // namespace fl::synth

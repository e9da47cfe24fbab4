// Fault scenarios: what each injected fault prints, where, and when, and how
// the failure spreads through the job (watchdog timeouts on the victims,
// torchrun tear-down per node, srun and Slurm records).
#include "world.h"

#include <algorithm>

namespace fl::synth {

namespace {

constexpr const char* kPy = "/usr/local/lib/python3.10/dist-packages/";
constexpr const char* kMegatron = "/workspace/Megatron-LM/";
constexpr const char* kNcclVersion = "2.21.5";

std::string str(int64_t v) { return std::to_string(v); }

std::string hex(uint64_t v, int width)
{
    std::string s;
    appendHex(s, v, width);
    return s;
}

class Sim {
public:
    Sim(World& w, Plan& p) : w(w), p(p), rng(w.rng.fork(77)) {}

    World& w;
    Plan& p;
    Rng rng;

    // ------------------------------------------------------------ emitting

    void add(std::vector<Line>& v, int64_t t, Pfx pfx, char level, std::string tag, std::string text)
    {
        v.push_back(Line{t, ++p.ord, pfx, level, std::move(tag), std::move(text)});
    }
    void rank(int r, int64_t t, Pfx pfx, std::string text, char level = 'E')
    {
        add(p.rank[size_t(r)], t, pfx, level, {}, std::move(text));
    }
    void kern(int n, int64_t t, std::string text) { add(p.sys[size_t(n)], t, Pfx::Kernel, 'E', {}, std::move(text)); }
    void daemon(int n, int64_t t, std::string tag, std::string text)
    {
        add(p.sys[size_t(n)], t, Pfx::Daemon, 'I', std::move(tag), std::move(text));
    }
    void fm(int n, int64_t t, std::string level, std::string text)
    {
        add(p.fm[size_t(n)], t, Pfx::Fm, 'E', std::move(level), std::move(text));
    }
    void agent(int n, int64_t t, char level, std::string text)
    {
        add(p.rank[size_t(w.rankOf(n, 0))], t, Pfx::Agent, level, {}, std::move(text));
    }
    void agentRaw(int n, int64_t t, std::string text)
    {
        add(p.rank[size_t(w.rankOf(n, 0))], t, Pfx::Raw, 'E', {}, std::move(text));
    }
    void srun(int64_t t, std::string text) { add(p.slurmOut, t, Pfx::Raw, 'E', {}, std::move(text)); }
    void ctld(int64_t t, std::string text)
    {
        std::string s = "[";
        appendIsoLocal(s, t);
        s += "." + std::to_string(t / kMs % 1000 + 1000).substr(1) + "] " + text;
        add(p.slurmctld, t, Pfx::Raw, 'E', {}, std::move(s));
    }

    const Node& nd(int n) const { return w.node[size_t(n)]; }
    std::string host(int r) const { return nd(w.nodeOf(r)).name; }
    std::string rtag(int r) const { return "[Rank " + str(r) + "]"; }
    std::string pg(int r) const { return "[PG 0 (default_pg) Rank " + str(r) + "]"; }
    // "<host>:<pid>:<tid> [<dev>]" of NCCL lines; tid is a proxy/async thread.
    std::string ncclHead(int r, int tidOffset) const
    {
        const int pid = w.pidOf(r);
        return host(r) + ":" + str(pid) + ":" + str(pid + tidOffset) + " [" + str(w.localOf(r)) + "]";
    }
    std::string xid(int g) const { return std::string("NVRM: Xid (PCI:") + gpuBus(g) + "): "; }
    std::string ipPort(int n) { return nd(n).ip + "<" + str(rng.range(32768, 60999)) + ">"; }

    int64_t jitter(int64_t lo, int64_t hi) { return rng.range(lo, hi); }

    // ------------------------------------------------------------ lifecycle

    bool alive(int r, int64_t t) const { return p.rs[size_t(r)].end > t; }

    void stopAt(int r, int64_t t)
    {
        auto& s = p.rs[size_t(r)];
        s.stopIter = std::min(s.stopIter, t);
    }

    void die(int r, int64_t t, int code)
    {
        auto& s = p.rs[size_t(r)];
        if (s.end <= t)
            return;
        s.end = t;
        s.exitCode = code;
        s.selfFailed = true;
        stopAt(r, t);
    }

    void hang(int r, int64_t t)
    {
        p.rs[size_t(r)].silent = true;
        stopAt(r, t);
    }

    // Frames of a c10 exception, as PyTorch prints them under the message.
    void c10Frames(int r, int64_t t, const std::string& where, const std::vector<std::string>& frames)
    {
        rank(r, t, Pfx::Rank, "Exception raised from " + where + " (most recent call first):");
        uint64_t addr = 0x7f3c00000000ull + uint64_t(w.pidOf(r)) * 0x1000ull;
        for (size_t i = 0; i < frames.size(); ++i) {
            addr += 0x1a2b3ull * (i + 1);
            rank(r, t, Pfx::Rank, "frame #" + str(int64_t(i)) + ": " + frames[i] + " (0x" + hex(addr, 12) + " in " + kPy
                                      + "torch/lib/" + (i == 0 ? "libc10.so" : "libtorch_cuda.so") + ")");
        }
        rank(r, t, Pfx::Rank, "");
    }

    // A CUDA error surfacing in the NCCL watchdog: the culprit's signature.
    void cudaWatchdog(int r, int64_t t, const std::string& err)
    {
        const std::string what = pg(r) + " Process group watchdog thread terminated with exception: " + err;
        rank(r, t, Pfx::RankGlog, "ProcessGroupNCCL.cpp:1595] " + what);
        rank(r, t, Pfx::Rank,
             "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below "
             "might be incorrect.");
        rank(r, t, Pfx::Rank, "For debugging consider passing CUDA_LAUNCH_BLOCKING=1");
        rank(r, t, Pfx::Rank, "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.");
        rank(r, t, Pfx::Rank, "");
        c10Frames(r, t, "c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:43",
                  {"c10::Error::Error(c10::SourceLocation, std::string) + 0x96",
                   "c10::cuda::c10_cuda_check_implementation(int, char const*, char const*, int, bool) + 0x118",
                   "c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const + 0x56",
                   "c10d::ProcessGroupNCCL::WorkNCCL::isCompleted() + 0x58",
                   "c10d::ProcessGroupNCCL::watchdogHandler() + 0x1f8",
                   "c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0xe9"});
        rank(r, t + 40, Pfx::Rank, "terminate called after throwing an instance of 'c10::DistBackendError'");
        rank(r, t + 40, Pfx::Rank, "  what():  " + what);
        die(r, t + jitter(50 * kMs, 400 * kMs), -6);
        if (w.opt.peerReports)
            peerReports(r);
    }

    // The ring neighbours of a rank that died (the same local rank on the
    // previous and the next node) lose their IB peer: NCCL prints "Got
    // completion from peer <its address> with error 12" (untimed) and the
    // watchdog "remote process exited or there was a network error"
    // (ncclRemoteError, stamped) on their own clocks.
    void peerReports(int r)
    {
        const int n = w.nodeOf(r);
        const int64_t dead = p.rs[size_t(r)].end;
        const int64_t seq = w.seqAt(w.tFault) + 1;
        const int prevNode = (n + w.nodes - 1) % w.nodes, nextNode = (n + 1) % w.nodes;
        for (int m : {prevNode, nextNode}) {
            const int v = w.rankOf(m, w.localOf(r));
            if (m == n || (m == nextNode && nextNode == prevNode) || !alive(v, dead))
                continue;
            ibError(v, n, dead + jitter(300 * kMs, 2 * kSec), m == prevNode, seq);
        }
    }

    // An NCCL async error (network) ending the process, with the NCCL WARN
    // text repeated as "Last error".
    void ncclAsyncError(int r, int64_t t, int64_t seq, const std::string& lastError, bool remote)
    {
        rank(r, t, Pfx::RankGlog,
             "ProcessGroupNCCL.cpp:1785] " + pg(r) + " Exception (either an error or timeout) detected by watchdog at work: "
                 + str(seq) + ", last enqueued NCCL work: " + str(seq) + ", last completed NCCL work: " + str(seq - 1)
                 + ".");
        const std::string err = remote ? std::string("NCCL error: remote process exited or there was a network error, "
                                                     "NCCL version ")
                                             + kNcclVersion
                                       : std::string("NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for "
                                                     "details), NCCL version ")
                                             + kNcclVersion;
        const std::string what = pg(r) + " Process group watchdog thread terminated with exception: " + rtag(r)
                                 + " Collective WorkNCCL(SeqNum=" + str(seq)
                                 + ", OpType=ALLREDUCE, NumelIn=" + str(numel) + ", NumelOut=" + str(numel)
                                 + ", Timeout(ms)=" + str(w.timeoutMs) + ") raised the following async exception: " + err;
        rank(r, t, Pfx::RankGlog, "ProcessGroupNCCL.cpp:1595] " + what);
        rank(r, t, Pfx::Rank,
             remote ? "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting "
                      "prematurely. "
                    : "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device "
                      "error. ");
        rank(r, t, Pfx::Rank, "Last error:");
        rank(r, t, Pfx::Rank, lastError);
        rank(r, t + 30, Pfx::Rank, "terminate called after throwing an instance of 'c10::DistBackendError'");
        rank(r, t + 30, Pfx::Rank, "  what():  " + what);
        die(r, t + jitter(60 * kMs, 300 * kMs), -6);
    }

    // NCCL's error trace: the WARN line and the "-> <ncclResult_t>" chain.
    void ncclWarnChain(int r, int64_t t, const std::string& warn, int result, const std::vector<std::string>& sites,
                       const std::string& lastSuffix)
    {
        const std::string h = ncclHead(r, 137);
        rank(r, t, Pfx::Raw, h + " " + warn);
        for (size_t i = 0; i < sites.size(); ++i)
            rank(r, t, Pfx::Raw,
                 h + " NCCL INFO " + sites[i] + " -> " + str(result) + (i + 1 == sites.size() ? lastSuffix : ""));
    }

    void pyTraceback(int r, int64_t t, const std::vector<std::pair<std::string, std::string>>& frames,
                     const std::vector<std::string>& exception, int code)
    {
        rank(r, t, Pfx::Rank, " Traceback (most recent call last):");
        for (const auto& [where, code_] : frames) {
            rank(r, t, Pfx::Rank, "   File \"" + where);
            rank(r, t, Pfx::Rank, "     " + code_);
        }
        for (const auto& e : exception)
            rank(r, t, Pfx::Rank, " " + e);
        rank(r, t + jitter(200 * kMs, 900 * kMs), Pfx::RankGlog,
             "ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been destroyed before we destruct "
             "ProcessGroupNCCL. On normal program exit, the application should call destroy_process_group to ensure "
             "that any pending NCCL operations have finished in this process. In rare cases this process can exit "
             "before this point and block the progress of another member of the process group. This constraint has "
             "always been present,  but this warning has only been added since PyTorch 2.4 (function operator())",
             'W');
        die(r, t + jitter(1 * kSec, 2 * kSec), code);
    }

    std::vector<std::pair<std::string, std::string>> trainFrames() const
    {
        const std::string m = kMegatron;
        return {{m + "pretrain_gpt.py\", line 265, in <module>", "pretrain("},
                {m + "megatron/training/training.py\", line 360, in pretrain",
                 "iteration, num_floating_point_operations_so_far = train("},
                {m + "megatron/training/training.py\", line 1269, in train", "train_step(forward_step_func,"},
                {m + "megatron/training/training.py\", line 712, in train_step",
                 "losses_reduced = forward_backward_func("}};
    }

    // ------------------------------------------------------------ cascade

    int64_t numel = 131137536;

    // Every rank that is still running and not hung when `opStart + timeout`
    // arrives reports the watchdog timeout on `seq` and aborts.
    void timeouts(int64_t opStart, int64_t seq, const char* opType, int64_t opNumel, int64_t killBy = kNever)
    {
        for (int r = 0; r < w.ranks; ++r) {
            auto& s = p.rs[size_t(r)];
            if (s.silent || s.noInit)
                continue;
            const int64_t ranFor = int64_t(w.timeoutMs) + jitter(3, 1800);
            const int64_t t = opStart + ranFor * kMs;
            if (t >= killBy || !alive(r, t) || p.fx[size_t(w.nodeOf(r))].deadAt <= t)
                continue;
            stopAt(r, opStart);
            const std::string work = "WorkNCCL(SeqNum=" + str(seq) + ", OpType=" + opType + ", NumelIn=" + str(opNumel)
                                     + ", NumelOut=" + str(opNumel) + ", Timeout(ms)=" + str(w.timeoutMs) + ")";
            const std::string caught = rtag(r) + " Watchdog caught collective operation timeout: " + work + " ran for "
                                       + str(ranFor) + " milliseconds before timing out.";
            rank(r, t, Pfx::RankGlog, "ProcessGroupNCCL.cpp:616] " + caught);
            rank(r, t, Pfx::RankGlog,
                 "ProcessGroupNCCL.cpp:1785] " + pg(r) + " Exception (either an error or timeout) detected by watchdog "
                     "at work: " + str(seq) + ", last enqueued NCCL work: " + str(seq) + ", last completed NCCL work: "
                     + str(seq - 1) + ".");
            rank(r, t, Pfx::RankGlog,
                 "ProcessGroupNCCL.cpp:1834] " + pg(r) + " Timeout at NCCL work: " + str(seq)
                     + ", last enqueued NCCL work: " + str(seq) + ", last completed NCCL work: " + str(seq - 1) + ".");
            rank(r, t, Pfx::RankGlog,
                 "ProcessGroupNCCL.cpp:630] " + rtag(r) + " Some NCCL operations have failed or timed out. Due to the "
                     "asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete "
                     "data.");
            rank(r, t, Pfx::RankGlog,
                 "ProcessGroupNCCL.cpp:636] " + rtag(r) + " To avoid data inconsistency, we are taking the entire "
                     "process down.");
            const std::string what = pg(r) + " Process group watchdog thread terminated with exception: " + caught;
            rank(r, t, Pfx::RankGlog, "ProcessGroupNCCL.cpp:1595] " + what);
            c10Frames(r, t, "checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:618",
                      {"c10::Error::Error(c10::SourceLocation, std::string) + 0x96",
                       "c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, "
                       "std::ratio<1l, 1000l> > >) + 0x1d2",
                       "c10d::ProcessGroupNCCL::watchdogHandler() + 0x233",
                       "c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0xe9"});
            rank(r, t + 20, Pfx::Rank, "terminate called after throwing an instance of 'c10::DistBackendError'");
            rank(r, t + 20, Pfx::Rank, "  what():  " + what);
            die(r, t + jitter(80 * kMs, 600 * kMs), -6);
        }
    }

    static std::string signalText(int code)
    {
        switch (code) {
        case -6: return "Signal 6 (SIGABRT) received by PID ";
        case -9: return "Signal 9 (SIGKILL) received by PID ";
        case -11: return "Signal 11 (SIGSEGV) received by PID ";
        case -15: return "Signal 15 (SIGTERM) received by PID ";
        default: return {};
        }
    }

    void failureEntry(int n, int64_t t, int idx, int r)
    {
        const auto& s = p.rs[size_t(r)];
        std::string when;
        appendTorchrunTime(when, s.end + nd(n).skew);
        agentRaw(n, t, "[" + str(idx) + "]:");
        agentRaw(n, t, "  time      : " + when);
        agentRaw(n, t, "  host      : " + nd(n).name);
        agentRaw(n, t, "  rank      : " + str(r) + " (local_rank: " + str(w.localOf(r)) + ")");
        agentRaw(n, t, "  exitcode  : " + str(s.exitCode) + " (pid: " + str(w.pidOf(r)) + ")");
        agentRaw(n, t, "  error_file: <N/A>");
        const std::string sig = signalText(s.exitCode);
        agentRaw(n, t, "  traceback : "
                           + (sig.empty() ? std::string("To enable traceback see: "
                                                        "https://pytorch.org/docs/stable/elastic/errors.html")
                                          : sig + str(w.pidOf(r))));
    }

    void agentTraceback(int n, int64_t t)
    {
        agentRaw(n, t, "Traceback (most recent call last):");
        const std::vector<std::pair<std::string, std::string>> fr = {
            {"/usr/local/bin/torchrun\", line 8, in <module>", "sys.exit(main())"},
            {std::string(kPy) + "torch/distributed/elastic/multiprocessing/errors/__init__.py\", line 355, in wrapper",
             "return f(*args, **kwargs)"},
            {std::string(kPy) + "torch/distributed/run.py\", line 919, in main", "run(args)"},
            {std::string(kPy) + "torch/distributed/run.py\", line 910, in run", "elastic_launch("},
            {std::string(kPy) + "torch/distributed/launcher/api.py\", line 138, in __call__",
             "return launch_agent(self._config, self._entrypoint, list(args))"},
            {std::string(kPy) + "torch/distributed/launcher/api.py\", line 269, in launch_agent",
             "raise ChildFailedError("}};
        for (const auto& [a, b] : fr) {
            agentRaw(n, t, "  File \"" + a);
            agentRaw(n, t, "    " + b);
        }
    }

    // torchrun on each node: on the first failed worker it SIGTERMs the
    // others and prints the ChildFailedError summary (root cause = first
    // failure observed on that node only).
    void agentPass()
    {
        for (int n = 0; n < w.nodes; ++n) {
            if (p.teardown[size_t(n)] != kNever || p.fx[size_t(n)].deadAt != kNever)
                continue;
            int root = -1;
            for (int l = 0; l < w.gpus; ++l) {
                const int r = w.rankOf(n, l);
                const auto& s = p.rs[size_t(r)];
                if (s.selfFailed && (root < 0 || s.end < p.rs[size_t(root)].end))
                    root = r;
            }
            if (root < 0)
                continue;
            const int64_t T = p.rs[size_t(root)].end + jitter(200 * kMs, 900 * kMs);
            p.teardown[size_t(n)] = T;
            std::vector<int> others;
            for (int l = 0; l < w.gpus; ++l) {
                const int r = w.rankOf(n, l);
                auto& s = p.rs[size_t(r)];
                if (r == root)
                    continue;
                if (s.end > T) {
                    agent(n, T, 'W', "torch/distributed/elastic/multiprocessing/api.py:897] Sending process "
                                         + str(w.pidOf(r)) + " closing signal SIGTERM");
                    s.end = T + jitter(50 * kMs, 2 * kSec);
                    s.exitCode = -15;
                    stopAt(r, T);
                } else if (s.selfFailed) {
                    others.push_back(r);
                }
            }
            const int64_t t2 = T + jitter(1 * kSec, 4 * kSec);
            const auto& rs = p.rs[size_t(root)];
            agent(n, t2, 'E', "torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: "
                                  + str(rs.exitCode) + ") local_rank: " + str(w.localOf(root)) + " (pid: "
                                  + str(w.pidOf(root)) + ") of binary: /usr/bin/python3");
            agentTraceback(n, t2);
            agentRaw(n, t2, "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ");
            agentRaw(n, t2, "============================================================");
            agentRaw(n, t2, std::string(kMegatron) + "pretrain_gpt.py FAILED");
            agentRaw(n, t2, "------------------------------------------------------------");
            agentRaw(n, t2, "Failures:");
            std::sort(others.begin(), others.end(),
                      [&](int a, int b) { return p.rs[size_t(a)].end < p.rs[size_t(b)].end; });
            if (others.empty())
                agentRaw(n, t2, "  <NO_OTHER_FAILURES>");
            for (size_t i = 0; i < others.size(); ++i)
                failureEntry(n, t2, int(i) + 1, others[i]);
            agentRaw(n, t2, "------------------------------------------------------------");
            agentRaw(n, t2, "Root Cause (first observed failure):");
            failureEntry(n, t2, 0, root);
            agentRaw(n, t2, "============================================================");
            p.taskExit[size_t(n)] = t2 + jitter(100 * kMs, 800 * kMs);
            p.taskCode[size_t(n)] = 1;
            p.exitCodes.emplace_back("rank" + str(root), rs.exitCode);
        }
    }

    // slurmstepd SIGTERMs every task (preemption, time limit, scancel,
    // step cancelled after a node failure).
    void schedulerKill(int64_t t)
    {
        for (int n = 0; n < w.nodes; ++n) {
            if (p.taskExit[size_t(n)] <= t || p.fx[size_t(n)].deadAt <= t)
                continue;
            const int64_t T = t + jitter(20 * kMs, 400 * kMs);
            p.teardown[size_t(n)] = std::min(p.teardown[size_t(n)], T);
            agent(n, T, 'W', "torch/distributed/elastic/agent/server/api.py:704] Received Signals.SIGTERM death "
                             "signal, shutting down workers");
            for (int l = 0; l < w.gpus; ++l) {
                const int r = w.rankOf(n, l);
                auto& s = p.rs[size_t(r)];
                if (s.end <= T)
                    continue;
                agent(n, T, 'W', "torch/distributed/elastic/multiprocessing/api.py:897] Sending process "
                                     + str(w.pidOf(r)) + " closing signal SIGTERM");
                s.end = T + jitter(100 * kMs, 1500 * kMs);
                s.exitCode = -15;
                stopAt(r, T);
            }
            const int64_t t2 = T + jitter(2 * kSec, 5 * kSec);
            agentRaw(n, t2, "Traceback (most recent call last):");
            agentRaw(n, t2, "  File \"/usr/local/bin/torchrun\", line 8, in <module>");
            agentRaw(n, t2, "    sys.exit(main())");
            agentRaw(n, t2, std::string("  File \"") + kPy + "torch/distributed/elastic/agent/server/api.py\", line 696, in run");
            agentRaw(n, t2, "    result = self._invoke_run(role)");
            agentRaw(n, t2, std::string("  File \"") + kPy + "torch/distributed/elastic/agent/server/api.py\", line 855, in _invoke_run");
            agentRaw(n, t2, "    time.sleep(monitor_interval)");
            agentRaw(n, t2, std::string("  File \"") + kPy + "torch/distributed/elastic/multiprocessing/api.py\", line 84, in _terminate_process_handler");
            agentRaw(n, t2, "    raise SignalException(f\"Process {os.getpid()} got signal: {sigval}\", sigval=sigval)");
            agentRaw(n, t2, "torch.distributed.elastic.multiprocessing.api.SignalException: Process "
                                + str(nd(n).agentPid) + " got signal: 15");
            p.taskExit[size_t(n)] = t2 + jitter(50 * kMs, 300 * kMs);
            p.taskCode[size_t(n)] = -15;
        }
    }

    // Tasks that never ended on their own (hung nodes) are killed when srun
    // gives up; srun reports every task's end; the job ends.
    void finish(bool suppressTeardownXid = false)
    {
        int64_t last = 0;
        for (int n = 0; n < w.nodes; ++n)
            if (p.taskExit[size_t(n)] != kNever)
                last = std::max(last, p.taskExit[size_t(n)]);
        bool leftovers = false;
        for (int r = 0; r < w.ranks; ++r)
            leftovers = leftovers || (p.rs[size_t(r)].end == kNever && p.fx[size_t(w.nodeOf(r))].deadAt == kNever);
        if (leftovers) {
            const int64_t t = (last ? last : w.tFault) + jitter(30 * kSec, 60 * kSec);
            srun(t - 1, "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.");
            schedulerKill(t);
            for (int n = 0; n < w.nodes; ++n)
                last = std::max(last, p.taskExit[size_t(n)] == kNever ? 0 : p.taskExit[size_t(n)]);
        }
        std::vector<int> order;
        for (int n = 0; n < w.nodes; ++n)
            if (p.taskExit[size_t(n)] != kNever)
                order.push_back(n);
        std::sort(order.begin(), order.end(), [&](int a, int b) {
            return p.taskExit[size_t(a)] != p.taskExit[size_t(b)] ? p.taskExit[size_t(a)] < p.taskExit[size_t(b)] : a < b;
        });
        for (int n : order) {
            if (p.taskCode[size_t(n)] == -15)
                srun(p.taskExit[size_t(n)], "srun: error: " + nd(n).name + ": task " + str(n) + ": Terminated");
            else
                srun(p.taskExit[size_t(n)], "srun: error: " + nd(n).name + ": task " + str(n) + ": Exited with exit code "
                                               + str(p.taskCode[size_t(n)]));
        }
        // srun returns only once the scheduler has settled the step (a dead
        // node's task is waited for until the node is declared DOWN).
        p.jobEnd = std::max({last, w.tFault, p.detectedAt}) + jitter(1 * kSec, 3 * kSec);
        if (p.detectedAt == 0)
            p.detectedAt = p.jobEnd;
        teardownXid45(suppressTeardownXid);
    }

    // Benign Xid 45 from the driver cleaning up channels of killed
    // processes: on every GPU of nodes with a fault, on some others.
    std::vector<char> faultNode;
    void teardownXid45(bool suppress)
    {
        if (suppress || w.opt.noiseLevel == 0)
            return;
        faultNode.resize(size_t(w.nodes), 0);
        Rng nr = w.rng.fork(4545);
        for (int n = 0; n < w.nodes; ++n) {
            const auto& fx = p.fx[size_t(n)];
            if (fx.deadAt != kNever)
                continue;
            const bool all = faultNode[size_t(n)] || w.opt.noiseLevel >= 2;
            if (!all && !nr.chance(0.25))
                continue;
            for (int l = 0; l < w.gpus; ++l) {
                const int r = w.rankOf(n, l);
                const auto& s = p.rs[size_t(r)];
                if (s.end == kNever || s.exitCode == 0 || fx.gpu[size_t(l)].lostAt <= s.end)
                    continue;
                const int channels = w.opt.noiseLevel >= 2 ? 3 : 1;
                // R590+ drivers name the Xid that caused the teardown (NVIDIA/open-gpu-kernel-modules#1150).
                const int cause = fx.gpu[size_t(l)].xid;
                const std::string tail = w.opt.rotatedSyslog && cause ? " caused by previous Xid " + str(cause) : "";
                for (int c = 0; c < channels; ++c)
                    kern(n, s.end + nr.range(30 * kMs, 400 * kMs),
                         xid(l) + "45, pid=" + str(w.pidOf(r)) + ", name=pt_main_thread, Ch " + hex(uint64_t(8 + c * 8), 8) + tail);
            }
        }
    }

    // ------------------------------------------------------------ shared kernel shapes

    void xid79Lines(int n, int g, int64_t t)
    {
        kern(n, t, xid(g) + "79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.");
        kern(n, t + 7, std::string("NVRM: GPU ") + gpuBus(g) + ".0: GPU has fallen off the bus.");
        kern(n, t + 10, std::string("NVRM: GPU ") + gpuBus(g) + ".0: GPU serial number is " + str(int64_t(nd(n).serial[size_t(g)])) + ".");
        p.fx[size_t(n)].gpu[size_t(g)].lostAt = t;
        p.fx[size_t(n)].gpu[size_t(g)].xid = 79;
        if (w.gpus == 8) {
            // NVSwitch ports facing the lost GPU go down ~12 s later (case27).
            const int64_t ts = t + jitter(11 * kSec, 13 * kSec);
            for (int sw = 0; sw < 4; ++sw) {
                const int port = 32 + g * 2 + (sw & 1);
                sxid20034(n, sw, port, ts + sw * 1700);
            }
        }
    }

    void sxid20034(int n, int sw, int port, int64_t t)
    {
        const std::string h = "nvidia-nvswitch" + str(sw) + ": SXid (PCI:" + switchBus(sw) + "): 20034, ";
        kern(n, t, h + "Fatal, Link " + str(port) + " LTSSM Fault Up");
        kern(n, t + 4000, h + "Severity 1 Engine instance " + str(port) + " Sub-engine instance 00");
        kern(n, t + 5700, h + "Data {0x10000000, 0x10000000, 0x00000000, 0x10000000, 0x00000000, 0x00000000, "
                              "0x00000000, 0x00000000, 0x00000000}");
        fm(n, t + jitter(50 * kMs, 300 * kMs), "ERROR",
           "detected NVSwitch fatal error 20034 on fid 0 on NVSwitch pci bus id 0000" + std::string(switchBus(sw))
               + " physical id " + str(sw) + " port " + str(port));
    }

    void xid48Lines(int n, int g, int64_t t)
    {
        const int r = w.rankOf(n, g);
        kern(n, t, xid(g) + "48, pid=" + str(w.pidOf(r)) + ", name=pt_main_thread, An uncorrectable double bit error "
                                                        "(DBE) has been detected on GPU in the framebuffer at partition "
                                                        + str(rng.range(0, 11)) + ", subpartition " + str(rng.range(0, 1)) + ".");
        kern(n, t + jitter(200 * kMs, 900 * kMs),
             xid(g) + "63, pid=" + str(w.pidOf(r)) + ", Row Remapper: New row marked for remapping, reset gpu to activate");
        p.fx[size_t(n)].gpu[size_t(g)].dbeAt = t;
        p.fx[size_t(n)].gpu[size_t(g)].xid = 48;
    }

    // The hung-task report the kernel prints every 120 s for a D-state task.
    void hungTask(int n, int r, int64_t t, int secs, const std::vector<std::string>& stack)
    {
        kern(n, t, "INFO: task pt_main_thread:" + str(w.pidOf(r)) + " blocked for more than " + str(secs) + " seconds.");
        kern(n, t, "      Tainted: P           OE      5.15.0-105-generic #115-Ubuntu");
        kern(n, t, "\"echo 0 > /proc/sys/kernel/hung_task_timeout_secs\" disables this message.");
        kern(n, t, "task:pt_main_thread  state:D stack:    0 pid:" + str(w.pidOf(r)) + " ppid:" + str(nd(n).agentPid)
                       + " flags:0x00004002");
        kern(n, t, "Call Trace:");
        kern(n, t, " <TASK>");
        for (const auto& f : stack)
            kern(n, t, " " + f);
        kern(n, t, " </TASK>");
    }

    std::string ibCompletion(int peerNode, bool recv)
    {
        return "transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer " + ipPort(peerNode)
               + " with error 12, opcode 0, len 0, vendor err 129 (" + (recv ? "Recv" : "Send") + ")";
    }

    void ibError(int r, int peerNode, int64_t t, bool recv, int64_t seq)
    {
        const std::string warn = ibCompletion(peerNode, recv);
        ncclWarnChain(r, t, warn, 6, {"transport/net.cc:1134", "proxy.cc:679", "proxy.cc:858"}, " [Proxy Thread]");
        const std::string last = warn.substr(warn.find("NET/IB"));
        ncclAsyncError(r, t + jitter(100 * kMs, 900 * kMs), seq, last, true);
    }
};

Truth truthFor(const World& w, int culpritNode, int rank, int gpu, std::string notes)
{
    Truth t;
    for (const auto& k : faultKinds())
        if (k.id == w.opt.fault) {
            t.domain = k.domain;
            t.subDomain = k.subDomain;
        }
    t.status = ResultStatus::Attributed;
    t.fault = w.opt.fault;
    if (culpritNode >= 0)
        t.culpritNode = w.node[size_t(culpritNode)].name;
    t.culpritRank = rank;
    t.culpritGpu = gpu;
    t.notes = std::move(notes);
    return t;
}

// What every scenario builder starts from: the simulator, the culprit picked
// by seed, its ring neighbours and the collective the victims are stuck in.
// Each builder injects one fault's lines and returns its truth.
struct Scene {
    Scene(World& w, Plan& p, bool jobLevel);

    World& w;
    Plan& p;
    const std::string f; // the fault kind (a builder may serve several)
    Sim s;
    Rng pick;
    int c = 0, g = 0, r = 0; // culprit node, GPU and rank
    int other = 0;           // a second node for two-node faults
    int prevN = 0, nextN = 0; // ring neighbours of c
    int64_t tF = 0, seq = 0, opStart = 0;
    int64_t ahead = 0; // the culprit's clock runs ahead by this

    void everyoneStops(int64_t t)
    {
        for (int i = 0; i < w.ranks; ++i)
            s.stopAt(i, t);
    }
    void standardEnd(int64_t start, int64_t sq, const char* op, int64_t ne)
    {
        s.agentPass();
        s.timeouts(start, sq, op, ne);
        s.agentPass();
        s.finish();
    }
    // Some ranks never finish NCCL init: the rest time out on SeqNum 1.
    void initFailureEnd()
    {
        s.numel = 1;
        standardEnd(w.tInit + s.jitter(1 * kSec, 3 * kSec), 1, "ALLREDUCE", 1);
    }
    // A bad cable on rail k of node n: mlx5's module event in the kernel log
    // and NCCL's async "port error" on every rank of the node at once.
    void cableFault(int n, int k, int64_t tKernel, int64_t tRanks)
    {
        p.fx[size_t(n)].gpu[size_t(k)].ibAt = tRanks;
        s.kern(n, tKernel, std::string("mlx5_core ") + hcaBus(k) + ": mlx5_port_module_event:1131:(pid 0): Port module "
                                                                   "event[error]: module " + str(k)
                               + ", Cable error, Bad or shorted cable/module");
        for (int l = 0; l < w.gpus; ++l) {
            const int rr = w.rankOf(n, l);
            s.rank(rr, tRanks + s.jitter(0, 4 * kMs), Pfx::Raw,
                   s.ncclHead(rr, 11) + " transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error");
        }
    }

    Truth gpuOffTheBus();
    Truth xid48();
    Truth xid64();
    Truth xid119();
    Truth xid13();
    Truth xid74();
    Truth xid149();
    Truth sxid20034();
    Truth fabricManager();
    Truth ibErr12();
    Truth ibPortError();
    Truth ibStartupErr12();
    Truth nicFatal();
    Truth hostOom();
    Truth shmFull();
    Truth segfault();
    Truth hungTask();
    Truth nfsHang();
    Truth checkpointEnospc();
    Truth missingData();
    Truth nodeFail();
    Truth schedulerEndsJob();
    Truth pyException();
    Truth straggler();
    Truth cudaOom();
    Truth nanLoss();
    Truth collectiveMismatch();
    Truth tinyTimeout();
    Truth rendezvous();
    Truth ambiguous();
    Truth ambiguousDomains();
    Truth noInitiator();
    Truth healthy();
    Truth lateSecondFault();
    Truth lateFaultOnly();

    // An independent Xid 48 on another node's GPU, logged 2-8 minutes after the others began waiting on
    // `opStart` and before their 600 s watchdog: it cannot have started the hang. Returns where it is.
    std::string laterFault()
    {
        const int go = int(pick.range(0, w.gpus - 1));
        const int64_t t = opStart + s.jitter(120 * kSec, 480 * kSec);
        s.faultNode[size_t(other)] = 1;
        s.xid48Lines(other, go, t);
        return s.nd(other).name + " GPU " + str(go);
    }
};

// The order of the draws below is part of every seeded bundle: keep it.
Scene::Scene(World& w, Plan& p, bool jobLevel) : w(w), p(p), f(w.opt.fault), s(w, p), pick(w.rng.fork(99))
{
    s.faultNode.assign(size_t(w.nodes), 0);
    c = int(pick.range(0, w.nodes - 1));
    g = int(pick.range(0, w.gpus - 1));
    r = w.rankOf(c, g);
    other = w.nodes > 1 ? (c + 1 + int(pick.range(0, w.nodes - 2))) % w.nodes : c;
    prevN = (c + w.nodes - 1) % w.nodes;
    nextN = (c + 1) % w.nodes;
    tF = w.tFault;
    // The collective the victims are stuck in: enqueued right after the fault.
    seq = w.seqAt(tF) + 1;
    opStart = tF + s.jitter(50 * kMs, 900 * kMs);
    // The culprit's clock runs ahead (set before anything is printed).
    ahead = int64_t(w.opt.culpritAheadSec * double(kSec));
    if (ahead > 0)
        w.node[size_t(c)].skew = ahead;
    // A job-level fault has no faulty node: no node gets the fault's noise.
    s.faultNode[size_t(c)] = jobLevel ? 0 : 1;
}

Truth Scene::gpuOffTheBus()
{
    int64_t tx = tF;
    if (f == "pcie_aer") {
        const std::string port = gpuRootPort(g);
        s.kern(c, tF, "pcieport " + port + ": AER: Uncorrected (Fatal) error received: " + port);
        s.kern(c, tF + 40, "pcieport " + port + ": PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction "
                                                "Layer, (Receiver ID)");
        s.kern(c, tF + 60, "pcieport " + port + ":   device [8086:352a] error status/mask=00000020/00000000");
        s.kern(c, tF + 80, "pcieport " + port + ":    [ 5] SDES                   (First)");
        tx = tF + s.jitter(800 * kMs, 1200 * kMs);
    }
    s.xid79Lines(c, g, tx);
    s.cudaWatchdog(r, tx + s.jitter(500 * kMs, 3 * kSec), "CUDA error: unknown error");
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, r, g, f == "pcie_aer" ? "PCIe surprise-down on the GPU's root port precedes Xid 79"
                                                 : "Xid 79; SXid 20034 and Xid 45 are downstream");
}

Truth Scene::xid48()
{
    s.xid48Lines(c, g, tF);
    s.cudaWatchdog(r, tF + s.jitter(100 * kMs, 600 * kMs), "CUDA error: uncorrectable ECC error encountered");
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, r, g, "Xid 48 DBE; the Xid 63 that follows is the remap of the same error");
}

Truth Scene::xid64()
{
    s.kern(c, tF, s.xid(g) + "64, pid=" + str(w.pidOf(r)) + ", Row Remapper Error: (0x0000000" + hex(uint64_t(s.rng.range(0x10000000, 0x5fffffff)), 9)
                      + "a0) - All reserved rows for bank are remapped");
    p.fx[size_t(c)].gpu[size_t(g)].dbeAt = tF;
    p.fx[size_t(c)].gpu[size_t(g)].xid = 64;
    s.cudaWatchdog(r, tF + s.jitter(100 * kMs, 700 * kMs), "CUDA error: uncorrectable ECC error encountered");
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, r, g, "Xid 64 remap failure");
}

Truth Scene::xid119()
{
    for (int k = 0; k < 4; ++k) {
        const int64_t t = tF + k * s.jitter(6 * kSec, 9 * kSec);
        const std::string gg = "GPU" + str(g);
        s.kern(c, t, s.xid(g) + "119, pid=" + str(w.pidOf(r)) + ", name=pt_main_thread, Timeout after 6s of waiting "
                          "for RPC response from " + gg + " GSP! Expected function 76 (GSP_RM_CONTROL) (0x20801348 0x4).");
        if (k == 0) {
            s.kern(c, t, "NVRM: " + gg + " GSP RPC buffer contains function 76 (GSP_RM_CONTROL) and data "
                                     "0x0000000020801348 0x0000000000000004.");
            s.kern(c, t, "NVRM: " + gg + " RPC history (CPU -> GSP):");
            s.kern(c, t, "NVRM:     entry function                   data0              data1              ts_start"
                         "           ts_end             duration actively_polling");
            s.kern(c, t, "NVRM:      0    76   GSP_RM_CONTROL       0x0000000020801348 0x0000000000000004 "
                         "0x00062a4c1b9f27c3 0x0000000000000000          y");
            s.kern(c, t, "NVRM:     -1    76   GSP_RM_CONTROL       0x000000002080012f 0x0000000000000004 "
                         "0x00062a4c1b9e7a11 0x00062a4c1b9e7a5d     76us  ");
            s.kern(c, t, "NVRM: " + gg + " RPC event history (CPU <- GSP):");
            s.kern(c, t, "NVRM:     entry function                   data0              data1              ts_start"
                         "           ts_end             duration during_incomplete_rpc");
            s.kern(c, t, "NVRM:      0    4128 GSP_POST_NOCAT_RECORD 0x0000000000000002 0x0000000000000028 "
                         "0x00062a4c1b8d06f3 0x00062a4c1b8d06f4      1us  ");
        }
    }
    s.hang(r, tF);
    p.fx[size_t(c)].gpu[size_t(g)].xid = 119;
    const int64_t th = tF + 480 * kSec + s.jitter(1 * kSec, 8 * kSec);
    s.rank(r, th, Pfx::RankGlog, "ProcessGroupNCCL.cpp:1423] " + s.pg(r) + " Heartbeat monitor timed out! Process "
                                  "will be terminated after dumping debug info. workMetaList_.size()=1");
    s.rank(r, th, Pfx::RankGlog, "ProcessGroupNCCL.cpp:1262] " + s.pg(r) + " ProcessGroupNCCL preparing to dump "
                                  "debug info.");
    s.rank(r, th + 60 * kSec, Pfx::RankGlog,
           "ProcessGroupNCCL.cpp:1575] " + s.pg(r) + " " + s.pg(r) + " ProcessGroupNCCL's watchdog got stuck for 480 "
           "seconds without making progress in monitoring enqueued collectives. This typically indicates a "
           "NCCL/CUDA API (e.g., CudaEventDestroy) hang blocking the watchdog, and could be triggered by another "
           "thread holding the GIL inside a CUDA api (for example, CudaEventDestroy), or other deadlock-prone "
           "behaviors.If you suspect the watchdog is not actually stuck and a longer timeout would help, you can "
           "either increase the timeout (TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC) to a larger value or disable the "
           "heartbeat monitor (TORCH_NCCL_ENABLE_MONITORING=0).If either of aforementioned helps, feel free to file "
           "an issue to PyTorch about the short timeout or false positive abort; otherwise, please attempt to debug "
           "the hang. ", 'F');
    p.rs[size_t(r)].silent = false;
    s.die(r, th + 60 * kSec + 200 * kMs, -6);
    // The other ranks of the culprit node would time out at 600 s too,
    // but the culprit aborts first and torchrun takes them down.
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, r, g, "GSP RPC timeout; culprit hangs, then heartbeat monitor aborts it");
}

Truth Scene::xid13()
{
    const int pid = w.pidOf(r);
    const int gpc = int(s.rng.range(0, 7)), tpc = int(s.rng.range(0, 8));
    const std::string loc = "(GPC " + str(gpc) + ", TPC " + str(tpc) + ", SM 0)";
    s.kern(c, tF, s.xid(g) + "13, pid=" + str(pid) + ", name=pt_main_thread, Graphics SM Warp Exception on " + loc + ": Out Of Range Address");
    s.kern(c, tF + 20, s.xid(g) + "13, pid=" + str(pid) + ", name=pt_main_thread, Graphics SM Global Exception on " + loc + ": Multiple Warp Errors");
    s.kern(c, tF + 40, s.xid(g) + "13, pid=" + str(pid) + ", name=pt_main_thread, Graphics Exception: ESR 0x524648=0x102000e 0x524650=0x20 0x524644=0xd3eff2 0x52464c=0x17f");
    s.kern(c, tF + s.jitter(200 * kMs, 400 * kMs), s.xid(g) + "43, pid=" + str(pid) + ", name=pt_main_thread, Ch 00000008");
    p.fx[size_t(c)].gpu[size_t(g)].xid = 13;
    s.cudaWatchdog(r, tF + s.jitter(50 * kMs, 300 * kMs), "CUDA error: an illegal memory access was encountered");
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, r, g, "Xid 13 + CUDA 700 on one GPU; Xid 43 is its consequence");
}

Truth Scene::xid74()
{
    const int g2 = w.gpus > 1 ? (g + 1) % w.gpus : g;
    const int link = int(s.rng.range(0, 17));
    s.kern(c, tF, s.xid(g) + "74, pid=" + str(w.pidOf(r)) + ", name=pt_main_thread, NVLink: fatal error detected on link "
                      + str(link) + "(0x10000, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0)");
    if (g2 != g) {
        const int64_t peerAt = tF + s.jitter(20 * kMs, 80 * kMs);
        s.kern(c, peerAt,
               s.xid(g2) + "74, pid=" + str(w.pidOf(w.rankOf(c, g2))) + ", name=pt_main_thread, NVLink: fatal error "
               "detected on link " + str((link + 5) % 18) + "(0x2, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0)");
        // The driver reported Xid 74 on the peer too: dcgm-exporter's last-Xid field says 74 on both GPUs,
        // in the same scrape interval (the register bits that tell the ends apart are in the kernel line only).
        p.fx[size_t(c)].gpu[size_t(g2)].xid = 74;
        p.fx[size_t(c)].gpu[size_t(g2)].xidAt = peerAt;
    }
    p.fx[size_t(c)].gpu[size_t(g)].nvlinkAt = tF - 40 * kSec;
    p.fx[size_t(c)].gpu[size_t(g)].linkDownAt = tF;
    p.fx[size_t(c)].gpu[size_t(g)].xid = 74;
    p.fx[size_t(c)].gpu[size_t(g)].xidAt = tF; // the field changes with the Xid line, not with the CRC errors before it
    s.cudaWatchdog(r, tF + s.jitter(200 * kMs, 600 * kMs), "CUDA error: uncorrectable NVLink error was detected during the execution");
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, r, g, "Xid 74 with register bit 16 (hardware); the peer's bit-1 Xid 74 is sympathetic");
}

Truth Scene::xid149()
{
    const int link = int(s.rng.range(0, 17));
    std::string l2 = str(link);
    if (l2.size() < 2)
        l2 = "0" + l2;
    const int64_t berAt = tF - s.jitter(60 * kSec, 180 * kSec);
    s.kern(c, berAt,
           s.xid(g) + "149, NETIR_BER_EVENT Nonfatal XC0 i0 Link " + l2
               + " (0x00000226 0x00000001 0x00000000 0x00000000 0x00000000 0x00000000)");
    s.kern(c, tF, s.xid(g) + "149, NETIR_LINK_EVT Fatal XC0 i0 Link " + l2
                      + " (0x004001c6 0x00000000 0x00000000 0x00000000 0x00000000 0x00000000)");
    s.kern(c, tF + s.jitter(5 * kMs, 30 * kMs),
           s.xid(g) + "154, GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)");
    p.fx[size_t(c)].gpu[size_t(g)].nvlinkAt = tF - 200 * kSec;
    p.fx[size_t(c)].gpu[size_t(g)].linkDownAt = tF; // NETIR_LINK_EVT Fatal: the link went down
    p.fx[size_t(c)].gpu[size_t(g)].xid = 149;
    p.fx[size_t(c)].gpu[size_t(g)].xidAt = berAt;  // the non-fatal 149 is the GPU's last Xid from then on
    s.cudaWatchdog(r, tF + s.jitter(200 * kMs, 800 * kMs), "CUDA error: uncorrectable NVLink error was detected during the execution");
    s.kern(c, p.rs[size_t(r)].end + s.jitter(50 * kMs, 200 * kMs),
           s.xid(g) + "45, pid=" + str(w.pidOf(r)) + ", name=pt_main_thread, Ch 00000001 caused by previous Xid 149");
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, r, g, "Xid 149 link-down reason 0x04 decodes to INVESTIGATE_LINK_SI");
}

Truth Scene::sxid20034()
{
    const int sw = int(s.rng.range(0, 3));
    const int port = int(s.rng.range(0, 63));
    s.sxid20034(c, sw, port, tF);
    const int gv = w.gpus == 8 ? (port / 8) % 8 : g;
    const int rv = w.rankOf(c, gv);
    s.kern(c, tF + s.jitter(100 * kMs, 300 * kMs),
           s.xid(gv) + "74, pid=" + str(w.pidOf(rv)) + ", name=pt_main_thread, NVLink: fatal error detected on link "
               + str(port % 18) + "(0x0, 0x0, 0x0, 0x30000, 0x0, 0x0, 0x0)");
    s.cudaWatchdog(rv, tF + s.jitter(400 * kMs, 900 * kMs), "CUDA error: uncorrectable NVLink error was detected during the execution");
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, -1, -1, "NVSwitch " + str(sw) + " port " + str(port) + "; Xid 74 on GPU " + str(gv)
                                       + " (4th register bits 16-17) is sympathetic");
}

Truth Scene::fabricManager()
{
    const int64_t t0 = w.tStart + s.jitter(500 * kMs, 1500 * kMs);
    p.fx[size_t(c)].fmDown = true;
    s.daemon(c, t0, "systemd[1]", "Starting NVIDIA fabric manager service...");
    s.fm(c, t0 + 200 * kMs, "INFO", "Fabric Manager version 550.90.07 is running with the following configuration options");
    s.fm(c, t0 + 900 * kMs, "ERROR", "detected number of NVSwitches don't match with any supported system topology, aborting fabric manager");
    s.daemon(c, t0 + 950 * kMs, "nv-fabricmanager[" + str(s.nd(c).agentPid - 17000) + "]",
             "detected number of NVSwitches don't match with any supported system topology, aborting fabric manager");
    s.daemon(c, t0 + 1 * kSec, "systemd[1]", "nvidia-fabricmanager.service: Control process exited, code=exited, status=1/FAILURE");
    s.daemon(c, t0 + 1 * kSec, "systemd[1]", "nvidia-fabricmanager.service: Failed with result 'exit-code'.");
    s.daemon(c, t0 + 1 * kSec, "systemd[1]", "Failed to start NVIDIA fabric manager service.");
    for (int l = 0; l < w.gpus; ++l) {
        const int rr = w.rankOf(c, l);
        p.rs[size_t(rr)].noInit = true;
        s.pyTraceback(rr, w.tLaunch + s.jitter(6 * kSec, 9 * kSec),
                      {{std::string(kMegatron) + "pretrain_gpt.py\", line 265, in <module>", "pretrain("},
                       {std::string(kMegatron) + "megatron/training/training.py\", line 247, in pretrain",
                        "initialize_megatron("},
                       {std::string(kMegatron) + "megatron/training/initialize.py\", line 296, in _initialize_distributed",
                        "torch.cuda.set_device(device)"},
                       {std::string(kPy) + "torch/cuda/__init__.py\", line 399, in set_device",
                        "torch._C._cuda_setDevice(device)"}},
                      {"RuntimeError: CUDA error: system not yet initialized",
                       "CUDA kernel errors might be asynchronously reported at some other API call, so the "
                       "stacktrace below might be incorrect.",
                       "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
                       "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."},
                      1);
    }
    everyoneStops(w.tInit);
    initFailureEnd();
    return truthFor(w, c, -1, -1, "Fabric Manager aborted on this node; CUDA 802 on its ranks");
}

Truth Scene::ibErr12()
{
    const int k = g;
    p.fx[size_t(c)].gpu[size_t(k)].ibAt = tF;
    const int64_t te = tF + s.jitter(20 * kSec, 35 * kSec);
    if (w.nodes > 1) {
        s.ibError(w.rankOf(prevN, k), c, te, true, seq);
        if (nextN != prevN)
            s.ibError(w.rankOf(nextN, k), c, te + s.jitter(10 * kMs, 900 * kMs), false, seq);
        s.ibError(w.rankOf(c, k), nextN, te + s.jitter(1 * kSec, 3 * kSec), false, seq);
    } else {
        s.ibError(r, c, te, true, seq);
    }
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, -1, -1, "rail mlx5_" + str(k) + " of this node; its neighbours name its address in error 12");
}

Truth Scene::ibPortError()
{
    const int k = g;
    cableFault(c, k, tF - s.jitter(100 * kMs, 400 * kMs), tF);
    s.ibError(w.rankOf(c, k), w.nodes > 1 ? nextN : c, tF + s.jitter(15 * kSec, 30 * kSec), false, seq);
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, -1, -1, "port error on mlx5_" + str(k) + " of this host, seen by all its ranks at once");
}

Truth Scene::ibStartupErr12()
{
    everyoneStops(w.tInit);
    const int64_t t0 = w.tInit + s.jitter(8 * kSec, 20 * kSec);
    std::vector<std::pair<int, int>> pairs; // (rank, peer node)
    for (int l = 0; l < w.gpus; ++l) {
        if (w.nodes > 1) {
            pairs.emplace_back(w.rankOf(prevN, l), c);
            if (nextN != prevN)
                pairs.emplace_back(w.rankOf(nextN, l), c);
            pairs.emplace_back(w.rankOf(c, l), nextN);
        } else {
            pairs.emplace_back(w.rankOf(c, l), c);
        }
    }
    for (const auto& [rr, peer] : pairs)
        if (s.alive(rr, t0))
            s.ibError(rr, peer, t0 + s.jitter(0, 2 * kSec), peer == c, 1);
    initFailureEnd();
    return truthFor(w, c, -1, -1, "every failing pair involves this node, before the first step: provisioning (GID/subnet)");
}

Truth Scene::nicFatal()
{
    const int k = g;
    p.fx[size_t(c)].gpu[size_t(k)].ibAt = tF;
    s.kern(c, tF, std::string("mlx5_core ") + hcaBus(k) + ": poll_health:829:(pid 0): device's health compromised - reached miss count");
    s.kern(c, tF + 120, std::string("mlx5_core ") + hcaBus(k) + ": mlx5_trigger_health_work:754:(pid 0): Health issue observed, firmware internal error, severity(3) ERROR:");
    const int64_t ta = tF + s.jitter(50 * kMs, 200 * kMs);
    for (int l = 0; l < w.gpus; ++l) {
        const int rr = w.rankOf(c, l);
        s.rank(rr, ta + s.jitter(0, 3 * kMs), Pfx::Raw, s.ncclHead(rr, 11) + " transport/net_ib.cc:80 NCCL WARN NET/IB : Got async event : local catastrophic error");
    }
    const int rk = w.rankOf(c, k);
    s.rank(rk, ta + 5 * kMs, Pfx::Raw, s.ncclHead(rk, 11) + " misc/ibvwrap.cc:220 NCCL WARN Call to ibv_get_async_event failed");
    s.ncclAsyncError(rk, ta + s.jitter(1 * kSec, 4 * kSec), seq, "Call to ibv_get_async_event failed", false);
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, -1, -1, "HCA mlx5_" + str(k) + " fatal error on this host");
}

Truth Scene::hostOom()
{
    const int pid = w.pidOf(r);
    s.kern(c, tF, "pt_main_thread invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0");
    s.kern(c, tF, "CPU: " + str(s.rng.range(0, 111)) + " PID: " + str(pid) + " Comm: pt_main_thread Tainted: P           OE      5.15.0-105-generic #115-Ubuntu");
    s.kern(c, tF + 900, "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0-1,oom_memcg=/slurm/uid_1000/job_"
                            + str(int64_t(w.jobId)) + ",task_memcg=/slurm/uid_1000/job_" + str(int64_t(w.jobId)) + "/step_0/user/task_"
                            + str(c) + ",task=pt_main_thread,pid=" + str(pid) + ",uid=1000");
    s.kern(c, tF + 1000, "Memory cgroup out of memory: Killed process " + str(pid) + " (pt_main_thread) total-vm:1210731264kB, "
                             "anon-rss:254328120kB, file-rss:1048576kB, shmem-rss:0kB, UID:1000 pgtables:512340kB oom_score_adj:0");
    s.die(r, tF + 1100, -9);
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    s.srun(p.jobEnd - 500 * kMs, "slurmstepd: error: Detected 1 oom_kill event in StepId=" + str(int64_t(w.jobId))
                                     + ".0. Some of the step tasks have been OOM Killed.");
    p.stepState = "OUT_OF_MEMORY";
    p.jobState = "OUT_OF_MEMORY";
    p.jobExit = "0:125";
    return truthFor(w, c, r, -1, "cgroup OOM kill of one rank (exitcode -9)");
}

Truth Scene::shmFull()
{
    everyoneStops(w.tInit);
    const std::string seg = "/dev/shm/nccl-" + std::string("WU88OE");
    for (int l = 0; l < w.gpus; ++l) {
        const int rr = w.rankOf(c, l);
        const int64_t t = w.tInit + s.jitter(1 * kSec, 3 * kSec);
        const std::string h = s.ncclHead(rr, 0);
        s.rank(rr, t, Pfx::Raw, h + " misc/shmutils.cc:88 NCCL WARN Error: failed to extend " + seg + " to 9637892 bytes, error: No space left on device (28)");
        s.rank(rr, t, Pfx::Raw, h + " misc/shmutils.cc:132 NCCL WARN Error while creating shared memory segment " + seg + " (size 9637888), error: No space left on device (28)");
        for (const char* site : {"transport/shm.cc:114", "transport.cc:33", "transport.cc:113", "init.cc:1222", "init.cc:1501"})
            s.rank(rr, t, Pfx::Raw, h + " NCCL INFO " + site + " -> 2");
        p.rs[size_t(rr)].noInit = true;
        s.pyTraceback(rr, t + s.jitter(100 * kMs, 400 * kMs), s.trainFrames(),
                      {"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2006, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version " + std::string(kNcclVersion),
                       "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ",
                       "Last error:",
                       "Error while creating shared memory segment " + seg + " (size 9637888), error: No space left on device (28)"},
                      1);
    }
    initFailureEnd();
    return truthFor(w, c, -1, -1, "/dev/shm full on this node");
}

Truth Scene::segfault()
{
    const int pid = w.pidOf(r);
    s.kern(c, tF, "pt_main_thread[" + str(pid) + "]: segfault at 7f797fe00000 ip 00007f7c7ac69996 sp 00007f7c12fd7c30 error 4 in libnccl.so.2[7f7c7ac00000+d3d3000]");
    s.kern(c, tF, "Code: Unable to access opcode bytes at 0x7f7c7ac6996c.");
    s.rank(r, tF, Pfx::Rank, "Fatal Python error: Segmentation fault");
    s.rank(r, tF, Pfx::Rank, "");
    s.rank(r, tF, Pfx::Rank, "Thread 0x00007f3a1bfff640 (most recent call first):");
    s.rank(r, tF, Pfx::Rank, "  <no Python frame>");
    s.rank(r, tF, Pfx::Rank, "");
    s.rank(r, tF, Pfx::Rank, "Current thread 0x00007f3c2f7fe740 (most recent call first):");
    s.rank(r, tF, Pfx::Rank, std::string("  File \"") + kPy + "torch/distributed/distributed_c10d.py\", line 2288 in all_reduce");
    s.rank(r, tF, Pfx::Rank, std::string("  File \"") + kMegatron + "megatron/core/distributed/param_and_grad_buffer.py\", line 312 in start_grad_sync");
    s.die(r, tF + 30 * kMs, -11);
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, r, g, "segfault in libnccl.so.2 on one rank (exitcode -11)");
}

Truth Scene::hungTask()
{
    s.hang(r, tF);
    const std::vector<std::string> stack = {
        "__schedule+0x23d/0x590", "schedule+0x4e/0xc0", "rwsem_down_write_slowpath+0x220/0x3a0",
        "down_write_killable+0x40/0x50", "__vm_munmap+0x7e/0x140", "__x64_sys_munmap+0x28/0x40",
        "do_syscall_64+0x59/0xc0", "entry_SYSCALL_64_after_hwframe+0x61/0xcb"};
    s.hungTask(c, r, tF + 121 * kSec, 120, stack);
    s.hungTask(c, r, tF + 242 * kSec, 241, stack);
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, r, g, "rank stuck in D state (mmap lock); it never enqueues the collective the others time out on");
}

Truth Scene::nfsHang()
{
    const std::string server = "10.64.255.10";
    s.kern(c, tF - s.jitter(20 * kSec, 40 * kSec), "nfs: server " + server + " not responding, still trying");
    for (int k = 1; k <= 3; ++k)
        s.kern(c, tF + k * 180 * kSec, "nfs: server " + server + " not responding, still trying");
    for (int l = 0; l < w.gpus; ++l)
        s.hang(w.rankOf(c, l), tF);
    const std::vector<std::string> stack = {
        "__schedule+0x23d/0x590", "schedule+0x4e/0xc0", "io_schedule+0x46/0x70",
        "folio_wait_bit_common+0x136/0x330", "folio_wait_writeback+0x28/0x80",
        "__filemap_fdatawait_range+0x90/0x100", "file_write_and_wait_range+0x85/0xc0",
        "nfs_file_fsync+0xa2/0x1f0 [nfs]", "__x64_sys_fsync+0x3b/0x70", "do_syscall_64+0x59/0xc0",
        "entry_SYSCALL_64_after_hwframe+0x61/0xcb"};
    s.hungTask(c, r, tF + 122 * kSec, 120, stack);
    const int r2 = w.rankOf(c, (g + 1) % w.gpus);
    if (r2 != r)
        s.hungTask(c, r2, tF + 122 * kSec, 120, stack);
    s.rank(0, tF - 2 * kSec, Pfx::RankStamp, "saving checkpoint at iteration " + std::string(8 - std::min<size_t>(8, str(w.opt.iterations).size()), ' ')
                                                + str(w.opt.iterations) + " to /checkpoints/gpt-175b in torch_dist format");
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, -1, -1, "this node lost its NFS server during a checkpoint; its ranks hang in nfs_file_fsync");
}

Truth Scene::checkpointEnospc()
{
    const std::string it = std::string(8 - std::min<size_t>(8, str(w.opt.iterations).size()), ' ') + str(w.opt.iterations);
    s.rank(0, tF - 1 * kSec, Pfx::RankStamp, "saving checkpoint at iteration " + it + " to /checkpoints/gpt-175b in torch format");
    s.stopAt(0, tF);
    const std::string path = "/checkpoints/gpt-175b/iter_" + std::string(7 - std::min<size_t>(7, str(w.opt.iterations).size()), '0') + str(w.opt.iterations) + "/mp_rank_00/model_optim_rng.pt";
    auto frames = s.trainFrames();
    frames.resize(2);
    frames.push_back({std::string(kMegatron) + "megatron/training/checkpointing.py\", line 406, in save_checkpoint", "torch.save(state_dict, checkpoint_name)"});
    frames.push_back({std::string(kPy) + "torch/serialization.py\", line 652, in save", "with _open_zipfile_writer(f) as opened_zipfile:"});
    frames.push_back({std::string(kPy) + "torch/serialization.py\", line 499, in __exit__", "self.file_like.write_end_of_file()"});
    s.pyTraceback(0, tF + s.jitter(10 * kSec, 40 * kSec), frames,
                  {"RuntimeError: [enforce fail at inline_container.cc:603] . unexpected pos 2147483712 vs 2147483600",
                   "",
                   "During handling of the above exception, another exception occurred:",
                   "",
                   "OSError: [Errno 28] No space left on device: '" + path + "'"},
                  1);
    standardEnd(opStart, seq, "BARRIER", 1);
    return truthFor(w, -1, 0, -1, "shared checkpoint filesystem full; rank 0 fails the save, no node at fault");
}

Truth Scene::missingData()
{
    const int64_t t0 = w.tInit + s.jitter(5 * kSec, 15 * kSec);
    const std::string shard = "/data/tokenized/shard_00" + str(s.rng.range(100, 999)) + "_text_document.bin";
    for (int i = 0; i < w.ranks; ++i) {
        s.pyTraceback(i, t0 + s.jitter(0, 2 * kSec),
                      {{std::string(kMegatron) + "pretrain_gpt.py\", line 265, in <module>", "pretrain("},
                       {std::string(kMegatron) + "megatron/training/training.py\", line 318, in pretrain", "= build_train_valid_test_data_iterators("},
                       {std::string(kMegatron) + "megatron/core/datasets/indexed_dataset.py\", line 353, in __init__", "self.bin_reader = _MMapBinReader(self.bin_path)"},
                       {std::string(kMegatron) + "megatron/core/datasets/indexed_dataset.py\", line 288, in __init__", "self._bin_buffer_mmap = numpy.memmap(self._bin_path, mode=\"r\", order=\"C\")"}},
                      {"FileNotFoundError: [Errno 2] No such file or directory: '" + shard + "'"}, 1);
    }
    everyoneStops(w.tInit);
    w.tFault = t0;
    s.agentPass();
    s.finish();
    return truthFor(w, -1, -1, -1, "dataset shard missing on the shared filesystem; every rank fails identically");
}

Truth Scene::nodeFail()
{
    const int cn = w.nodes > 1 ? 1 + int(pick.range(0, w.nodes - 2)) : 0;
    s.faultNode[size_t(c)] = 0;
    s.faultNode[size_t(cn)] = 1;
    if (ahead > 0)
        std::swap(w.node[size_t(c)].skew, w.node[size_t(cn)].skew);
    p.fx[size_t(cn)].deadAt = tF;
    for (int l = 0; l < w.gpus; ++l) {
        auto& st = p.rs[size_t(w.rankOf(cn, l))];
        st.end = tF;
        st.exitCode = 0;
        s.stopAt(w.rankOf(cn, l), tF);
    }
    const int pv = (cn + w.nodes - 1) % w.nodes, nx = (cn + 1) % w.nodes;
    const int k = g;
    if (w.nodes > 1) {
        s.ibError(w.rankOf(pv, k), cn, tF + s.jitter(25 * kSec, 35 * kSec), true, seq);
        if (nx != pv)
            s.ibError(w.rankOf(nx, k), cn, tF + s.jitter(25 * kSec, 35 * kSec), false, seq);
    }
    const int64_t tDown = tF + 300 * kSec + s.jitter(0, 10 * kSec);
    s.ctld(tF + 100 * kSec + s.jitter(0, 5 * kSec), "error: Nodes " + s.nd(cn).name + " not responding");
    s.ctld(tDown, "error: Nodes " + s.nd(cn).name + " not responding, setting DOWN");
    s.ctld(tDown + 2 * kMs, "Killing JobId=" + str(int64_t(w.jobId)) + " on failed node " + s.nd(cn).name);
    s.agentPass();
    const int64_t tk = tDown + s.jitter(500 * kMs, 2 * kSec);
    s.srun(tk, "srun: error: Node failure on " + s.nd(cn).name);
    s.srun(tk + 1, "srun: Job step aborted: Waiting up to 62 seconds for job step to finish.");
    std::string at;
    appendIsoLocal(at, tk + s.nd(0).skew);
    s.srun(tk + 2, "slurmstepd: error: *** STEP " + str(int64_t(w.jobId)) + ".0 ON " + s.nd(0).name + " CANCELLED AT " + at
                       + " DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***");
    s.timeouts(opStart, seq, "ALLREDUCE", s.numel, tk);
    s.agentPass();
    s.schedulerKill(tk + 3);
    p.detectedAt = tk;
    s.finish();
    p.jobState = "NODE_FAIL";
    p.jobExit = "0:0";
    p.stepState = "CANCELLED";
    p.failedNode = s.nd(cn).name;
    return truthFor(w, cn, -1, -1, "node went silent; the STEP CANCELLED line names the batch host " + s.nd(0).name + ", not the failed node");
}

Truth Scene::schedulerEndsJob()
{
    int64_t tk = tF;
    std::string why;
    if (f == "preemption") {
        why = " DUE TO PREEMPTION";
        p.jobState = "PREEMPTED";
        p.jobExit = "0:15";
    } else if (f == "time_limit") {
        why = " DUE TO TIME LIMIT";
        // The limit is whole minutes; the job runs until it expires.
        p.timeLimitSec = ((tF - w.tStart) / kSec + 59) / 60 * 60;
        tk = w.tStart + p.timeLimitSec * kSec;
        w.tFault = tk;
        p.jobState = "TIMEOUT";
        p.jobExit = "0:15";
    } else {
        p.jobState = "CANCELLED by 1000";
        p.jobExit = "0:15";
    }
    p.stepState = "CANCELLED";
    std::string at;
    appendIsoLocal(at, tk + s.nd(0).skew);
    const std::string job = str(int64_t(w.jobId));
    if (f == "user_cancel") {
        s.srun(tk, "slurmstepd: error: *** JOB " + job + " ON " + s.nd(0).name + " CANCELLED AT " + at + " ***");
        s.srun(tk + 1, "srun: forcing job termination");
    }
    s.srun(tk + 2, "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.");
    s.srun(tk + 3, "slurmstepd: error: *** STEP " + job + ".0 ON " + s.nd(0).name + " CANCELLED AT " + at + why + " ***");
    if (f != "user_cancel")
        s.srun(tk + 4, "slurmstepd: error: *** JOB " + job + " ON " + s.nd(0).name + " CANCELLED AT " + at + why + " ***");
    s.schedulerKill(tk + 10 * kMs);
    p.detectedAt = tk;
    s.finish();
    return truthFor(w, -1, -1, -1, "job-level: the scheduler ended the job");
}

Truth Scene::pyException()
{
    s.stopAt(r, tF);
    auto frames = s.trainFrames();
    frames.push_back({std::string(kMegatron) + "megatron/core/datasets/gpt_dataset.py\", line 251, in __getitem__",
                      "text, document_ids = self._query_document_sample_shuffle_indices(idx)"});
    frames.push_back({std::string(kMegatron) + "megatron/core/datasets/gpt_dataset.py\", line 402, in _query_document_sample_shuffle_indices",
                      "document_index_beg = self.sample_index[idx][0]"});
    const int64_t sz = s.rng.range(1000000, 9000000);
    s.pyTraceback(r, tF, frames, {"IndexError: index " + str(sz) + " is out of bounds for axis 0 with size " + str(sz)}, 1);
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, r, -1, "Python exception on one rank; everything else is the timeout cascade");
}

Truth Scene::straggler()
{
    w.slowRank = r;
    w.slowFrom = std::max(2, w.iterAt(tF) - 11);
    w.slowFactor = 1.8 + 0.8 * double(s.rng.range(0, 100)) / 100.0;
    s.hang(r, tF);
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, r, g, "the rank's step time is ~2x its peers' for its last steps (no error line), then it "
                                 "hangs; the silent rank and the timeouts are downstream");
}

Truth Scene::cudaOom()
{
    if (f == "oom_growth") {
        // report_memory (megatron/training/utils.py) every iteration: allocated grows ~3 % a step.
        const int last = w.iterAt(tF);
        double mb = 52000.0 + double(s.rng.range(0, 4000));
        for (int i = std::max(1, last - 11); i <= last; ++i) {
            mb *= 1.025 + 0.01 * double(s.rng.range(0, 100)) / 100.0;
            std::string line = "[Rank " + str(r) + "] (after " + str(i) + " iterations) memory (MB) | allocated: ";
            appendFixed(line, mb, 4);
            line += " | max allocated: ";
            appendFixed(line, mb * 1.21, 4);
            line += " | reserved: ";
            appendFixed(line, std::ceil(mb * 1.3 / 2.0) * 2.0, 1);
            line += " | max reserved: ";
            appendFixed(line, std::ceil(mb * 1.3 / 2.0) * 2.0, 1);
            s.rank(r, w.iterEnd[size_t(i)] + 2 * kMs, Pfx::Rank, line, 'I');
        }
    }
    s.stopAt(r, tF);
    auto frames = s.trainFrames();
    frames.push_back({std::string(kMegatron) + "megatron/core/tensor_parallel/layers.py\", line 782, in forward",
                      "output_parallel = self._forward_impl("});
    s.pyTraceback(r, tF, frames,
                  {"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU " + str(g)
                       + " has a total capacity of 79.10 GiB of which 1.17 GiB is free. Process " + str(w.pidOf(r))
                       + " has 77.92 GiB memory in use. Of the allocated memory 74.31 GiB is allocated by PyTorch, "
                         "and 1.88 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is "
                         "large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  "
                         "See documentation for Memory Management  "
                         "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"},
                  1);
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, r, g, "allocator OOM on one rank");
}

Truth Scene::nanLoss()
{
    w.nanIter = w.opt.iterations;
    for (int i = 0; i < w.ranks; ++i) {
        const int64_t t = tF + s.jitter(0, 800 * kMs);
        auto frames = s.trainFrames();
        frames.push_back({std::string(kMegatron) + "megatron/core/distributed/param_and_grad_buffer.py\", line 289, in start_grad_sync",
                          "assert not norm.isnan(), ("});
        s.pyTraceback(i, t, frames,
                      {"AssertionError: Rank " + str(i) + ": found NaN in local grad norm in backward pass before "
                       "data-parallel communication collective. Device: " + str(w.localOf(i)) + ", node: " + s.host(i)},
                      1);
    }
    s.agentPass();
    s.finish();
    return truthFor(w, -1, -1, -1, "loss diverged; every rank asserts on the NaN grad norm");
}

Truth Scene::collectiveMismatch()
{
    const int m = w.ranks > 1 ? (r == 0 ? 1 : r) : 0;
    const std::string fp = "TensorDtypes=BFloat16, TensorDeviceTypes=TensorOptions(dtype=float (default), "
                           "device=cuda, layout=Strided (default), requires_grad=false (default), "
                           "pinned_memory=false (default), memory_format=(nullopt))";
    const std::string msg = "RuntimeError: Detected mismatch between collectives on ranks. Rank " + str(m)
                            + " is running collective: CollectiveFingerPrint(SequenceNumber=" + str(seq)
                            + ", OpType=ALLREDUCE, TensorShape=[195812480], " + fp + "), but Rank 0 is running "
                            "collective: CollectiveFingerPrint(SequenceNumber=" + str(seq)
                            + ", OpType=ALLREDUCE, TensorShape=[51123456], " + fp
                            + ").Collectives differ in the following aspects: \t Tensor Tensor shapes: 195812480vs 51123456";
    for (int i = 0; i < w.ranks; ++i) {
        auto frames = s.trainFrames();
        frames.push_back({std::string(kPy) + "torch/distributed/distributed_c10d.py\", line 2288, in all_reduce",
                          "work = group.allreduce([tensor], opts)"});
        s.pyTraceback(i, tF + s.jitter(0, 300 * kMs), frames, {msg}, 1);
    }
    s.agentPass();
    s.finish();
    return truthFor(w, w.nodeOf(m), m, -1, "rank " + str(m) + " runs a differently shaped ALLREDUCE (divergent code path)");
}

Truth Scene::tinyTimeout()
{
    w.timeoutMs = 5000;
    const std::string it = std::string(8 - std::min<size_t>(8, str(w.opt.iterations).size()), ' ') + str(w.opt.iterations);
    s.rank(0, tF, Pfx::RankStamp, "saving checkpoint at iteration " + it + " to /checkpoints/gpt-175b in torch_dist format");
    s.hang(0, tF);
    standardEnd(tF + s.jitter(10 * kMs, 100 * kMs), seq, "ALLREDUCE", s.numel);
    return truthFor(w, -1, -1, -1, "process group timeout of 5 s is shorter than a checkpoint save");
}

Truth Scene::rendezvous()
{
    const std::string bad = "10.64.255.254";
    w.masterAddr = bad;
    for (int i = 0; i < w.ranks; ++i) {
        p.rs[size_t(i)].noInit = true;
        s.stopAt(i, w.tLaunch);
    }
    for (int n = 0; n < w.nodes; ++n) {
        const int r0 = w.rankOf(n, 0);
        for (int k = 0; k < 4; ++k)
            s.rank(r0, w.tLaunch + k * 210 * kSec + s.jitter(0, 3 * kSec), Pfx::C10,
                   "socket.cpp:697] [c10d] The client socket has failed to connect to [" + bad + "]:29500 (errno: 110 - Connection timed out).", 'W');
        const int64_t t = w.tLaunch + 900 * kSec + s.jitter(0, 2 * kSec);
        s.agentRaw(n, t, "Traceback (most recent call last):");
        s.agentRaw(n, t, "  File \"/usr/local/bin/torchrun\", line 8, in <module>");
        s.agentRaw(n, t, "    sys.exit(main())");
        s.agentRaw(n, t, std::string("  File \"") + kPy + "torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py\", line 166, in _create_tcp_store");
        s.agentRaw(n, t, "    store = TCPStore(");
        s.agentRaw(n, t, "torch.distributed.DistNetworkError: The client socket has timed out after 900000ms while trying to connect to (" + bad + ", 29500).");
        p.taskExit[size_t(n)] = t + s.jitter(100 * kMs, 500 * kMs);
        p.taskCode[size_t(n)] = 1;
        for (int l = 0; l < w.gpus; ++l) {
            p.rs[size_t(w.rankOf(n, l))].end = p.taskExit[size_t(n)];
            p.rs[size_t(w.rankOf(n, l))].exitCode = 0;
        }
    }
    w.tFault = w.tLaunch;
    s.finish(true);
    return truthFor(w, -1, -1, -1, "MASTER_ADDR " + bad + " unreachable from every node; no worker ever started");
}

Truth Scene::ambiguous()
{
    s.xid79Lines(c, g, tF);
    s.cudaWatchdog(r, tF + s.jitter(500 * kMs, 2 * kSec), "CUDA error: unknown error");
    const int go = int(pick.range(0, w.gpus - 1));
    const int ro = w.rankOf(other, go);
    const int64_t t2 = tF + s.jitter(200 * kMs, 900 * kMs);
    s.faultNode[size_t(other)] = 1;
    s.xid48Lines(other, go, t2);
    s.cudaWatchdog(ro, t2 + s.jitter(100 * kMs, 400 * kMs), "CUDA error: uncorrectable ECC error encountered");
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    Truth truth = truthFor(w, c, -1, -1, "Xid 79 on " + s.nd(c).name + " GPU " + str(g) + " and Xid 48 on " + s.nd(other).name
                                       + " GPU " + str(go) + " within 1 s");
    truth.status = ResultStatus::Ambiguous;
    if (other != c)
        truth.alsoAcceptableNodes.push_back(s.nd(other).name);
    return truth;
}

Truth Scene::ambiguousDomains()
{
    // An uncorrectable ECC error on one node and a bad IB cable on another,
    // both inside one true second (one syslog second when clocks agree);
    // which prints first is a coin toss. Nothing orders or links them.
    const int64_t sec0 = tF / kSec * kSec;
    int64_t tEcc = sec0 + s.jitter(50 * kMs, 450 * kMs), tIb = sec0 + s.jitter(500 * kMs, 900 * kMs);
    if (pick.chance(0.5))
        std::swap(tEcc, tIb);
    s.xid48Lines(c, g, tEcc);
    s.cudaWatchdog(r, tEcc + s.jitter(100 * kMs, 400 * kMs), "CUDA error: uncorrectable ECC error encountered");
    s.faultNode[size_t(other)] = 1;
    const int k = int(pick.range(0, w.gpus - 1));
    cableFault(other, k, tIb, tIb);
    const int peerOfOther = (other + 1) % w.nodes;
    s.ibError(w.rankOf(other, k), peerOfOther, tIb + s.jitter(15 * kSec, 30 * kSec), false, seq);
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    Truth truth = truthFor(w, c, -1, -1, "Xid 48 on " + s.nd(c).name + " GPU " + str(g) + " and an IB cable fault on "
                                       + s.nd(other).name + " mlx5_" + str(k) + " within one second");
    truth.status = ResultStatus::Ambiguous;
    if (other != c)
        truth.alsoAcceptableNodes.push_back(s.nd(other).name);
    return truth;
}

Truth Scene::noInitiator()
{
    for (int i = 0; i < w.ranks; ++i)
        s.stopAt(i, opStart);
    s.timeouts(opStart, seq, "ALLREDUCE", s.numel);
    s.agentPass();
    s.finish(true);
    Truth truth = truthFor(w, -1, -1, -1, "every rank times out on the same SeqNum; nothing initiates it");
    truth.status = ResultStatus::Unattributed;
    return truth;
}

// synth --baseline's healthy attempt: the job runs its logged iterations and every rank exits 0. Nothing stops,
// nothing times out; the benign noise is what the failed attempt of the same seed prints too.
Truth Scene::healthy()
{
    const int64_t end = tF;
    for (int i = 0; i < w.ranks; ++i) {
        p.rs[size_t(i)].end = end;
        p.rs[size_t(i)].exitCode = 0;
    }
    for (int n = 0; n < w.nodes; ++n) {
        p.taskExit[size_t(n)] = end + 1 * kSec;
        p.taskCode[size_t(n)] = 0;
    }
    p.jobState = "COMPLETED";
    p.jobExit = "0:0";
    p.stepState = "COMPLETED";
    p.jobEnd = end + 2 * kSec;
    p.detectedAt = p.jobEnd;
    Truth truth = truthFor(w, -1, -1, -1, "a healthy attempt: no fault, every rank exits 0");
    truth.status = ResultStatus::Unattributed;
    return truth;
}

Truth Scene::lateSecondFault()
{
    s.xid79Lines(c, g, tF);
    s.cudaWatchdog(r, tF + s.jitter(500 * kMs, 3 * kSec), "CUDA error: unknown error");
    const std::string later = laterFault();
    standardEnd(opStart, seq, "ALLREDUCE", s.numel);
    return truthFor(w, c, r, g, "Xid 79; the Xid 48 on " + later + " came minutes after the hang began: independent");
}

Truth Scene::lateFaultOnly()
{
    for (int i = 0; i < w.ranks; ++i)
        s.stopAt(i, opStart);
    const std::string later = laterFault();
    s.timeouts(opStart, seq, "ALLREDUCE", s.numel);
    s.agentPass();
    s.finish(true);
    Truth truth = truthFor(w, -1, -1, -1, "every rank times out on the same SeqNum, nothing logged starts it; the Xid 48 "
                                          "on " + later + " came minutes after the hang began");
    truth.status = ResultStatus::Unattributed;
    return truth;
}

struct ScenarioKind {
    const char* fault;
    Truth (Scene::*build)();
    bool jobLevel; // the scheduler, the job's code or its configuration: no culprit node
};

const ScenarioKind kScenarios[] = {
    {"xid79", &Scene::gpuOffTheBus, false},
    {"pcie_aer", &Scene::gpuOffTheBus, false},
    {"xid48", &Scene::xid48, false},
    {"xid64", &Scene::xid64, false},
    {"xid119", &Scene::xid119, false},
    {"xid13", &Scene::xid13, false},
    {"xid74", &Scene::xid74, false},
    {"xid149", &Scene::xid149, false},
    {"sxid20034", &Scene::sxid20034, false},
    {"fabric_manager", &Scene::fabricManager, false},
    {"ib_err12", &Scene::ibErr12, false},
    {"ib_port_error", &Scene::ibPortError, false},
    {"ib_startup_err12", &Scene::ibStartupErr12, false},
    {"nic_fatal", &Scene::nicFatal, false},
    {"oom", &Scene::hostOom, false},
    {"shm", &Scene::shmFull, false},
    {"segfault", &Scene::segfault, false},
    {"hung_task", &Scene::hungTask, false},
    {"nfs_hang", &Scene::nfsHang, false},
    {"checkpoint_enospc", &Scene::checkpointEnospc, true},
    {"missing_data", &Scene::missingData, true},
    {"node_fail", &Scene::nodeFail, false},
    {"preemption", &Scene::schedulerEndsJob, true},
    {"time_limit", &Scene::schedulerEndsJob, true},
    {"user_cancel", &Scene::schedulerEndsJob, true},
    {"py_exception", &Scene::pyException, false},
    {"straggler", &Scene::straggler, false},
    {"oom_growth", &Scene::cudaOom, false},
    {"cuda_oom", &Scene::cudaOom, false},
    {"nan_loss", &Scene::nanLoss, true},
    {"collective_mismatch", &Scene::collectiveMismatch, true},
    {"tiny_timeout", &Scene::tinyTimeout, true},
    {"rendezvous", &Scene::rendezvous, true},
    {"ambiguous", &Scene::ambiguous, false},
    {"ambiguous_domains", &Scene::ambiguousDomains, false},
    {"none", &Scene::noInitiator, true},
    {"healthy", &Scene::healthy, true},
    {"late_second_fault", &Scene::lateSecondFault, false},
    {"late_fault_only", &Scene::lateFaultOnly, true},
};

const ScenarioKind* scenarioOf(const std::string& fault)
{
    for (const auto& k : kScenarios)
        if (fault == k.fault)
            return &k;
    return nullptr;
}

} // namespace

bool hasScenario(const std::string& fault)
{
    return scenarioOf(fault) != nullptr;
}

Truth buildScenario(World& w, Plan& p)
{
    setupPlan(w, p);
    // setupWorld refused unknown kinds; anything else injects nothing.
    const ScenarioKind* kind = scenarioOf(w.opt.fault);
    if (!kind)
        kind = scenarioOf("none");
    Scene scene(w, p, kind->jobLevel);
    Truth truth = (scene.*kind->build)();
    truth.fault = w.opt.fault;
    std::sort(p.exitCodes.begin(), p.exitCodes.end());
    return truth;
}

} // namespace fl::synth

// Multi-line records, on the real excerpts of incidents/ and the shapes of domain-facts.md.
#include "test_parse.h"

#include "parse/extent.h"

#include <QElapsedTimer>
#include <QTest>

#include <string>
#include <vector>

using namespace fl;

namespace {

// case08 (NCCL WARN wrapped onto a second line, then its INFO chain)
const char* kCase08 =
    "node-2:5776:5898 [0] NCCL INFO NET/IB : Using [0]ibP111p0s0:1/IB [1]rdmaP1111p0s2:1/RoCE [RO]; OOB eth0:10.2.0.4<0>\n"
    "node-2:5776:5902 [0] transport/net_ib.cc:1296 NCCL WARN NET/IB : Got completion from peer 10.2.0.5<33092> with error 12, opcode 0, len\n"
    "0, vendor err 129 (Recv)\n"
    "node-2:5776:5902 [0] NCCL INFO transport/net.cc:1134 -> 6\n"
    "node-2:5776:5902 [0] NCCL INFO proxy.cc:679 -> 6\n"
    "node-2:5776:5902 [0] NCCL INFO proxy.cc:858 -> 6 [Proxy Thread]\n"
    "node-2:5776:5898 [0] NCCL INFO comm 0x1 rank 0 nranks 2 - Abort COMPLETE\n";

// case27 dmesg (identity + Xid 79 + fallen off the bus, then interleaved SXid lines of three switches)
const char* kCase27 =
    "[6781741.548768] NVRM: GPU at PCI:0000:91:00: GPU-b6c3b2be-c55b-d076-fa0e-d464e4c7e08b\n"
    "[6781741.548776] NVRM: GPU Board Serial Number: 1653723052734\n"
    "[6781741.548779] NVRM: Xid (PCI:0000:91:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"
    "[6781741.548783] NVRM: GPU 0000:91:00.0: GPU has fallen off the bus.\n"
    "[6781741.548786] NVRM: GPU 0000:91:00.0: GPU serial number is 1653723052734.\n"
    "[6781753.400584] nvidia-nvswitch1: SXid (PCI:0000:06:00.0): 20034, Fatal, Link 48 LTSSM Fault Up\n"
    "[6781753.404587] nvidia-nvswitch0: SXid (PCI:0000:05:00.0): 20034, Fatal, Link 63 LTSSM Fault Up\n"
    "[6781753.404848] nvidia-nvswitch2: SXid (PCI:0000:07:00.0): 20034, Severity 1 Engine instance 60 Sub-engine instance 00\n"
    "[6781753.406566] nvidia-nvswitch0: SXid (PCI:0000:05:00.0): 20034, Data {0x10000000, 0x10000000, 0x00000000, 0x10000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000}\n"
    "[6781753.407899] nvidia-nvswitch2: SXid (PCI:0000:07:00.0): 20034, Fatal, Link 37 LTSSM Fault Up\n"
    "[6781753.408138] nvidia-nvswitch0: SXid (PCI:0000:05:00.0): 20034, Fatal, Link 62 LTSSM Fault Up\n"
    "[6781753.409504] nvidia-nvswitch2: SXid (PCI:0000:07:00.0): 20034, Severity 1 Engine instance 37 Sub-engine instance 00\n"
    "[6781753.409792] nvidia-nvswitch0: SXid (PCI:0000:05:00.0): 20034, Severity 1 Engine instance 62 Sub-engine instance 00\n";

// The same identity block as /var/log/syslog prints it, followed by another GPU's Xid.
const char* kSyslogNvrm =
    "Mar  2 15:59:56 node01 kernel: [6781741.548768] NVRM: GPU at PCI:0000:91:00: GPU-b6c3b2be-c55b-d076-fa0e-d464e4c7e08b\n"
    "Mar  2 15:59:56 node01 kernel: [6781741.548776] NVRM: GPU Board Serial Number: 1653723052734\n"
    "Mar  2 15:59:56 node01 kernel: [6781741.548779] NVRM: Xid (PCI:0000:91:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"
    "Mar  2 15:59:56 node01 kernel: [6781741.548783] NVRM: GPU 0000:91:00.0: GPU has fallen off the bus.\n"
    "Mar  2 15:59:57 node01 kernel: [6781742.000000] NVRM: Xid (PCI:0000:cb:00): 13, pid='<unknown>', name=<unknown>, Graphics SM Warp Exception\n"
    "Mar  2 15:59:57 node01 kernel: [6781742.000001] NVRM: Xid (PCI:0000:cb:00): 13, pid='<unknown>', name=<unknown>, Graphics SM Global Exception\n";

const char* kFallenMultiline =
    "[  100.100000] NVRM: The NVIDIA GPU 0000:18:00.0\n"
    "[  100.100001] NVRM: (PCI ID: 10de:20b0) installed in this system has\n"
    "[  100.100002] NVRM: fallen off the bus and is not responding to commands.\n"
    "[  100.200000] nvidia-uvm: Loaded the UVM driver\n";

// case05 verbatim (c10 exception with its C++ frames, torchrun --tee prefix on every line)
const char* kCase05 =
    "[default3]:terminate called after throwing an instance of 'c10::CUDAError'\n"
    "[default3]:  what():  CUDA error: unknown error\n"
    "[default3]:Exception raised from query at ../aten/src/ATen/cuda/CUDAEvent.h:95 (most recent call first):\n"
    "[default3]:frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x42 (0x1518a06137d2 in /gpfswork/rech/six/commun/conda/tr11-176B-ml/lib/python3.8/site-packages/torch/lib/libc10.so)\n"
    "[default3]:frame #1: c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const + 0x11a (0x15190c6c29ea in /gpfswork/rech/six/commun/conda/tr11-176B-ml/lib/python3.8/site-packages/torch/lib/libtorch_cuda_cpp.so)\n"
    "[default3]:frame #2: c10d::ProcessGroupNCCL::WorkNCCL::isCompleted() + 0x50 (0x15190c6c4fd0 in /gpfswork/rech/six/commun/conda/tr11-176B-ml/lib/python3.8/site-packages/torch/lib/libtorch_cuda_cpp.so)\n"
    "[default3]:frame #3: c10d::ProcessGroupNCCL::workCleanupLoop() + 0x145 (0x15190c6c6265 in /gpfswork/rech/six/commun/conda/tr11-176B-ml/lib/python3.8/site-packages/torch/lib/libtorch_cuda_cpp.so)\n"
    "[default3]:frame #4: <unknown function> + 0xc2ba3 (0x15191b339ba3 in /lib64/libstdc++.so.6)\n"
    "[default3]:frame #5: <unknown function> + 0x814a (0x15191c77d14a in /lib64/libpthread.so.0)\n"
    "[default3]:frame #6: clone + 0x43 (0x15191c4acdc3 in /lib64/libc.so.6)\n"
    "[default2]:frame #0: other rank\n";

// case04 (a Python traceback, then a c10 block of its own)
const char* kCase04 =
    "time (ms)\n"
    "Traceback (most recent call last):\n"
    "  File \"/gpfswork/rech/six/commun/code/tr1-13B/Megatron-DeepSpeed-tr1-13B/pretrain_gpt.py\", line 222, in <module>\n"
    "    pretrain(train_valid_test_datasets_provider, model_provider, forward_step,\n"
    "  File \"/gpfswork/rech/six/commun/conda/tr1-13B/lib/python3.8/site-packages/torch/autograd/__init__.py\", line 145, in backward\n"
    "    Variable._execution_engine.run_backward(\n"
    "RuntimeError: transform: failed to synchronize: cudaErrorECCUncorrectable: uncorrectable ECC error encountered\n"
    "terminate called after throwing an instance of 'c10::Error'\n"
    "  what():  CUDA error: uncorrectable ECC error encountered\n"
    "Exception raised from create_event_internal at /opt/conda/conda-bld/pytorch_1616554793803/work/c10/cuda/CUDACachingAllocator.cpp:733 (most recent call first):\n"
    "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x42 (0x1500fb4d42f2 in /gpfswork/rech/six/commun/conda/tr1-13B/lib/python3.8/site-packages/torch/lib/libc10.so)\n"
    "frame #1: c10::detail::torchCheckFail(char const*, char const*, unsigned int, std::string const&) + 0x5b (0x1500fb4d167b in /gpfswork/rech/six/commun/conda/tr1-13B/lib/python3.8/site-packages/torch/lib/libc10.so)\n";

// case09 message (multi-line exception text) inside a labelled traceback, with another rank interleaved after it
const char* kLabelled =
    "[default3]:Traceback (most recent call last):\n"
    "[default3]:  File \"pretrain_gpt.py\", line 222, in <module>\n"
    "[default3]:    work = default_pg.barrier(opts=opts)\n"
    "[default3]:RuntimeError: NCCL error in: /opt/conda/conda-bld/pytorch_1616554793803/work/torch/lib/c10d/ProcessGroupNCCL.cpp:825, unhandled system error, NCCL version 2.7.8\n"
    "[default3]:ncclSystemError: System call (socket, malloc, munmap, etc) failed.\n"
    "[default2]:Traceback (most recent call last):\n"
    "[default2]:  File \"pretrain_gpt.py\", line 222, in <module>\n"
    "[default3]:unrelated\n";

const char* kChained =
    "Traceback (most recent call last):\n"
    "  File \"a.py\", line 3, in f\n"
    "    g()\n"
    "KeyError: 'x'\n"
    "\n"
    "During handling of the above exception, another exception occurred:\n"
    "\n"
    "Traceback (most recent call last):\n"
    "  File \"a.py\", line 5, in <module>\n"
    "    f()\n"
    "ValueError: bad\n"
    "next line\n";

// torchrun ChildFailedError summary (domain-facts 1b.3) after the agent's traceback
const char* kTorchrun =
    "Traceback (most recent call last):\n"
    "  File \"/usr/bin/torchrun\", line 8, in <module>\n"
    "    sys.exit(main())\n"
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
    "============================================================\n"
    "train.py FAILED\n"
    "------------------------------------------------------------\n"
    "Failures:\n"
    "[3]:\n"
    "  time      : 2023-06-03_22:45:52\n"
    "  host      : gpu187.cluster.local\n"
    "  rank      : 3 (local_rank: 3)\n"
    "  exitcode  : 1 (pid: 19418)\n"
    "  error_file: <N/A>\n"
    "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
    "------------------------------------------------------------\n"
    "Root Cause (first observed failure):\n"
    "[0]:\n"
    "  time      : 2023-06-03_22:45:01\n"
    "  host      : gpu187.cluster.local\n"
    "  rank      : 4 (local_rank: 0)\n"
    "  exitcode  : 1 (pid: 19401)\n"
    "  error_file: <N/A>\n"
    "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
    "============================================================\n"
    "after\n";

// case19 Slurm lines: no record spans them
const char* kCase19 =
    "srun: error: Node failure on jean-zay-iam37\n"
    "srun: Job step aborted: Waiting up to 62 seconds for job step to finish.\n"
    "slurmstepd: error: *** STEP 1943824.0 ON jean-zay-iam17 CANCELLED AT 2023-03-06T03:17:51 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***\n";

struct Lines {
    std::vector<size_t> begin, end;
    explicit Lines(const std::string& s)
    {
        size_t p = 0;
        while (p < s.size()) {
            size_t nl = s.find('\n', p);
            if (nl == std::string::npos)
                nl = s.size();
            begin.push_back(p);
            end.push_back(nl);
            p = nl + 1;
        }
    }
};

void row(const char* name, const char* buf, int match, int first, int last)
{
    QTest::newRow(name) << QByteArray(buf) << match << first << last;
}

} // namespace

void ExtentTest::records_data()
{
    QTest::addColumn<QByteArray>("buffer");
    QTest::addColumn<int>("match");
    QTest::addColumn<int>("first");
    QTest::addColumn<int>("last");

    row("case08 warn", kCase08, 1, 1, 5);
    row("case08 wrapped tail", kCase08, 2, 1, 5);
    row("case08 chain middle", kCase08, 4, 1, 5);
    row("case08 chain end", kCase08, 5, 1, 5);
    row("case08 unrelated info", kCase08, 0, 0, 0);
    row("case08 other thread", kCase08, 6, 6, 6);

    row("case27 xid 79", kCase27, 2, 0, 4);
    row("case27 identity", kCase27, 0, 0, 4);
    row("case27 serial", kCase27, 1, 0, 4);
    row("case27 fallen tail", kCase27, 4, 0, 4);
    row("case27 sxid header+data", kCase27, 6, 6, 8);
    row("case27 sxid data line", kCase27, 8, 6, 8);
    row("case27 sxid lone header", kCase27, 5, 5, 5);
    row("case27 sxid orphan severity", kCase27, 7, 7, 7);
    row("case27 sxid switch2", kCase27, 9, 9, 11);
    row("case27 sxid switch2 severity", kCase27, 11, 9, 11);
    row("case27 sxid next event same switch", kCase27, 10, 10, 12);

    row("syslog nvrm xid", kSyslogNvrm, 2, 0, 3);
    row("syslog nvrm identity", kSyslogNvrm, 0, 0, 3);
    row("syslog other gpu xid stays alone", kSyslogNvrm, 4, 4, 4);
    row("syslog xid burst not merged", kSyslogNvrm, 5, 5, 5);

    row("fallen multiline first", kFallenMultiline, 0, 0, 2);
    row("fallen multiline middle", kFallenMultiline, 1, 0, 2);
    row("fallen multiline last", kFallenMultiline, 2, 0, 2);
    row("fallen multiline after", kFallenMultiline, 3, 3, 3);

    row("case05 what", kCase05, 1, 0, 9);
    row("case05 terminate", kCase05, 0, 0, 9);
    row("case05 frame", kCase05, 6, 0, 9);

    row("case04 exception", kCase04, 6, 1, 6);
    row("case04 frame", kCase04, 3, 1, 6);
    row("case04 traceback head", kCase04, 1, 1, 6);
    row("case04 c10 what", kCase04, 8, 7, 11);
    row("case04 before", kCase04, 0, 0, 0);

    row("labelled exception", kLabelled, 3, 0, 4);
    row("labelled continuation", kLabelled, 4, 0, 4);
    row("labelled frame", kLabelled, 2, 0, 4);
    row("other rank traceback", kLabelled, 6, 5, 6);
    row("other rank unrelated", kLabelled, 7, 7, 7);

    row("chained first", kChained, 3, 0, 10);
    row("chained last", kChained, 10, 0, 10);
    row("chained separator alone", kChained, 5, 5, 5);
    row("chained after", kChained, 11, 11, 11);

    row("torchrun root cause", kTorchrun, 16, 0, 24);
    row("torchrun host line", kTorchrun, 19, 0, 24);
    row("torchrun traceback", kTorchrun, 0, 0, 24);
    row("torchrun opening rule", kTorchrun, 4, 0, 24);
    row("torchrun closing rule", kTorchrun, 24, 0, 24);
    row("torchrun after", kTorchrun, 25, 25, 25);

    row("case19 slurm", kCase19, 2, 2, 2);
}

void ExtentTest::records()
{
    QFETCH(QByteArray, buffer);
    QFETCH(int, match);
    QFETCH(int, first);
    QFETCH(int, last);
    const std::string buf = buffer.toStdString();
    const Lines lines(buf);
    const Extent e = recordExtent(buf, lines.begin[size_t(match)], lines.end[size_t(match)]);
    const auto lineOf = [&](size_t off) {
        for (size_t i = 0; i < lines.begin.size(); ++i)
            if (lines.begin[i] == off || lines.end[i] == off)
                return int(i);
        return -1;
    };
    QCOMPARE(e.begin, lines.begin[size_t(first)]);
    QCOMPARE(e.end, lines.end[size_t(last)]);
    QCOMPARE(lineOf(e.begin), first);
    QCOMPARE(int(e.linesBefore), match - first);
    QCOMPARE(int(e.linesAfter), last - match);
}

void ExtentTest::plainLineIsItself()
{
    const std::string buf = "a\nb plain line\nc\n";
    const Extent e = recordExtent(buf, 2, 14);
    QCOMPARE(e.begin, size_t(2));
    QCOMPARE(e.end, size_t(14));
    QCOMPARE(e.linesBefore, 0u);
    QCOMPARE(e.linesAfter, 0u);
    // hostile arguments are clamped
    const Extent c = recordExtent(buf, 100, 50);
    QVERIFY(c.begin <= c.end && c.end <= buf.size());
    const Extent empty = recordExtent({}, 0, 0);
    QCOMPARE(empty.end, size_t(0));
}

void ExtentTest::boundedOnHugeInput()
{
    // 300 frames: the traceback head lies beyond the 200-line window, so the record cannot be claimed
    std::string tb = "Traceback (most recent call last):\n";
    for (int i = 0; i < 300; ++i)
        tb += "  File \"x.py\", line " + std::to_string(i) + ", in f\n";
    const size_t eb = tb.size();
    tb += "RecursionError: maximum recursion depth exceeded\n";
    Extent e = recordExtent(tb, eb, tb.size() - 1);
    QVERIFY(e.linesBefore <= 200 && e.linesAfter <= 200);
    QVERIFY(eb - e.begin <= 64 * 1024);

    // The 64 KiB window, to the byte: a traceback head that starts exactly 64 KiB before the matched line is
    // reached, one a byte further is not (the walk back must not see past the window's floor).
    for (const size_t extra : {size_t(0), size_t(1)}) {
        const std::string head = "Traceback (most recent call last):\n";
        std::string buf = "filler line before the window\n";
        const size_t headAt = buf.size();
        buf += head;
        const size_t frames = 150, room = 64 * 1024 + extra - head.size();
        const std::string frame = "  File \"x.py\", line 1, in f\n";
        for (size_t i = 0; i < frames; ++i) {
            const size_t len = i == 0 ? room - (frames - 1) * (room / frames) : room / frames;
            buf += frame.substr(0, 8) + std::string(len - frame.size(), 'p') + frame.substr(8);
        }
        const size_t mb = buf.size();
        QCOMPARE(mb - headAt, 64 * 1024 + extra);
        buf += "RecursionError: maximum recursion depth exceeded\n";
        e = recordExtent(buf, mb, buf.size() - 1);
        if (extra == 0)
            QCOMPARE(e.begin, headAt);
        else
            QVERIFY(e.begin > headAt);
    }

    // 100 MB lines around the match: answers quickly, stays within 64 KiB each way
    std::string huge(50u << 20, 'x');
    const size_t mb = huge.size() + 1;
    huge += "\n[default3]:  File \"x.py\", line 1, in f\n";
    const size_t me = huge.size() - 1;
    huge += std::string(50u << 20, 'y');
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < 50; ++i) {
        e = recordExtent(huge, mb, me);
        QVERIFY(mb - e.begin <= 64 * 1024 && e.end - me <= 64 * 1024);
    }
    QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));

    // pseudo-random buffers made of record fragments: never out of bounds
    const char* frags[] = {"Traceback (most recent call last):\n", "  File \"a\", line 1\n", "E: x\n", "\n",
                           "[default3]:", "NVRM: Xid (PCI:0000:01:00): 79, x\n", "NVRM: GPU 0000:01:00.0: y\n",
                           "h:1:2 [0] NCCL WARN z\n", "h:1:2 [0] NCCL INFO a.cc:1 -> 6\n", "=========================\n",
                           "x FAILED\n", "frame #0: q\n", "SXid (PCI:0000:05:00.0): 20034, Data {0}\n", "[1.0] "};
    uint32_t seed = 7;
    for (int round = 0; round < 300; ++round) {
        std::string buf;
        for (int k = 0; k < 40; ++k) {
            seed = seed * 1664525u + 1013904223u;
            buf += frags[(seed >> 16) % (sizeof frags / sizeof *frags)];
        }
        const Lines lines(buf);
        for (size_t i = 0; i < lines.begin.size(); ++i) {
            const Extent x = recordExtent(buf, lines.begin[i], lines.end[i]);
            QVERIFY2(x.begin <= lines.begin[i] && x.end >= lines.end[i] && x.end <= buf.size(),
                     qPrintable(QString::fromStdString(buf.substr(lines.begin[i] > 300 ? lines.begin[i] - 300 : 0, 600))
                                + " @line " + QString::number(i)));
        }
    }
}

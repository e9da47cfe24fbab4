// The placement map on small hand-written bundles: which source establishes
// what, local vs global ranks, conflicts reported, node names reconciled.
#include "testutil.h"

#include "bundle/mapped_file.h"

#include <QtTest>

namespace fs = std::filesystem;
using namespace fl;

namespace {

Analysis run(const fs::path& dir) { return analyze(dir.string(), fltest::shippedOnly()); }

// The line an observation stands for (only kernel lines keep their text).
std::string rawLine(const Analysis& a, const Observation& o)
{
    MappedFile m;
    std::string err;
    if (!openSource(m, a.bundle.files.at(o.ref.file.value), &err))
        return {};
    return std::string(m.data().substr(o.ref.offset, o.ref.length));
}

const PlacementEntry* entry(const Placement& p, int rank)
{
    return p.byRank(rank);
}

} // namespace

class TestPlacement : public QObject {
    Q_OBJECT

private slots:
    void ncclBusId()
    {
        // NCCL prints busId with %lx of the bus id read as hex (init.cc, utils.cc busIdToInt64).
        QCOMPARE(QString::fromStdString(pciFromNcclBusId("86000")), QStringLiteral("0000:86:00"));
        QCOMPARE(QString::fromStdString(pciFromNcclBusId("6000")), QStringLiteral("0000:06:00"));
        QCOMPARE(QString::fromStdString(pciFromNcclBusId("1b000")), QStringLiteral("0000:1b:00"));
        QCOMPARE(QString::fromStdString(pciFromNcclBusId("1801000")), QStringLiteral("0018:01:00"));
        for (const char* busId : {"86000", "6000", "1b000", "1801000"}) // and back, as describePlacement names it
            QCOMPARE(QString::fromStdString(ncclBusIdFromPci(pciFromNcclBusId(busId))), QString(busId));
        QVERIFY(pciFromNcclBusId("xyz").empty());
        QVERIFY(pciFromNcclBusId("").empty());
        QCOMPARE(QString::fromStdString(normalizePciAddress("PCI:0000:41:00")), QStringLiteral("0000:41:00"));
        QCOMPARE(QString::fromStdString(normalizePciAddress("00000000:86:00.0")), QStringLiteral("0000:86:00"));
        QVERIFY(normalizePciAddress("PCI:...").empty()); // redacted
    }

    // One torchrun console per node: "[default1]:" is local; the global rank
    // comes from PyTorch's own label, the device and bus from NCCL's init line.
    void perNodeTorchrunConsole()
    {
        QTemporaryDir tmp;
        const fs::path d = tmp.path().toStdString();
        fltest::writeFile(d / "applog-gpu-a100-17.log",
                          "[default0]:a100-17:900:900 [0] NCCL INFO comm 0x1 rank 8 nranks 16 cudaDev 0 nvmlDev 0 busId 7000 commId 0x2 - Init START\n"
                          "[default1]:a100-17:901:901 [1] NCCL INFO comm 0x3 rank 9 nranks 16 cudaDev 1 nvmlDev 1 busId b000 commId 0x2 - Init START\n"
                          "[default1]:a100-17:901:901 [1] NCCL INFO comm 0x4 rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId b000 commId 0x5 - Init START\n"
                          "[default1]:RuntimeError: CUDA error: an illegal memory access was encountered\n");
        const Analysis a = run(d);
        const Placement& p = a.placement;
        QCOMPARE(p.worldSize, 16);
        const PlacementEntry* e9 = entry(p, 9);
        QVERIFY(e9);
        QCOMPARE(QString::fromStdString(e9->node), QStringLiteral("a100-17"));
        QCOMPARE(e9->localRank, 1);
        QCOMPARE(e9->gpu, 1);
        QCOMPARE(QString::fromStdString(e9->pci), QStringLiteral("0000:0b:00"));
        QVERIFY(!entry(p, 1)); // the split communicator's rank 1 is not a global rank
        QVERIFY(p.conflicts.empty());
        const std::string text = describePlacement(p, a.bundle.files);
        // Each fact with how it was read and where (the sources are data; this is their one text).
        for (const char* want : {"PCI 0000:0b:00 <- NCCL init line busId b000 (applog-gpu-a100-17.log:2)",
                                 "rank 9 of 16 <- NCCL init line (comm rank, nranks) (applog-gpu-a100-17.log:2)",
                                 "GPU 1 <- NCCL init line cudaDev (applog-gpu-a100-17.log:",
                                 "host a100-17 <- NCCL host:pid:tid prefix (applog-gpu-a100-17.log:2)",
                                 "pid 901 <- NCCL host:pid:tid prefix"})
            QVERIFY2(text.find(want) != std::string::npos, (std::string(want) + "\n" + text).c_str());
        // the error line of local rank 1 lands on global rank 9
        bool found = false;
        for (const auto& o : a.observations)
            if (rawLine(a, o).find("illegal memory access") != std::string::npos) {
                QCOMPARE(o.rank, 9);
                QCOMPARE(o.gpuIndex, 1);
                found = true;
            }
        QVERIFY(found);
    }

    // The manifest is one more source: where it disagrees with the logs, a conflict is reported.
    void manifestConflict()
    {
        QTemporaryDir tmp;
        const fs::path d = tmp.path().toStdString();
        fltest::writeFile(d / "applog-node-07-rank3.log",
                          "node-07:77:77 [1] NCCL INFO comm 0x1 rank 3 nranks 4 cudaDev 1 nvmlDev 1 busId 41000 commId 0x2 - Init START\n"
                          "[rank3]:[E314 10:00:01.000 ProcessGroupNCCL.cpp:1] [Rank 3] Watchdog caught collective operation timeout\n");
        fltest::writeFile(d / "workload.json", R"({"ranks": {"3": {"node": "node-08", "gpu": 1}}})");
        const Analysis a = run(d);
        QVERIFY(!a.placement.conflicts.empty());
        const std::string text = describePlacement(a.placement, a.bundle.files);
        QVERIFY2(text.find("node-07 in the logs vs node-08 in the manifest") != std::string::npos, text.c_str());
    }

    // A kernel Xid naming a pid and a bus ties the bus to the rank whose NCCL lines carry that pid.
    void xidPidTiesBusToRank()
    {
        QTemporaryDir tmp;
        const fs::path d = tmp.path().toStdString();
        fltest::writeFile(d / "slurm-1.out",
                          "5: h100-sxm-05:4242:4242 [1] NCCL INFO cudaDriverVersion 12040\n"
                          "4: h100-sxm-05:4241:4241 [0] NCCL INFO cudaDriverVersion 12040\n");
        fltest::writeFile(d / "syslog-h100-sxm-05.log",
                          "May 21 13:02:39 h100-sxm-05 kernel: NVRM: Xid (PCI:0000:c1:00): 79, pid=4242, name=python, GPU has fallen off the bus.\n");
        const Analysis a = run(d);
        const PlacementEntry* e5 = entry(a.placement, 5);
        QVERIFY(e5);
        QCOMPARE(QString::fromStdString(e5->pci), QStringLiteral("0000:c1:00"));
        const std::string text = describePlacement(a.placement, a.bundle.files);
        QVERIFY2(text.find("PCI 0000:c1:00 used by pid 4242 <- kernel line naming the bus and the pid "
                           "(syslog-h100-sxm-05.log:1)") != std::string::npos, text.c_str());
        QVERIFY2(text.find("global rank 5 <- srun --label task id (one task per GPU) (slurm-1.out:1)") != std::string::npos,
                 text.c_str());
        QVERIFY(a.result.rootCause);
        QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("h100-sxm-05"));
        QCOMPARE(a.result.rootCause->rank, 5);
        QCOMPARE(a.result.rootCause->gpuIndex, 1);
    }

    // Host names with GPU-model tokens are kept whole; a file-name tail of one
    // named host is that host.
    void nodeIdentity()
    {
        for (const auto& [path, node] : std::vector<std::pair<std::string, std::string>>{
                 {"applog-v100-e02-rank13.log", "v100-e02"},
                 {"syslog-a100-17.log", "a100-17"},
                 {"dmesg-h100-sxm-05.log", "h100-sxm-05"},
                 {"applog-model-v2-node-4.log", "node-4"}}) {
            SourceFile f;
            f.path = path;
            classifyFile(f, {});
            QVERIFY2(f.node == node, (path + " -> " + f.node).c_str());
        }
        QTemporaryDir tmp;
        const fs::path d = tmp.path().toStdString();
        fltest::writeFile(d / "syslog-rack7-e02.log", "May 21 13:02:39 gpu-rack7-e02 kernel: NVRM: Xid (PCI:0000:86:00): 48, pid='<unknown>', name=<unknown>, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 3, subpartition 1.\n");
        const Analysis a = run(d);
        QCOMPARE(a.placement.nodes.size(), size_t(1));
        QCOMPARE(QString::fromStdString(a.placement.nodes[0].name), QStringLiteral("gpu-rack7-e02"));
        QVERIFY(a.result.rootCause);
        QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("gpu-rack7-e02"));
    }

    // The other ways a file's name and the hosts its lines name are reconciled, each looked up (not compared
    // pair by pair): a fully qualified name, a file name that wraps the host's, and a name two hosts could own.
    void nodeIdentityForms()
    {
        const auto xid = [](const std::string& host) {
            return "May 21 13:02:39 " + host + " kernel: NVRM: Xid (PCI:0000:86:00): 79, pid=1, GPU has fallen off the bus.\n";
        };
        const auto aliases = [](const Placement& p) {
            std::string out;
            for (const auto& n : p.nodes)
                for (const auto& al : n.aliases)
                    out += n.name + "=" + al + ";";
            return out;
        };
        {
            QTemporaryDir tmp;
            const fs::path d = tmp.path().toStdString();
            fltest::writeFile(d / "syslog-node07.log", xid("node07.cluster.example"));
            const Analysis a = run(d);
            QCOMPARE(QString::fromStdString(aliases(a.placement)), QStringLiteral("node07=node07.cluster.example;"));
            QVERIFY(a.placement.conflicts.empty());
        }
        {
            QTemporaryDir tmp;
            const fs::path d = tmp.path().toStdString();
            fltest::writeFile(d / "syslog-gpu-a100-17.log", xid("a100-17"));
            const Analysis a = run(d);
            QCOMPARE(QString::fromStdString(aliases(a.placement)), QStringLiteral("a100-17=gpu-a100-17;"));
        }
        {
            QTemporaryDir tmp;
            const fs::path d = tmp.path().toStdString();
            fltest::writeFile(d / "syslog-e02.log", xid("gpu-e02") + xid("cpu-e02") + xid("e02x"));
            const Analysis a = run(d);
            QCOMPARE(QString::fromStdString(aliases(a.placement)), QString());
            QCOMPARE(a.placement.conflicts.size(), size_t(1));
            QCOMPARE(QString::fromStdString(a.placement.conflicts[0].message),
                     QStringLiteral("node name 'e02' could be any of cpu-e02, gpu-e02: left as written"));
        }
    }
};

QTEST_GUILESS_MAIN(TestPlacement)
#include "test_placement.moc"

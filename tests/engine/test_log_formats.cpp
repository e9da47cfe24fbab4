// Real wrappers and formats end to end (issue #8 item 5): a bundle carrying only
// that form still gives its verdict; tests/parse checks the prefixes one by one.
#include "engine/engine.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace fl;
namespace fs = std::filesystem;
using fltest::shippedOnly;
using fltest::writeFile;

namespace {

QString str(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

Analysis analyzeOne(const QTemporaryDir& tmp, const std::string& name, const std::string& content)
{
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-12-03T09:00:00Z"}})");
    writeFile(dir / name, content);
    return analyze(dir.string(), shippedOnly());
}

const ConnectorReport* connector(const Result& r, const std::string& file)
{
    for (const auto& c : r.connectors)
        if (c.file == file)
            return &c;
    return nullptr;
}

} // namespace

class TestLogFormats : public QObject {
    Q_OBJECT
private slots:
    void journalJsonExport();
    void dmesgReltime();
    void dmesgDecodeKeepsTheTime();
    void redactedKernelLineIsKept();
    void nvidiaSmiLostGpu();
    void ncclInitCompleteAnchorsTheClocks();
    void slurmDaemonNamedAfterItsNode();
};

void TestLogFormats::journalJsonExport()
{
    QTemporaryDir tmp;
    const Analysis a = analyzeOne(
        tmp, "gpu-a17.json",
        R"({"__CURSOR":"s=1;i=1","__REALTIME_TIMESTAMP":"1796292062000000","PRIORITY":"6","_TRANSPORT":"kernel","MESSAGE":"nvidia-nvswitch: probe","_HOSTNAME":"gpu-a17"})"
        "\n"
        R"({"__CURSOR":"s=1;i=2","__REALTIME_TIMESTAMP":"1796292062338871","PRIORITY":"4","_TRANSPORT":"kernel","MESSAGE":"NVRM: Xid (PCI:0000:ab:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.","_HOSTNAME":"gpu-a17"})"
        "\n");
    const ConnectorReport* c = connector(a.result, "gpu-a17.json");
    QVERIFY(c);
    QCOMPARE(str(toString(c->kind)), QStringLiteral("syslog"));
    QCOMPARE(str(toString(a.result.status)), QStringLiteral("attributed"));
    QCOMPARE(str(a.result.rootCause->symptom), QStringLiteral("gpu.xid.79"));
    QCOMPARE(str(a.result.rootCause->node), QStringLiteral("gpu-a17"));
    QCOMPARE(str(toString(a.result.rootCause->time.basis)), QStringLiteral("absolute"));
    QCOMPARE(qint64(a.result.rootCause->time.ns), qint64(1796292062338871000LL));
}

void TestLogFormats::dmesgReltime()
{
    // dmesg -H: a minute stamp, then deltas that inherit it.
    QTemporaryDir tmp;
    const Analysis a = analyzeOne(tmp, "dmesg-gpu-a17.txt",
                                  "[Dec 3 10:01] nvidia-nvswitch0: open\n"
                                  "[  +0.000123] NVRM: Xid (PCI:0000:ab:00): 79, pid='<unknown>', name=<unknown>, "
                                  "GPU has fallen off the bus.\n"
                                  "[Dec 3 10:02] systemd[1]: Started Session 4.\n");
    QCOMPARE(str(toString(a.result.status)), QStringLiteral("attributed"));
    QCOMPARE(str(a.result.rootCause->symptom), QStringLiteral("gpu.xid.79"));
    QCOMPARE(str(a.result.rootCause->node), QStringLiteral("gpu-a17"));
    // Between its stamped neighbours: 10:01 to the end of 10:02.
    QVERIFY(a.result.rootCause->time.interval.bounded());
    QVERIFY(a.result.rootCause->time.interval.latestNs - a.result.rootCause->time.interval.earliestNs >= 60LL * 1'000'000'000);
}

void TestLogFormats::dmesgDecodeKeepsTheTime()
{
    // dmesg -x -T on two nodes: the facility:level prefix comes before the
    // stamp. Read, the stamps order the two Xids 28 s apart; unread, both
    // would be untimed and could not be ordered.
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-12-03T09:00:00Z"}})");
    writeFile(dir / "dmesg-gpu-a17.txt",
              "kern  :info  : [Thu Dec  3 10:00:00 2026] nvidia-nvswitch0: open\n"
              "kern  :err   : [Thu Dec  3 10:01:02 2026] NVRM: Xid (PCI:0000:ab:00): 79, pid='<unknown>', "
              "name=<unknown>, GPU has fallen off the bus.\n");
    writeFile(dir / "dmesg-gpu-b04.txt",
              "kern  :info  : [Thu Dec  3 10:00:00 2026] nvidia-nvswitch0: open\n"
              "kern  :err   : [Thu Dec  3 10:01:30 2026] NVRM: Xid (PCI:0000:1b:00): 79, pid='<unknown>', "
              "name=<unknown>, GPU has fallen off the bus.\n");
    const Analysis a = analyze(dir.string(), shippedOnly());
    QCOMPARE(str(toString(a.result.status)), QStringLiteral("attributed"));
    QCOMPARE(str(a.result.rootCause->symptom), QStringLiteral("gpu.xid.79"));
    QCOMPARE(str(a.result.rootCause->node), QStringLiteral("gpu-a17"));
}

void TestLogFormats::redactedKernelLineIsKept()
{
    QTemporaryDir tmp;
    const Analysis a = analyzeOne(tmp, "syslog-pasted.log",
                                  "Dec  3 10:01:02 <hostname> kernel: [883201.445102] NVRM: Xid (PCI:...): 79, "
                                  "pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n");
    QCOMPARE(str(toString(a.result.status)), QStringLiteral("attributed"));
    QCOMPARE(str(a.result.rootCause->symptom), QStringLiteral("gpu.xid.79"));
    QVERIFY(a.result.rootCause->pciBus.empty()); // redacted, never the placeholder
}

void TestLogFormats::nvidiaSmiLostGpu()
{
    QTemporaryDir tmp;
    const Analysis a = analyzeOne(tmp, "nvidia-smi-gpu-a17.txt",
                                  "Unable to determine the device handle for GPU0000:91:00.0: Unknown Error\n");
    QCOMPARE(str(toString(a.result.status)), QStringLiteral("attributed"));
    QCOMPARE(str(a.result.rootCause->symptom), QStringLiteral("gpu.smi_no_handle"));
    QCOMPARE(str(a.result.rootCause->node), QStringLiteral("gpu-a17"));
    QCOMPARE(str(a.result.rootCause->pciBus), QStringLiteral("0000:91:00"));
}

void TestLogFormats::ncclInitCompleteAnchorsTheClocks()
{
    // kubectl logs --timestamps stamps NCCL's INFO lines; every rank of one
    // communicator prints Init COMPLETE with the same commId at the moment the
    // init they did together ends. gpu-b04's clock runs 4 s ahead.
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "applog-gpu-a17-rank0.log",
              "2026-12-03T10:00:41.100000000Z gpu-a17:88412:88412 [0] NCCL INFO comm 0x55d0 rank 0 nranks 2 cudaDev 0 "
              "nvmlDev 0 busId 18000 commId 0x3f9f0e5c1a2b3c4d - Init COMPLETE\n");
    writeFile(dir / "applog-gpu-b04-rank1.log",
              "2026-12-03T10:00:45.150000000Z gpu-b04:33018:33018 [0] NCCL INFO comm 0x5612 rank 1 nranks 2 cudaDev 0 "
              "nvmlDev 0 busId 18000 commId 0x3f9f0e5c1a2b3c4d - Init COMPLETE\n");
    const Analysis a = analyze(dir.string(), shippedOnly());
    const ClockOffset* b04 = nullptr;
    for (const auto& c : a.result.clockOffsets)
        if (c.node == "gpu-b04")
            b04 = &c;
    QVERIFY(b04);
    QCOMPARE(qint64(b04->offsetNs), qint64(4'050'000'000LL));
    QCOMPARE(b04->anchors, 1u);
    QVERIFY2(QString::fromStdString(b04->basis).contains("NCCL init commId 0x3f9f0e5c1a2b3c4d"), b04->basis.c_str());
}

QTEST_GUILESS_MAIN(TestLogFormats)
#include "test_log_formats.moc"

// Slurm for several slurmd a host names its step daemon after the node (src/slurmd/slurmstepd/mgr.c
// "slurmstepd-%s"): the job's stderr carries "slurmstepd-gpu-07: error: ...". The verdict is Slurm's cgroup OOM
// kill on gpu-07, not two faults on "gpu-07" and a pdsh host "slurmstepd-gpu-07".
void TestLogFormats::slurmDaemonNamedAfterItsNode()
{
    QTemporaryDir tmp;
    const Analysis a = analyzeOne(
        tmp, "job.err",
        "slurmstepd-gpu-07: error: Detected 1 oom_kill event in StepId=4412871.0. Some of the step tasks have been OOM Killed.\n"
        "slurmstepd-gpu-07: error: *** STEP 4412871.0 ON gpu-07 CANCELLED AT 2026-12-03T09:16:03 ***\n");
    const ConnectorReport* c = connector(a.result, "job.err");
    QVERIFY(c);
    QCOMPARE(str(toString(c->kind)), QStringLiteral("scheduler"));
    QCOMPARE(str(toString(a.result.status)), QStringLiteral("attributed"));
    QCOMPARE(str(a.result.rootCause->symptom), QStringLiteral("host.oom_kill_cgroup"));
    QCOMPARE(str(a.result.rootCause->node), QStringLiteral("gpu-07"));
    for (const auto& e : a.observations)
        QVERIFY2(e.node == "gpu-07", e.node.c_str());
}

// Launch lines as clock anchors (issue #8 item 1): torchrun's start and
// rendezvous, slurmd's "launch task", printed by every node at one true
// moment, estimate each node's clock offset. Here a node's clock runs 4 s
// ahead and only its launch lines reveal it: its Xid 79 (printed 4 s late)
// would otherwise tie with — or lose to — another node's later fault.
#include "engine/engine.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace fl;
namespace fs = std::filesystem;
using fltest::shippedOnly;
using fltest::writeFile;
using fltest::statusOf;
using fltest::candidateFor;

namespace {

// True time 12:14:50: Xid 79 on gpu-c09 (its clock +4 s prints 12:14:54).
// True time 12:14:52: Xid 48 on gpu-a17 (clock right).
void faults(const fs::path& dir)
{
    writeFile(dir / "syslog-gpu-c09.log",
              "Nov 30 12:14:54 gpu-c09 kernel: [883201.445102] NVRM: Xid (PCI:0000:ab:00): 79, pid='<unknown>', "
              "name=<unknown>, GPU has fallen off the bus.\n");
    writeFile(dir / "syslog-gpu-a17.log",
              "Nov 30 12:14:52 gpu-a17 kernel: [883208.120900] NVRM: Xid (PCI:0000:cc:00): 48, pid=88415, name=python3, "
              "An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 6, "
              "subpartition 0.\n");
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-11-30T11:00:00Z"}})");
}

// torch.distributed.launcher.api's start line and the agent's rendezvous
// result (torch 2.x logging format), at `second` past 12:00 on that node's clock.
std::string torchrunLaunch(int second, int restartSecond = -1)
{
    auto at = [](int s) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "[2026-11-30 12:%02d:%02d,100]", s / 60, s % 60);
        return std::string(buf);
    };
    std::string log = at(second) + " torch.distributed.launcher.api: [INFO] Starting elastic_operator with launch configs:\n" +
                      at(second) + " torch.distributed.launcher.api: [INFO]   entrypoint       : pretrain_gpt.py\n" +
                      at(second) + " torch.distributed.launcher.api: [INFO]   min_nodes        : 3\n";
    if (restartSecond >= 0) // a restart prints them again, minutes later
        log += at(restartSecond) + " torch.distributed.launcher.api: [INFO] Starting elastic_operator with launch configs:\n";
    return log;
}

std::string slurmdLaunch(int second)
{
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "[2026-11-30T12:00:%02d.210] launch task StepId=4242.0 request from UID:1000 GID:1000 HOST:10.0.0.1 "
                  "PORT:45678\n",
                  second);
    return buf;
}


const ClockOffset* offsetOf(const Result& r, const std::string& node)
{
    for (const auto& c : r.clockOffsets)
        if (c.node == node)
            return &c;
    return nullptr;
}

} // namespace

class TestClockAnchors : public QObject {
    Q_OBJECT
private slots:
    void withoutAnchorsTheFaultsCannotBeOrdered();
    void torchrunLaunchLinesRevealTheClockAhead();
    void aRestartDoesNotMoveTheAnchor();
    void slurmdLaunchLinesRevealTheClockAhead();
};

void TestClockAnchors::withoutAnchorsTheFaultsCannotBeOrdered()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    faults(dir);
    Analysis a = analyze(dir.string(), shippedOnly());
    QVERIFY(a.result.clockOffsets.empty());
    // 2 s apart as printed, each widened by the unknown skew: not attributed to gpu-c09.
    QVERIFY(statusOf(a.result) != "attributed" || a.result.rootCause->node != "gpu-c09");
}

void TestClockAnchors::torchrunLaunchLinesRevealTheClockAhead()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    faults(dir);
    writeFile(dir / "applog-gpu-a17.log", torchrunLaunch(1));
    writeFile(dir / "applog-gpu-b04.log", torchrunLaunch(1));
    writeFile(dir / "applog-gpu-c09.log", torchrunLaunch(5));
    Analysis a = analyze(dir.string(), shippedOnly());
    const ClockOffset* c = offsetOf(a.result, "gpu-c09");
    QVERIFY(c);
    QCOMPARE(c->offsetNs, 4'000'000'000LL);
    QVERIFY(c->residualNs < 100'000'000);
    QVERIFY2(c->basis.find("torchrun") != std::string::npos, c->basis.c_str());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("gpu-c09"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("gpu.xid.79"));
}

void TestClockAnchors::aRestartDoesNotMoveTheAnchor()
{
    // gpu-c09's agent restarted 3 minutes later and printed its start again;
    // the others did not. Only each node's first launch is the shared moment.
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    faults(dir);
    writeFile(dir / "applog-gpu-a17.log", torchrunLaunch(1));
    writeFile(dir / "applog-gpu-b04.log", torchrunLaunch(1));
    writeFile(dir / "applog-gpu-c09.log", torchrunLaunch(5, 185));
    Analysis a = analyze(dir.string(), shippedOnly());
    const ClockOffset* c = offsetOf(a.result, "gpu-c09");
    QVERIFY(c);
    QCOMPARE(c->offsetNs, 4'000'000'000LL);
    QVERIFY(c->residualNs < 100'000'000);
    QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("gpu-c09"));
}

void TestClockAnchors::slurmdLaunchLinesRevealTheClockAhead()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    faults(dir);
    writeFile(dir / "slurmd-gpu-a17.log", slurmdLaunch(0));
    writeFile(dir / "slurmd-gpu-b04.log", slurmdLaunch(0));
    writeFile(dir / "slurmd-gpu-c09.log", slurmdLaunch(4));
    Analysis a = analyze(dir.string(), shippedOnly());
    const ClockOffset* c = offsetOf(a.result, "gpu-c09");
    QVERIFY(c);
    QCOMPARE(c->offsetNs, 4'000'000'000LL);
    QVERIFY2(c->basis.find("4242.0") != std::string::npos, c->basis.c_str());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("gpu-c09"));
}

QTEST_GUILESS_MAIN(TestClockAnchors)
#include "test_clock_anchors.moc"

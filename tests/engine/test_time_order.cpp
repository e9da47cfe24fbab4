// Time as an interval: what a stamp's resolution, an untimed line's
// neighbours and a node's clock offset say about when something happened.
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

constexpr int64_t kSec = 1'000'000'000;

const SymptomEvent* firstEvent(const Result& r, const std::string& symptom, const std::string& node = {})
{
    for (const auto& e : r.events)
        if (e.originalSymptom == symptom && (node.empty() || e.node == node))
            return &e;
    return nullptr;
}

const ClockOffset* offsetOf(const Result& r, const std::string& node)
{
    for (const auto& c : r.clockOffsets)
        if (c.node == node)
            return &c;
    return nullptr;
}

// Syslog and glog print no year: the manifest's window gives it.
fs::path bundleWithYear(const QTemporaryDir& tmp)
{
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-03-14T09:00:00Z"}})");
    return dir;
}

std::string watchdog(int rank, const std::string& hms, int ranForMs)
{
    return "[rank" + std::to_string(rank) + "]:[E314 " + hms + " ProcessGroupNCCL.cpp:607] [Rank " +
           std::to_string(rank) +
           "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4120, OpType=ALLREDUCE, "
           "NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for " +
           std::to_string(ranForMs) + " milliseconds before timing out.\n";
}

} // namespace

class TestTimeOrder : public QObject {
    Q_OBJECT
private slots:
    void aStampIsItsResolutionWide();
    void anUntimedLineLiesBetweenItsStampedNeighbours();
    void sharedTimeoutsGiveEachNodeItsOffset();
    void independentFaultsInOneSecondAreAmbiguousAcrossDomains();
    void aPeerReportDoesNotPrecedeTheFaultThatCausedIt();
    void aClearlyEarlierFaultWinsAcrossNodes();
    void anUnmeasuredClockIsAsUncertainAsTheMeasuredOnes();
    void aFaultOnTheNamedNodeExplainsThePeersReportWhateverItsWeight();
};

void TestTimeOrder::aStampIsItsResolutionWide()
{
    QTemporaryDir tmp;
    const fs::path dir = bundleWithYear(tmp);
    writeFile(dir / "syslog-node-01.log",
              "Mar 14 10:00:40 node-01 kernel: NVRM: Xid (PCI:0000:19:00): 79, pid='<unknown>', name=<unknown>, "
              "GPU has fallen off the bus.\n");
    Analysis a = analyze(dir.string(), shippedOnly());
    const SymptomEvent* x = firstEvent(a.result, "gpu.xid.79");
    QVERIFY(x);
    // Syslog prints whole seconds: the fault lies anywhere in 10:00:40.
    QCOMPARE(x->time.interval.earliestNs, x->time.ns);
    QCOMPARE(x->time.interval.latestNs, x->time.ns + kSec - 1);
    // Without a second node there is no offset to estimate, so the root cause
    // carries the unknown-offset allowance (clock_skew_tolerance_s) on both sides.
    QVERIFY(a.result.rootCause);
    QVERIFY(a.result.clockOffsets.empty());
    QVERIFY(a.result.rootCause->time.interval.earliestNs < x->time.ns);
    QVERIFY(a.result.rootCause->time.interval.latestNs > x->time.ns + kSec - 1);
}

void TestTimeOrder::anUntimedLineLiesBetweenItsStampedNeighbours()
{
    QTemporaryDir tmp;
    const fs::path dir = bundleWithYear(tmp);
    // NCCL prints WARN lines without a stamp; the glog lines around it bound it.
    writeFile(dir / "applog-node-02-rank3.log",
              "[rank3]:[I314 10:00:00.000001 ProcessGroupNCCL.cpp:900] [Rank 3] ProcessGroupNCCL initialization\n"
              "node-02:1234:1300 [3] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer "
              "10.1.2.3<41240> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.1.2.4 "
              "remoteGids::ffff:10.1.2.3 hca mlx5_0\n"
              "node-02:1234:1300 [3] NCCL INFO misc/socket.cc:50 -> 6\n"
              "[rank3]:[E314 10:04:59.250000 ProcessGroupNCCL.cpp:1595] [Rank 3] Process group watchdog thread "
              "terminated with exception\n");
    Analysis a = analyze(dir.string(), shippedOnly());
    const SymptomEvent* e = firstEvent(a.result, "network.ib_completion_error");
    QVERIFY(e);
    QVERIFY(e->time.basis == TimeBasis::Inherited);
    QCOMPARE(e->time.interval.earliestNs, e->time.ns);
    // Up to the end of the microsecond printed on the next stamped line.
    QCOMPARE(e->time.interval.latestNs - e->time.interval.earliestNs, 299 * kSec + 249'999'000 + 1000 - 1);

    // With no stamped line after it, the bound is the file's last write.
    writeFile(dir / "applog-node-02-rank3.log",
              "[rank3]:[I314 10:00:00.000001 ProcessGroupNCCL.cpp:900] [Rank 3] ProcessGroupNCCL initialization\n"
              "node-02:1234:1300 [3] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer "
              "10.1.2.3<41240> with status=12 opcode=0 len=0 vendor err 129 (Recv)\n");
    Analysis b = analyze(dir.string(), shippedOnly());
    const SymptomEvent* f = firstEvent(b.result, "network.ib_completion_error");
    QVERIFY(f);
    const auto mtime = fs::last_write_time(dir / "applog-node-02-rank3.log");
    const int64_t mtimeNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                std::chrono::file_clock::to_sys(mtime).time_since_epoch())
                                .count();
    QCOMPARE(f->time.interval.latestNs, mtimeNs);
}

void TestTimeOrder::sharedTimeoutsGiveEachNodeItsOffset()
{
    QTemporaryDir tmp;
    const fs::path dir = bundleWithYear(tmp);
    // Every rank enqueued SeqNum 4120 at 10:00:41.000 true time. node-03's clock
    // runs 3.2 s ahead; node-02's ranks time out at different moments but
    // their "ran for" puts the enqueue at the same instant.
    writeFile(dir / "applog-node-01-rank0.log", watchdog(0, "10:10:41.005000", 600005));
    writeFile(dir / "applog-node-01-rank1.log", watchdog(1, "10:10:41.007000", 600007));
    writeFile(dir / "applog-node-02-rank2.log", watchdog(2, "10:10:41.900000", 600900));
    writeFile(dir / "applog-node-02-rank3.log", watchdog(3, "10:10:42.300000", 601300));
    writeFile(dir / "applog-node-03-rank4.log", watchdog(4, "10:10:44.205000", 600005));
    writeFile(dir / "applog-node-03-rank5.log", watchdog(5, "10:10:44.206000", 600006));
    Analysis a = analyze(dir.string(), shippedOnly());
    const ClockOffset* n1 = offsetOf(a.result, "node-01");
    const ClockOffset* n3 = offsetOf(a.result, "node-03");
    QVERIFY(n1 && n3 && offsetOf(a.result, "node-02"));
    QCOMPARE(n1->offsetNs, int64_t(0));
    QCOMPARE(n3->offsetNs, int64_t(3'200'000'000));
    QVERIFY2(n3->residualNs < 10'000'000, std::to_string(n3->residualNs).c_str());
    QCOMPARE(n3->anchors, 1u);
}

namespace {

const std::string kXid48 = "Mar 14 10:00:42 node-01 kernel: [1692.101100] NVRM: Xid (PCI:0000:1b:00): 48, pid=43004, "
                           "name=python3, An uncorrectable double bit error (DBE) has been detected on GPU in the "
                           "framebuffer at partition 6, subpartition 0.\n";

std::string linkDown(const std::string& hms)
{
    return "Mar 14 " + hms + " node-02 kernel: [1700.000100] mlx5_core 0000:41:00.0 ibp65s0: Link down\n";
}

// node-02's rank 3: a stamped line, NCCL's untimed error 12 naming 10.1.2.3, the stamped watchdog exception.
std::string peerReport(const std::string& before, const std::string& after)
{
    return "[rank3]:[I314 " + before + " ProcessGroupNCCL.cpp:900] [Rank 3] ProcessGroupNCCL initialization\n"
           "node-02:1234:1300 [3] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer "
           "10.1.2.3<41240> with status=12 opcode=0 len=0 vendor err 129 (Recv)\n"
           "[rank3]:[E314 " + after + " ProcessGroupNCCL.cpp:1595] [Rank 3] Process group watchdog thread "
           "terminated with exception\n";
}

} // namespace

void TestTimeOrder::independentFaultsInOneSecondAreAmbiguousAcrossDomains()
{
    // A GPU ECC error on node-01 and a NIC link down on node-02 in the same
    // syslog second: nothing orders them and neither explains the other.
    QTemporaryDir tmp;
    const fs::path dir = bundleWithYear(tmp);
    writeFile(dir / "syslog-node-01.log", kXid48);
    writeFile(dir / "syslog-node-02.log", linkDown("10:00:42"));
    Analysis a = analyze(dir.string(), shippedOnly());
    QVERIFY(a.result.status == ResultStatus::Ambiguous);
    QCOMPARE(a.result.candidates.size(), size_t(2));
}

void TestTimeOrder::aClearlyEarlierFaultWinsAcrossNodes()
{
    // The same two faults 30 s apart: beyond any unknown clock offset.
    QTemporaryDir tmp;
    const fs::path dir = bundleWithYear(tmp);
    writeFile(dir / "syslog-node-01.log", kXid48);
    writeFile(dir / "syslog-node-02.log", linkDown("10:00:12"));
    Analysis a = analyze(dir.string(), shippedOnly());
    QVERIFY(a.result.status == ResultStatus::Attributed);
    QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("node-02"));
}

void TestTimeOrder::aPeerReportDoesNotPrecedeTheFaultThatCausedIt()
{
    // node-02's NCCL error 12 is untimed: it inherits the start-up stamp of
    // 09:40, twenty minutes before node-01's Xid 48. Its interval reaches the
    // next stamped line, so the two overlap, and a fault on another node
    // explains a peer's connection report.
    QTemporaryDir tmp;
    const fs::path dir = bundleWithYear(tmp);
    writeFile(dir / "syslog-node-01.log", kXid48);
    writeFile(dir / "applog-node-02-rank3.log", peerReport("09:40:00.000001", "10:00:43.250000"));
    Analysis a = analyze(dir.string(), shippedOnly());
    QVERIFY(a.result.status == ResultStatus::Attributed);
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("gpu.xid.48"));
}

void TestTimeOrder::anUnmeasuredClockIsAsUncertainAsTheMeasuredOnes()
{
    // node-01..03 share a watchdog moment: offsets 0, +4.5 s, -4.5 s. node-04
    // has no anchor (its rank died first). Its Xid 48 prints 6 s after
    // node-01's link down; with clocks measured 9 s apart, a 2 s tolerance
    // would call the link down first. Its clock may sit anywhere in the
    // measured spread: the two overlap and stay unordered.
    QTemporaryDir tmp;
    const fs::path dir = bundleWithYear(tmp);
    const char* printed[3] = {"10:10:41.005", "10:10:45.505", "10:10:36.505"};
    for (int n = 0; n < 3; ++n)
        for (int r = 2 * n; r < 2 * n + 2; ++r)
            writeFile(dir / ("applog-node-0" + std::to_string(n + 1) + "-rank" + std::to_string(r) + ".log"),
                      watchdog(r, std::string(printed[n]) + (r % 2 ? "001" : "000"), 600005));
    writeFile(dir / "syslog-node-01.log", "Mar 14 10:00:42 node-01 kernel: [1700.000100] mlx5_core 0000:41:00.0 ibp65s0: Link down\n");
    writeFile(dir / "syslog-node-04.log", "Mar 14 10:00:48 node-04 kernel: [1692.101100] NVRM: Xid (PCI:0000:1b:00): 48, "
                                          "pid=43004, name=python3, An uncorrectable double bit error (DBE) has been "
                                          "detected on GPU in the framebuffer at partition 6, subpartition 0.\n");
    Analysis a = analyze(dir.string(), shippedOnly());
    QVERIFY(offsetOf(a.result, "node-02") && !offsetOf(a.result, "node-04"));
    QCOMPARE(offsetOf(a.result, "node-02")->offsetNs, int64_t(4'500'000'000));
    QVERIFY2(a.result.status == ResultStatus::Ambiguous,
             a.result.rootCause ? a.result.rootCause->symptom.c_str() : "no root cause");
    QCOMPARE(a.result.candidates.size(), size_t(2));
}

void TestTimeOrder::aFaultOnTheNamedNodeExplainsThePeersReportWhateverItsWeight()
{
    // node-02 reports error 12 from node-01's address, printed 1.5 s before
    // node-01's Xid 13 (weight 40, lighter than error 12's 55): within the
    // clocks' uncertainty. The report is second-hand (moved onto node-01,
    // printed on node-02's clock); the fault seen on node-01 itself explains it.
    QTemporaryDir tmp;
    const fs::path dir = bundleWithYear(tmp);
    writeFile(dir / "applog-node-01-rank0.log",
              "node-01:4000:4000 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB eth0:10.1.2.3<0>\n");
    writeFile(dir / "syslog-node-01.log",
              "Mar 14 10:00:42 node-01 kernel: [1692.101100] NVRM: Xid (PCI:0000:1b:00): 13, pid=43004, name=python3, "
              "Graphics SM Warp Exception on (GPC 1, TPC 2, SM 0): Out Of Range Address\n");
    writeFile(dir / "applog-node-02-rank3.log", peerReport("10:00:40.100000", "10:00:40.500000"));
    Analysis a = analyze(dir.string(), shippedOnly());
    QVERIFY(a.result.status == ResultStatus::Attributed);
    QVERIFY(a.result.rootCause);
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("gpu.xid.13"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("node-01"));
}

QTEST_GUILESS_MAIN(TestTimeOrder)
#include "test_time_order.moc"

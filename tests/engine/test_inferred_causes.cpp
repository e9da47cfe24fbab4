// Symptoms that name their cause are evidence of it (issue #8 item 3): the
// cause is reported as inferred, cites the naming lines, and weighs less than
// the same cause seen on a line of its own.
#include "engine/engine.h"
#include "engine/result_json.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>

using namespace fl;
namespace fs = std::filesystem;
using fltest::shippedOnly;
using fltest::writeFile;
using fltest::statusOf;
using fltest::candidateFor;

namespace {

const std::string kXid45CausedBy79 =
    "Nov 30 12:14:58 gpu-a17 kernel: [883208.120004] NVRM: Xid (PCI:0000:ab:00): 45, pid=88412, name=python3, "
    "Ch 00000001 caused by previous Xid 79\n";
const std::string kXid45Plain =
    "Nov 30 12:14:58 gpu-a17 kernel: [883208.120004] NVRM: Xid (PCI:0000:ab:00): 45, pid=88412, name=python3, "
    "Ch 00000001\n";
const std::string kTimeouts =
    "[rank3]:[E1130 12:24:51.000000 88412 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective operation "
    "timeout: WorkNCCL(SeqNum=4120, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600012 "
    "milliseconds before timing out.\n";

fs::path bundle(const QTemporaryDir& tmp, const std::string& kernelLog)
{
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-11-30T11:00:00Z"}})");
    writeFile(dir / "syslog-gpu-a17.log", kernelLog);
    writeFile(dir / "applog-gpu-b04-rank3.log", kTimeouts);
    return dir;
}



} // namespace

class TestInferredCauses : public QObject {
    Q_OBJECT
private slots:
    void rotatedLogKeepsOnlyTheXid45ThatNamesItsCause();
    void anXid45ThatNamesNothingStaysUnattributed();
    void theNamedXidOnItsOwnLineIsObservedNotInferred();
    void anObservedFaultBeatsAnInferredOneAtTheSamePlace();
    void aPeerNamedByAddressIsAnInferredCause();
    void aNodeItsPeersLostThatSaidNothingIsUnresponsive();
    void inferIsRefusedOutsideFilterAndRefine();
};

void TestInferredCauses::rotatedLogKeepsOnlyTheXid45ThatNamesItsCause()
{
    // The Xid 79 line was rotated away; two Xid 45 lines name it.
    QTemporaryDir tmp;
    const std::string second = "Nov 30 12:15:02 gpu-a17 kernel: [883212.000100] NVRM: Xid (PCI:0000:ab:00): 45, "
                               "pid=88413, name=python3, Ch 00000003 caused by previous Xid 79\n";
    Analysis a = analyze(bundle(tmp, kXid45CausedBy79 + second).string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QVERIFY(a.result.rootCause);
    const RootCause& rc = *a.result.rootCause;
    QCOMPARE(QString::fromStdString(rc.symptom), QStringLiteral("gpu.xid.79"));
    QCOMPARE(QString::fromStdString(rc.node), QStringLiteral("gpu-a17"));
    QCOMPARE(QString::fromStdString(rc.pciBus), QStringLiteral("0000:ab:00"));
    QVERIFY(rc.inferred);
    QCOMPARE(QString::fromStdString(rc.inferred->fromSymptom), QStringLiteral("gpu.xid.45"));
    QCOMPARE(QString::fromStdString(rc.inferred->rule), QStringLiteral("gpu.infer.xid45-names-its-cause"));
    // It cites the lines that name it.
    QVERIFY(!rc.evidence.empty());
    bool citesXid45 = false;
    for (const auto& ev : a.result.evidence)
        if (std::find(rc.evidence.begin(), rc.evidence.end(), ev.id) != rc.evidence.end())
            citesXid45 = citesXid45 || ev.excerpt.find("caused by previous Xid 79") != std::string::npos;
    QVERIFY(citesXid45);
    // The cause came before the line that names it: its interval reaches back.
    QVERIFY(rc.time.interval.bounded());
    QVERIFY(rc.time.ns - rc.time.interval.earliestNs >= 600LL * 1'000'000'000);
    QVERIFY(QString::fromStdString(a.result.summary).contains("inferred"));
    // The result document says so, in the candidate and the root cause.
    const nlohmann::json j = resultToJson(a.result);
    QCOMPARE(j["root_cause"]["inferred"]["from_symptom"].get<std::string>(), std::string("gpu.xid.45"));
    bool candidateMarked = false;
    for (const auto& c : j["candidates"])
        candidateMarked = candidateMarked || (c["chosen"].get<bool>() && c["inferred"].is_object());
    QVERIFY(candidateMarked);
}

void TestInferredCauses::anXid45ThatNamesNothingStaysUnattributed()
{
    QTemporaryDir tmp;
    Analysis a = analyze(bundle(tmp, kXid45Plain).string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("unattributed"));
    QVERIFY(!a.result.rootCause);
}

void TestInferredCauses::theNamedXidOnItsOwnLineIsObservedNotInferred()
{
    QTemporaryDir tmp;
    const std::string xid79 = "Nov 30 12:14:51 gpu-a17 kernel: [883201.445102] NVRM: Xid (PCI:0000:ab:00): 79, "
                              "pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n";
    Analysis a = analyze(bundle(tmp, xid79 + kXid45CausedBy79).string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("gpu.xid.79"));
    QVERIFY(!a.result.rootCause->inferred);
    QCOMPARE(a.result.candidates.size(), size_t(1));
    const nlohmann::json j = resultToJson(a.result);
    QVERIFY(j["root_cause"]["inferred"].is_null());
}

void TestInferredCauses::anObservedFaultBeatsAnInferredOneAtTheSamePlace()
{
    // Same node, same second: an Xid 45 naming Xid 79 on one GPU, a double-bit
    // ECC error (Xid 48) observed on another. Xid 79 outweighs Xid 48 by less
    // than the ambiguity margin, so without the inferred penalty the line
    // printed first (the Xid 45) would lead; observed, Xid 48 wins.
    QTemporaryDir tmp;
    const std::string xid48 = "Nov 30 12:14:58 gpu-a17 kernel: [883208.120900] NVRM: Xid (PCI:0000:cc:00): 48, "
                              "pid=88415, name=python3, An uncorrectable double bit error (DBE) has been detected "
                              "on GPU in the framebuffer at partition 6, subpartition 0.\n";
    Analysis a = analyze(bundle(tmp, kXid45CausedBy79 + xid48).string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("gpu.xid.48"));
    QVERIFY(!a.result.rootCause->inferred);
    const Candidate* inferred = candidateFor(a.result, "gpu.xid.79");
    QVERIFY(inferred);
    QVERIFY(inferred->inferred);
    QVERIFY(!inferred->chosen);
}

void TestInferredCauses::aPeerNamedByAddressIsAnInferredCause()
{
    // Error 12 names the peer by address; that peer's NCCL init printed it.
    // The peer is alive (its own watchdog fires later): a link, not a lost node.
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "applog-gpu-b04-rank0.log",
              "gpu-b04:33018:33018 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB eth0:10.10.1.22<0>\n"
              "[rank0]:[E1130 12:50:00.000000 33018 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective "
              "operation timeout: WorkNCCL(SeqNum=4120, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) "
              "ran for 600012 milliseconds before timing out.\n");
    writeFile(dir / "applog-gpu-a17-rank8.log",
              "[2026-11-30 12:20:00] gpu-a17:88412:88412 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB "
              "eth0:10.10.1.17<0>\n"
              "[2026-11-30 12:40:00] gpu-a17:88412:88602 [0] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got "
              "completion from peer 10.10.1.22<36752> with status=12 opcode=0 len=0 vendor err 129 (Recv)\n");
    Analysis a = analyze(dir.string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("gpu-b04"));
    QVERIFY(a.result.domain == Domain::Network);
    QVERIFY(a.result.rootCause->inferred);
    QCOMPARE(QString::fromStdString(a.result.rootCause->inferred->fromSymptom),
             QStringLiteral("network.ib_retry_exceeded"));
}

void TestInferredCauses::aNodeItsPeersLostThatSaidNothingIsUnresponsive()
{
    // Two hosts report error 12 naming gpu-b04's address; gpu-b04's own rank
    // printed its NCCL init and then nothing: it died or hung, not a link
    // (a failed link is seen from its own ranks too).
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-11-30T11:00:00Z"}})");
    const std::string b04Init = "[2026-11-30 12:20:00] gpu-b04:33018:33018 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB "
                                "[RO]; OOB eth0:10.10.1.22<0>\n";
    auto reporter = [](const std::string& host, const std::string& addr) {
        return "[2026-11-30 12:20:00] " + host + ":88412:88412 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB eth0:" +
               addr + "<0>\n[2026-11-30 12:40:00] " + host +
               ":88412:88602 [0] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got completion from peer 10.10.1.22<36752> "
               "with status=12 opcode=0 len=0 vendor err 129 (Recv)\n";
    };
    writeFile(dir / "applog-gpu-a17-rank8.log", reporter("gpu-a17", "10.10.1.17"));
    writeFile(dir / "applog-gpu-c09-rank16.log", reporter("gpu-c09", "10.10.1.31"));
    writeFile(dir / "applog-gpu-b04-rank0.log", b04Init);
    Analysis a = analyze(dir.string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("gpu-b04"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("host.node_lost"));
    QVERIFY(a.result.rootCause->inferred);

    // Only one host lost it: that host's view cannot tell a silent node from
    // its own network fault, so the report stays a network one.
    fs::remove(dir / "applog-gpu-c09-rank16.log");
    Analysis one = analyze(dir.string(), shippedOnly());
    QVERIFY(one.result.domain == Domain::Network);
    for (const auto& e : one.result.events)
        QVERIFY2(e.symptom != "host.node_lost", "one reporting host made a silent node");
    writeFile(dir / "applog-gpu-c09-rank16.log", reporter("gpu-c09", "10.10.1.31"));

    // The same, but gpu-b04's own rank reports the failure too: a link, network.
    writeFile(dir / "applog-gpu-b04-rank0.log",
              b04Init + "[2026-11-30 12:40:01] gpu-b04:33018:33190 [0] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got "
                        "completion from peer 10.10.1.17<48840> with status=12 opcode=0 len=0 vendor err 129 (Recv)\n");
    Analysis b = analyze(dir.string(), shippedOnly());
    QVERIFY(b.result.domain == Domain::Network);
}

void TestInferredCauses::inferIsRefusedOutsideFilterAndRefine()
{
    QTemporaryDir rules;
    writeFile(fs::path(rules.path().toStdString()) / "bad.jsonc", R"({"rules": [
      {"id": "x.infer-in-report", "phase": "report", "match": {"symptom": "gpu.xid.45"},
       "infer": {"symptom": "gpu.xid.79"}}]})");
    AnalyzeOptions o = shippedOnly();
    o.ruleDirs.push_back(rules.path().toStdString());
    QTemporaryDir tmp;
    try {
        analyze(bundle(tmp, kXid45Plain).string(), o);
        QFAIL("a report-phase infer rule loaded");
    } catch (const RuleError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains("infer"), e.what());
        QVERIFY2(QString::fromUtf8(e.what()).contains("bad.jsonc"), e.what());
    }
}

QTEST_GUILESS_MAIN(TestInferredCauses)
#include "test_inferred_causes.moc"

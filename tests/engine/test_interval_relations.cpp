// The "within" interval relation (issue #8 item 2): "error 12 at start-up"
// (nccl.filter.ib-err12-at-startup) holds only when the error's interval and
// the NCCL init's certainly lie within 2 min of each other, never on a stamp
// an untimed NCCL line merely inherited from the start-up line above it.
#include "engine/engine.h"
#include "rules/ruleset.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace fl;
namespace fs = std::filesystem;
using fltest::shippedOnly;
using fltest::writeFile;

namespace {

std::string stamped(const char* hms, const char* what)
{
    return std::string("[rank3]:[I1130 ") + hms + ".000000 88412 ProcessGroupNCCL.cpp:900] [PG 0 Rank 3] " + what + "\n";
}

const std::string kInit =
    "gpu-a17:88412:88412 [3] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB eth0:10.10.1.17<0>\n";
const std::string kErr12 =
    "gpu-a17:88412:88602 [3] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got completion from peer 10.10.3.14<36752> "
    "with status=12 opcode=0 len=0 vendor err 129 (Recv)\n";

Result analyzeRankLog(const std::string& log)
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-11-30T11:00:00Z"}})");
    writeFile(dir / "applog-gpu-a17-rank3.log", log);
    return analyze(dir.string(), shippedOnly()).result;
}

} // namespace

class TestIntervalRelations : public QObject {
    Q_OBJECT
private slots:
    void anInheritedStampIsNotStartUp();
    void errorCertainlyWithinTwoMinutesOfInitIsStartUp();
    void withinNeedsAWindow();
};

void TestIntervalRelations::anInheritedStampIsNotStartUp()
{
    // Both NCCL lines are untimed and sit between the start-up stamp and one
    // 40 min later: printed, the error "happens" at start-up (it inherits
    // 12:00:00); its interval says only that it came within those 40 min.
    const Result r = analyzeRankLog(stamped("12:00:00", "ProcessGroupNCCL initialization options") + kInit + kErr12 +
                                    stamped("12:40:00", "ProcessGroupNCCL destroyed"));
    QVERIFY(r.domain == Domain::Network);
    QCOMPARE(QString::fromStdString(r.subDomain), QStringLiteral("ib_link"));
    QVERIFY(r.rootCause);
    QCOMPARE(QString::fromStdString(r.rootCause->symptom), QStringLiteral("network.ib_retry_exceeded"));
}

void TestIntervalRelations::errorCertainlyWithinTwoMinutesOfInitIsStartUp()
{
    const Result r = analyzeRankLog(stamped("12:00:00", "ProcessGroupNCCL initialization options") + kInit +
                                    stamped("12:00:20", "ProcessGroupNCCL connecting") + kErr12 +
                                    stamped("12:00:40", "ProcessGroupNCCL destroyed"));
    QCOMPARE(QString::fromStdString(r.subDomain), QStringLiteral("ib_config"));
    QCOMPARE(QString::fromStdString(r.rootCause->symptom), QStringLiteral("network.ib_config_error"));
}

void TestIntervalRelations::withinNeedsAWindow()
{
    QTemporaryDir rules;
    writeFile(fs::path(rules.path().toStdString()) / "bad.jsonc", R"({"rules": [
      {"id": "x.within-without-window", "phase": "filter", "match": {"symptom": "gpu.xid.45"},
       "if": {"symptom": "gpu.xid.79", "order": "within"}, "set_role": "symptom"}]})");
    AnalyzeOptions o = shippedOnly();
    o.ruleDirs.push_back(rules.path().toStdString());
    QTemporaryDir tmp;
    writeFile(fs::path(tmp.path().toStdString()) / "applog-gpu-a17-rank3.log", kErr12);
    try {
        analyze(tmp.path().toStdString(), o);
        QFAIL("an 'order': 'within' relation without 'within_s' loaded");
    } catch (const RuleError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains("within_s"), e.what());
        QVERIFY2(QString::fromUtf8(e.what()).contains("bad.jsonc"), e.what());
    }
}

QTEST_GUILESS_MAIN(TestIntervalRelations)
#include "test_interval_relations.moc"

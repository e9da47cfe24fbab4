// The clock-offset table of the compare view (issue #45 item 1): each node's offset, residual and the shared
// moments it came from are in the result, survive its JSON, and read as one row per node.
#include "engine/engine.h"
#include "engine/result_json.h"
#include "present/clock_table.h"
#include "testutil.h"

#include <QtTest>

using namespace fl;

namespace {

const std::string kSample = fltest::kSource + "/samples/ambiguous-two-faults";

const ClockOffset* offsetOf(const Result& r, const std::string& node)
{
    for (const ClockOffset& c : r.clockOffsets)
        if (c.node == node)
            return &c;
    return nullptr;
}

} // namespace

class TestClockTable : public QObject {
    Q_OBJECT
private slots:
    void theAmbiguousSampleRecordsNode01sMoments();
    void theMomentsSurviveTheResultDocument();
    void theTableRowsSayOffsetResidualAndMoments();
};

void TestClockTable::theAmbiguousSampleRecordsNode01sMoments()
{
    const Analysis a = analyze(kSample, fltest::shippedOnly());
    const ClockOffset* n1 = offsetOf(a.result, "node-01");
    QVERIFY(n1);
    // node-01's ranks stamped the watchdog's collective a second later than the median node.
    QVERIFY2(std::llabs(n1->offsetNs - 1'000'000'000) < 1'000'000, std::to_string(n1->offsetNs).c_str());
    QCOMPARE(n1->anchors, 1u);
    QCOMPARE(n1->moments.size(), size_t(1));
    QCOMPARE(n1->moments[0].key, std::string("SeqNum 5210 ALLREDUCE"));
    QCOMPARE(n1->moments[0].nodes, 4u);
    QCOMPARE(n1->moments[0].deviationNs, n1->offsetNs);
}

void TestClockTable::theMomentsSurviveTheResultDocument()
{
    const Analysis a = analyze(kSample, fltest::shippedOnly());
    const Result back = resultFromJson(resultToJson(a.result));
    QCOMPARE(back.clockOffsets.size(), a.result.clockOffsets.size());
    for (size_t i = 0; i < back.clockOffsets.size(); ++i)
        QVERIFY(back.clockOffsets[i].moments == a.result.clockOffsets[i].moments);
}

void TestClockTable::theTableRowsSayOffsetResidualAndMoments()
{
    const Analysis a = analyze(kSample, fltest::shippedOnly());
    const auto rows = present::clockRows(a.result, {"node-01", "node-09"}, 2'000'000'000);
    QCOMPARE(rows.size(), a.result.clockOffsets.size() + 1);
    QCOMPARE(rows[0].node, std::string("node-01"));
    QCOMPARE(rows[0].offset, std::string("+1.000 s"));
    QCOMPARE(rows[0].residual, std::string("±0.001 s"));
    QCOMPARE(rows[0].moments, 1u);
    QCOMPARE(rows[0].from, std::string("SeqNum 5210 ALLREDUCE (4 nodes, +1.000 s)"));
    QCOMPARE(rows.back().node, std::string("node-09"));
    QCOMPARE(rows.back().offset, std::string("unknown"));
    QCOMPARE(rows.back().moments, 0u);
    QCOMPARE(present::signedSeconds(-4'000), std::string("-0.000 s"));
    QCOMPARE(present::signedSeconds(-1'999'600'000), std::string("-2.000 s"));
}

QTEST_GUILESS_MAIN(TestClockTable)
#include "test_clock_table.moc"

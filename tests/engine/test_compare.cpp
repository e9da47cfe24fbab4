// Compare candidates (issue #45 item 1): the ambiguous sample's tied candidates side by side, A and B, each
// with the corrected interval the result holds (not the printed second), its raw lines and what it explains;
// the zoom covers both intervals plus the margin; the tie setting names the clocks that widened them.
#include "engine/engine.h"
#include "present/compare.h"
#include "testutil.h"

#include <QtTest>

using namespace fl;

namespace {

const std::string kSample = fltest::kSource + "/samples/ambiguous-two-faults";

bool anyContains(const std::vector<std::string>& lines, const std::string& part)
{
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

} // namespace

class TestCompare : public QObject {
    Q_OBJECT
private slots:
    void theTiedCandidatesSideBySide()
    {
        const Analysis a = analyze(kSample, fltest::shippedOnly());
        const int64_t margin = 2'000'000'000;
        const present::Comparison cmp = present::compareCandidates(a.result, margin);
        QCOMPARE(cmp.columns.size(), size_t(2));
        QCOMPARE(cmp.columns[0].label, std::string("A"));
        QCOMPARE(cmp.columns[1].label, std::string("B"));
        TimeInterval hull;
        size_t seen = 0;
        for (const Candidate& c : a.result.candidates) {
            if (!c.outcome.tied())
                continue;
            const present::CompareColumn& col = cmp.columns[seen++];
            QCOMPARE(col.event, c.event);
            QVERIFY(col.interval == c.time.interval);  // the corrected interval, not the printed second
            QVERIFY(col.interval.bounded());
            QVERIFY(col.interval.earliestNs != c.time.ns);
            hull.earliestNs = hull.earliestNs == kNoTime ? col.interval.earliestNs
                                                         : std::min(hull.earliestNs, col.interval.earliestNs);
            hull.latestNs = std::max(hull.latestNs, col.interval.latestNs);
            QVERIFY(!col.rawLines.empty());
            QVERIFY(!col.rules.empty());
            QVERIFY(!col.verdict.empty());
        }
        QCOMPARE(seen, size_t(2));
        QCOMPARE(cmp.zoom.earliestNs, hull.earliestNs - margin);
        QCOMPARE(cmp.zoom.latestNs, hull.latestNs + margin);
        QVERIFY(anyContains(cmp.columns[0].rawLines, "syslog-node-01.log:") ||
                anyContains(cmp.columns[1].rawLines, "syslog-node-01.log:"));
        QVERIFY(anyContains(cmp.columns[0].rawLines, "syslog-node-03.log:") ||
                anyContains(cmp.columns[1].rawLines, "syslog-node-03.log:"));
        QVERIFY2(cmp.tieSetting.find("node-01 offset") != std::string::npos &&
                     cmp.tieSetting.find("clock_skew_tolerance_s") != std::string::npos,
                 cmp.tieSetting.c_str());
        QCOMPARE(cmp.omitted, size_t(0));
    }

    void anAttributedResultComparesItsCandidates()
    {
        const Analysis a = analyze(fltest::kSource + "/samples/xid149-nccl", fltest::shippedOnly());
        const present::Comparison cmp = present::compareCandidates(a.result, 0);
        QVERIFY(!cmp.columns.empty());
        QVERIFY2(cmp.tieSetting.rfind("no tie: ", 0) == 0, cmp.tieSetting.c_str());
        QVERIFY(!cmp.columns[0].explains.empty());  // the root explains the timeouts downstream
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "test_compare.moc"

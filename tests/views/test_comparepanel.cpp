// SPDX-License-Identifier: MIT
// The compare view on the ambiguous sample (issue #45 item 1): A and B side by side in distinct colours, the
// zoom puts the shared window on the candidates' corrected intervals (the result's, not the printed second)
// ± the margin, the timeline labels them A and B over those intervals, and the clock-offset table lists
// node-01's offset with its shared-moment count. Both models under QAbstractItemModelTester.
#include "viewfixture.h"
#include "views/common/focusstate.h"
#include "views/models/comparemodel.h"
#include "views/review/comparepanel.h"
#include "views/workbench/workbenchview.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace fl;

namespace {

// The tied candidates' events and the hull of their corrected intervals, read from the result itself.
struct Tie {
    std::vector<EventId> events;
    std::vector<TimeInterval> intervals;
    int64_t lo = kNoTime, hi = kNoTime;
};
Tie tieOf(const Result& r)
{
    Tie t;
    for (const Candidate& c : r.candidates)
        if (c.outcome.tied()) {
            t.lo = t.lo == kNoTime ? c.time.interval.earliestNs : std::min(t.lo, c.time.interval.earliestNs);
            t.hi = std::max(t.hi, c.time.interval.latestNs);
            t.events.push_back(c.event);
            t.intervals.push_back(c.time.interval);
        }
    return t;
}

} // namespace

class TestComparePanel : public QObject
{
    Q_OBJECT
private slots:
    void candidatesSideBySide()
    {
        const auto a = test::ambiguousSample();
        FocusState focus;
        ComparePanel panel(&focus);
        QAbstractItemModelTester candidates(panel.candidateModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester clocks(panel.clockModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.resize(1600, 1000);
        panel.setAnalysis(a);

        const CompareModel* m = panel.candidateModel();
        QCOMPARE(m->columnCount(), 2);
        QVERIFY(m->headerData(0, Qt::Horizontal).toString().startsWith(QStringLiteral("A ")));
        QVERIFY(m->headerData(1, Qt::Horizontal).toString().startsWith(QStringLiteral("B ")));
        QVERIFY(m->headerData(0, Qt::Horizontal, Qt::ForegroundRole).value<QColor>() !=
                m->headerData(1, Qt::Horizontal, Qt::ForegroundRole).value<QColor>());
        for (int col = 0; col < 2; ++col) {
            QVERIFY(m->index(CompareModel::RawRow, col).data().toString().contains(QStringLiteral(".log:")));
            QVERIFY(m->index(CompareModel::IntervalRow, col).data().toString().contains(QStringLiteral("corrected")));
        }
        // What would decide names both tied nodes.
        const QString decide = panel.decideLabel()->text();
        QVERIFY2(decide.contains(QStringLiteral("node-01")) && decide.contains(QStringLiteral("node-03")), qPrintable(decide));

        QVERIFY(panel.zoomButton()->isEnabled());
        QTest::mouseClick(panel.zoomButton(), Qt::LeftButton);
        const Tie tie = tieOf(a->result);
        QCOMPARE(tie.events.size(), size_t(2));
        QCOMPARE(focus.current().startNs, tie.lo - ComparePanel::kMarginNs);
        QCOMPARE(focus.current().endNs, tie.hi + ComparePanel::kMarginNs);
        for (EventId e : tie.events)
            QVERIFY(focus.isHighlighted(e));

        const ClockTableModel* c = panel.clockModel();
        bool found = false;
        for (int r = 0; r < c->rowCount(); ++r)
            if (c->index(r, ClockTableModel::NodeColumn).data().toString() == QStringLiteral("node-01")) {
                found = true;
                QCOMPARE(c->index(r, ClockTableModel::OffsetColumn).data().toString(), QStringLiteral("+1.000 s"));
                QCOMPARE(c->index(r, ClockTableModel::MomentsColumn).data().toString(), QStringLiteral("1"));
                QVERIFY(c->index(r, ClockTableModel::FromColumn).data().toString().contains(QStringLiteral("SeqNum 5210")));
            }
        QVERIFY(found);

        panel.setAnalysis(nullptr);  // a hidden decision: nothing left
        QCOMPARE(m->columnCount(), 0);
        QCOMPARE(c->rowCount(), 0);
        QVERIFY(!panel.zoomButton()->isEnabled());
    }

    // In the workbench: the timeline labels A and B over the corrected intervals, the zoom brings the timeline
    // to the front on them, and an exercise takes the labels away (they would say which events tied).
    void timelineLabelsTheCandidates()
    {
        const auto a = test::ambiguousSample();
        WorkbenchView w;
        w.resize(1600, 1000);
        w.setAnalysis(a);
        auto* cmp = w.panelAs<ComparePanel>(QStringLiteral("compare"));
        QVERIFY(cmp);
        TimelineView* tl = w.timeline()->view();
        const auto& marks = tl->marks(QStringLiteral("compare"));
        QCOMPARE(marks.size(), size_t(2));
        const Tie tie = tieOf(a->result);
        for (size_t i = 0; i < marks.size(); ++i) {
            QCOMPARE(marks[i].label, i == 0 ? QStringLiteral("A") : QStringLiteral("B"));
            const auto at = std::find(tie.events.begin(), tie.events.end(), marks[i].event);
            QVERIFY(at != tie.events.end());
            const TimeInterval& iv = tie.intervals[static_cast<size_t>(at - tie.events.begin())];
            QCOMPARE(marks[i].fromNs, iv.earliestNs);
            QCOMPARE(marks[i].toNs, iv.latestNs);
            QCOMPARE(marks[i].colour, candidateColor(i));
        }
        // The Verdict tab says what the list under it is: what would decide, not what would merely strengthen.
        QVERIFY2(w.verdict()->verdictText().contains(QStringLiteral("What would decide the verdict")),
                 qPrintable(w.verdict()->verdictText()));
        w.centreTabs()->setCurrentIndex(w.centreTabs()->indexOf(w.chain()));
        cmp->zoomToCandidates();
        QCOMPARE(w.centreTabs()->currentWidget(), static_cast<QWidget*>(w.timeline()));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        tl->repaint();
        QVERIFY2(tl->lastPaintedMarks().contains(QStringLiteral("A")) && tl->lastPaintedMarks().contains(QStringLiteral("B")),
                 qPrintable(tl->lastPaintedMarks().join(',')));

        w.setQuiz(a, std::nullopt);
        QVERIFY(w.timeline()->view()->marks(QStringLiteral("compare")).empty());
        QCOMPARE(cmp->candidateModel()->columnCount(), 0);
    }

    // An attributed result lists every candidate in the table, but its losers are not labelled on the timeline:
    // A, B … there would say "tied" over a decided root (seen at 10,000 ranks: A–F stacked on the root).
    void attributedResultIsNotLabelled()
    {
        const auto a = std::make_shared<const Analysis>(
            analyze(FAULTLINE_SOURCE_DIR "/samples/ib-link-down-metric", AnalyzeOptions{}));
        QVERIFY(a->result.status == ResultStatus::Attributed);
        QVERIFY(a->result.candidates.size() > 1);
        WorkbenchView w;
        w.setAnalysis(a);
        auto* cmp = w.panelAs<ComparePanel>(QStringLiteral("compare"));
        QVERIFY(cmp);
        QVERIFY(cmp->comparison().columns.size() > 1);
        QVERIFY(w.timeline()->view()->marks(QStringLiteral("compare")).empty());
    }
};

QTEST_MAIN(TestComparePanel)
#include "test_comparepanel.moc"

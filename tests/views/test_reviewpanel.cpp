// SPDX-License-Identifier: MIT
// The review record in the workbench (issue #45 item 3) on the ambiguous sample: a reviewer chooses
// candidate B with a reason (refused without one), the decision is listed with author and time, the timeline
// and the chain mark the reviewed root; a comment on an evidence item and a reply to it form one thread; a
// second decision is added, not replaced; all of it survives a restart (a new workbench on the same notes).
// An exercise hides the reviewed root. Models under QAbstractItemModelTester.
#include "qtplugins.h"
#include "viewfixture.h"
#include "views/models/reviewmodels.h"
#include "views/review/reviewpanel.h"
#include "views/workbench/workbenchview.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QGraphicsItem>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace fl;

namespace {

ReviewPanel* reviewOf(WorkbenchView& w)
{
    return w.panelAs<ReviewPanel>(QStringLiteral("review"));
}

} // namespace

class TestReviewPanel : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        FL_REQUIRE_SQLITE_DRIVER();
        QStandardPaths::setTestModeEnabled(true);
    }

    void decisionsAndThreadsAreKept()
    {
        const auto a = test::ambiguousSample();
        // The notes go beside this (absent) bundle path: in the temporary folder, never in the sample.
        const QString bundle = m_dir.filePath(QStringLiteral("ambiguous-two-faults"));
        EventId chosen;
        std::string chosenEvidence;
        {
            WorkbenchView w;
            w.resize(1600, 1000);
            w.setAnalysis(a);
            QVERIFY(w.openNotes(bundle).isEmpty());
            ReviewPanel* r = reviewOf(w);
            QVERIFY(r);
            QAbstractItemModelTester history(r->historyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
            QAbstractItemModelTester thread(r->threadModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
            r->setReviewer(QStringLiteral("alice"));
            QCOMPARE(r->candidateBox()->count(), 2);
            QVERIFY(r->candidateBox()->itemText(1).startsWith(QStringLiteral("B ")));

            // No reason: refused, nothing stored, nothing marked.
            r->candidateBox()->setCurrentIndex(1);
            r->reasonEdit()->clear();
            r->chooseCandidate();
            QVERIFY(!r->statusLabel()->text().isEmpty());
            QCOMPARE(r->historyModel()->rowCount(), 0);
            QVERIFY(w.timeline()->view()->marks(QStringLiteral("review")).empty());

            r->reasonEdit()->setText(QStringLiteral("node-03's Xid is 0.4 s earlier on the PTP-synced clock"));
            r->chooseCandidate();
            QCOMPARE(r->historyModel()->rowCount(), 1);
            const present::ReviewDecision& d = r->historyModel()->decisions().front();
            QCOMPARE(d.reviewer, std::string("alice"));
            QVERIFY(!d.when.empty());
            QVERIFY(d.choice == present::ReviewChoice::Choose);
            chosen = EventId{static_cast<uint32_t>(r->candidateBox()->itemData(1).toString().toUInt())};
            QCOMPARE(static_cast<int64_t>(chosen.value), d.event);
            chosenEvidence = d.evidenceId;

            // The reviewed root on the timeline and the chain.
            const auto& marks = w.timeline()->view()->marks(QStringLiteral("review"));
            QCOMPARE(marks.size(), size_t(1));
            QCOMPARE(marks.front().event, chosen);
            QVERIFY(marks.front().label.contains(QStringLiteral("alice")));
            // Drawn over the candidate's corrected interval (what the tie was decided on), not the printed second.
            const auto cand = std::find_if(a->result.candidates.begin(), a->result.candidates.end(),
                                           [&](const Candidate& c) { return c.event == chosen; });
            QVERIFY(cand != a->result.candidates.end());
            QCOMPARE(marks.front().fromNs, cand->time.interval.earliestNs);
            QCOMPARE(marks.front().toNs, cand->time.interval.latestNs);
            QVERIFY2(w.chain()->itemForEvent(chosen), qPrintable(QString::number(w.chain()->nodeItemCount())));
            QVERIFY(w.chain()->reviewedTag());
            QCOMPARE(w.chain()->reviewedTag()->parentItem(), w.chain()->itemForEvent(chosen));

            // A thread on the chosen item: a comment and a reply under it.
            w.focus()->selectEvidence(*evidenceIdFromString(chosenEvidence));
            QCOMPARE(r->evidenceId(), QString::fromStdString(chosenEvidence));
            r->commentEdit()->setPlainText(QStringLiteral("is this clock offset trustworthy?"));
            r->comment();
            QCOMPARE(r->threadModel()->rowCount(), 1);
            r->threadView()->setCurrentIndex(r->threadModel()->index(0, 0));
            r->setReviewer(QStringLiteral("bob"));
            r->commentEdit()->setPlainText(QStringLiteral("yes: 4 shared moments agree"));
            r->reply();
            QCOMPARE(r->threadModel()->rowCount(), 1);
            const QModelIndex first = r->threadModel()->index(0, 0);
            QCOMPARE(r->threadModel()->rowCount(first), 1);
            QCOMPARE(r->threadModel()->index(0, ThreadModel::AuthorColumn, first).data().toString(), QStringLiteral("bob"));

            // A second decision is appended: the history keeps both, the latest is current.
            r->confirmVerdict();
            QCOMPARE(r->historyModel()->rowCount(), 2);
        }
        // Restart: the same notes, read again.
        WorkbenchView w;
        w.setAnalysis(a);
        QVERIFY(w.openNotes(bundle).isEmpty());
        ReviewPanel* r = reviewOf(w);
        QCOMPARE(r->historyModel()->rowCount(), 2);
        QCOMPARE(r->historyModel()->decisions().front().reviewer, std::string("alice"));
        QVERIFY(r->historyModel()->decisions().back().choice == present::ReviewChoice::Confirm);
        w.focus()->selectEvidence(*evidenceIdFromString(chosenEvidence));
        QCOMPARE(r->threadModel()->rowCount(), 1);
        QCOMPARE(r->threadModel()->rowCount(r->threadModel()->index(0, 0)), 1);
        // An ambiguous verdict confirmed names no single root: nothing is marked as the reviewed root.
        QVERIFY(w.timeline()->view()->marks(QStringLiteral("review")).empty());
    }

    void anExerciseHidesTheReviewedRoot()
    {
        const auto a = test::ambiguousSample();
        const QString bundle = m_dir.filePath(QStringLiteral("quiz-copy"));
        WorkbenchView w;
        w.setAnalysis(a);
        QVERIFY(w.openNotes(bundle).isEmpty());
        ReviewPanel* r = reviewOf(w);
        r->setReviewer(QStringLiteral("carol"));
        r->candidateBox()->setCurrentIndex(0);
        r->reasonEdit()->setText(QStringLiteral("earlier on the corrected clock"));
        r->chooseCandidate();
        QCOMPARE(w.timeline()->view()->marks(QStringLiteral("review")).size(), size_t(1));
        w.setQuiz(a, std::nullopt);
        QVERIFY(w.timeline()->view()->marks(QStringLiteral("review")).empty());
        QVERIFY(!w.chain()->reviewedTag());
        w.reveal();
        QCOMPARE(w.timeline()->view()->marks(QStringLiteral("review")).size(), size_t(1));
    }

    // A long comment is wrapped over several lines in the narrow side panel, not cut off with "…".
    void longCommentsWrap()
    {
        const auto a = test::ambiguousSample();
        WorkbenchView w;
        w.resize(1600, 1000);
        w.show();
        w.setAnalysis(a);
        QVERIFY(w.openNotes(m_dir.filePath(QStringLiteral("wrap-bundle"))).isEmpty());
        ReviewPanel* r = reviewOf(w);
        w.sideTabs()->setCurrentWidget(r);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.focus()->selectEvidence(a->result.evidence.front().id);
        r->setReviewer(QStringLiteral("carol"));
        const QString text = QStringLiteral("the offset of node-03 rests on two shared moments only, both from the "
                                            "scheduler, and the second of them is itself a retry of the first; "
                                            "I would not order these two faults by it without the kernel logs");
        r->commentEdit()->setPlainText(text);
        r->comment();
        QCOMPARE(r->threadModel()->rowCount(), 1);
        const QModelIndex at = r->threadModel()->index(0, ThreadModel::TextColumn);
        QTreeView* view = r->threadView();
        const int lineHeight = view->fontMetrics().height();
        QVERIFY2(view->fontMetrics().horizontalAdvance(text) > view->columnWidth(ThreadModel::TextColumn),
                 "the comment fits on one line: the test says nothing");
        QTRY_VERIFY2(view->visualRect(at).height() >= 2 * lineHeight,
                     qPrintable(QStringLiteral("row %1 px, a line %2 px, column %3 px")
                                    .arg(view->visualRect(at).height()).arg(lineHeight).arg(view->columnWidth(ThreadModel::TextColumn))));
    }
};

QTEST_MAIN(TestReviewPanel)
#include "test_reviewpanel.moc"

// SPDX-License-Identifier: MIT
// Teach as a replay of the investigation (issue #44 item 3), on the engine's real result for
// samples/xid149-nccl: while the Teach tab is on show, the timeline and the evidence table show what the
// engine knew after the step — at step 1 nothing is red (no root lane, no root-level mark, no root evidence)
// and the events carry the names they were found under; the root appears at `outcome`; leaving the tab shows
// the whole result again; a replay time leaves out what had not happened yet ("what was known at …").
#include "views/workbench/workbenchview.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QLabel>
#include <QTabWidget>
#include <QtTest>

using namespace fl;

namespace {

const std::string kSample = FAULTLINE_SOURCE_DIR "/samples/xid149-nccl";

// Root-level (red) marks on the timeline and root-role rows in the evidence table.
struct Red {
    int rootLane = -1;
    size_t rootMarks = 0;
    int rootRows = 0;
};
Red redOf(WorkbenchView& view)
{
    Red r;
    const TimelineLanes& lanes = view.timeline()->view()->lanes();
    r.rootLane = lanes.rootLane();
    for (int i = 0; i < lanes.laneCount(); ++i)
        r.rootMarks += lanes.lane(i).events[style::Root].size();
    const EvidenceModel* m = view.evidence()->model();
    for (int i = 0; i < m->rowCount(); ++i)
        if (m->index(i, 0).data(EvidenceModel::RoleRole).toInt() == static_cast<int>(EvidenceRole::Root))
            ++r.rootRows;
    return r;
}

} // namespace

class TestTeachReplay : public QObject {
    Q_OBJECT
    std::shared_ptr<const Analysis> m_full;

private slots:
    void initTestCase()
    {
        AnalyzeOptions o;
        o.userConfigRules = false;
        m_full = std::make_shared<const Analysis>(analyze(kSample, o));
        QVERIFY(m_full->result.rootCause);
        QVERIFY(!m_full->trace.empty());
    }

    void everyStepRewindsTheTimelineAndTheEvidence()
    {
        WorkbenchView view;
        QAbstractItemModelTester evidence(view.evidence()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.resize(1600, 1000);
        view.show();
        view.setAnalysis(m_full);
        const Red whole = redOf(view);
        QVERIFY(whole.rootLane >= 0);
        QVERIFY(whole.rootMarks > 0);
        QVERIFY(whole.rootRows > 0);

        PhaseStepperPanel* teach = view.stepper();
        view.sideTabs()->setCurrentWidget(teach);
        QCOMPARE(teach->currentIndex(), 0);
        QCOMPARE(view.replayedStep(), 0);
        const Red first = redOf(view);
        QCOMPARE(first.rootLane, -1);
        QCOMPARE(first.rootMarks, size_t(0));
        QCOMPARE(first.rootRows, 0);
        QVERIFY(!view.replayed()->result.rootCause);
        // Found under their first names: an event renamed by a later phase shows the name it had at extract.
        size_t renamed = 0;
        QCOMPARE(view.replayed()->result.events.size(), m_full->result.events.size());
        for (size_t i = 0; i < m_full->result.events.size(); ++i) {
            const SymptomEvent& e = m_full->result.events[i];
            const std::string& shown = view.replayed()->result.events[i].symptom.str();
            QVERIFY2(shown == e.symptom.str() || shown == e.originalSymptom.str(), shown.c_str());
            renamed += shown != e.symptom.str();
        }
        QVERIFY(renamed > 0);

        // Every step before outcome keeps the answer back; outcome names it.
        const int outcome = teach->steps().indexOf(QStringLiteral("outcome"));
        QVERIFY(outcome > 0);
        for (int i = 1; i < outcome; ++i) {
            teach->setStep(i);
            QCOMPARE(view.replayedStep(), i);
            QVERIFY2(redOf(view).rootMarks == 0 && redOf(view).rootLane == -1, qPrintable(teach->phaseText()));
        }
        teach->setStep(outcome);
        const Red decided = redOf(view);
        QVERIFY(decided.rootLane >= 0);
        QVERIFY(decided.rootMarks > 0);
        QVERIFY(decided.rootRows > 0);
        teach->last();
        QCOMPARE(redOf(view).rootMarks, whole.rootMarks);
        QCOMPARE(redOf(view).rootRows, whole.rootRows);

        // What was known just before the root cause's line: not the root cause, nor anything later.
        const int64_t rootNs = m_full->result.rootCause->time.ns;
        view.setReplayTime(rootNs - 1);
        QVERIFY(!view.replayed()->result.rootCause);
        for (const SymptomEvent& e : view.replayed()->result.events)
            QVERIFY(!e.time.known() || e.time.ns < rootNs);
        QCOMPARE(redOf(view).rootMarks, size_t(0));
        QVERIFY(view.evidence()->model()->rowCount() < static_cast<int>(m_full->result.evidence.size()));
        view.setReplayTime(kNoTime);
        QCOMPARE(redOf(view).rootRows, whole.rootRows);
        // The Teach tab's clock drives the same replay, in whole seconds.
        ReplayClock* clock = teach->replayClock();
        QVERIFY(clock->isEnabled());
        clock->setTime(rootNs - 1'000'000'000);
        QVERIFY(clock->box()->isChecked());
        QCOMPARE(view.replayTime(), clock->time());
        QVERIFY(view.replayTime() < rootNs && view.replayTime() >= rootNs - 2'000'000'000);
        QCOMPARE(redOf(view).rootMarks, size_t(0));
        QVERIFY2(clock->label()->text().contains(QLatin1Char(':')), qPrintable(clock->label()->text()));
        clock->setTime(kNoTime);
        QCOMPARE(view.replayTime(), kNoTime);
        QCOMPARE(redOf(view).rootRows, whole.rootRows);

        // Another tab: the whole result again.
        teach->first();
        QCOMPARE(redOf(view).rootMarks, size_t(0));
        view.sideTabs()->setCurrentWidget(view.verdict());
        QCOMPARE(view.replayedStep(), -1);
        const Red back = redOf(view);
        QCOMPARE(back.rootLane, whole.rootLane);
        QCOMPARE(back.rootMarks, whole.rootMarks);
        QCOMPARE(back.rootRows, whole.rootRows);
    }
};

QTEST_MAIN(TestTeachReplay)
#include "test_teachreplay.moc"

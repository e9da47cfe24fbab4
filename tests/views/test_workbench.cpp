// SPDX-License-Identifier: MIT
// The workbench built from its panel registry (views/workbench/panelregistry.h),
// and two workbenches side by side, each with its own analysis's focus.
#include "viewfixture.h"
#include "views/workbench/workbenchview.h"

#include <QSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace fl;

namespace {
QStringList tabTitles(const QTabWidget* tabs)
{
    QStringList out;
    for (int i = 0; i < tabs->count(); ++i)
        out << tabs->tabText(i);
    return out;
}
} // namespace

class TestWorkbench : public QObject
{
    Q_OBJECT
private slots:
    void everyRegisteredPanelIsLaidOut()
    {
        WorkbenchView w;
        QSet<QString> ids;
        for (const PanelSpec& spec : workbenchPanels()) {
            QVERIFY2(!ids.contains(spec.id), qPrintable(spec.id));
            ids.insert(spec.id);
            QWidget* p = w.panel(spec.id);
            QVERIFY2(p, qPrintable(spec.id));
            if (spec.quiz == QuizRole::Exercise)  // a tab only while an exercise is open
                QVERIFY(w.sideTabs()->indexOf(p) < 0 && w.centreTabs()->indexOf(p) < 0 && !p->isVisibleTo(&w));
            else if (spec.area == PanelArea::Side)
                QVERIFY(w.sideTabs()->indexOf(p) >= 0);
            else if (spec.area == PanelArea::Centre)
                QVERIFY(w.centreTabs()->indexOf(p) >= 0);
            else
                QVERIFY(w.sideTabs()->indexOf(p) < 0 && w.centreTabs()->indexOf(p) < 0 && p->parentWidget());
        }
        QVERIFY(!w.panel(QStringLiteral("no-such-panel")));
        // The layout the registry gives is the one the workbench always had.
        QCOMPARE(tabTitles(w.sideTabs()), (QStringList{"Verdict", "Explanation", "Teach", "Compare", "Review"}));
        QCOMPARE(tabTitles(w.centreTabs()), (QStringList{"Timeline", "Symptom chain", "Metrics", "Baseline", "History"}));
        QVERIFY(w.verdict() && w.explanation() && w.stepper() && w.timeline() && w.chain() && w.metrics() &&
                w.evidence() && w.raw() && w.quiz());
    }

    void anExerciseHidesEveryDecisionPanelThroughTheRegistry()
    {
        QTemporaryDir dir;
        const auto a = test::makeIncident(dir.path());
        WorkbenchView w;
        w.setAnalysis(a);
        QVERIFY(w.focus()->current().evidence.has_value());
        w.setQuiz(a, std::nullopt);
        QVERIFY(w.quizHidesVerdict());
        for (const PanelSpec& spec : workbenchPanels()) {
            QWidget* p = w.panel(spec.id);
            const bool inTabs = w.sideTabs()->indexOf(p) >= 0 || w.centreTabs()->indexOf(p) >= 0;
            if (spec.quiz == QuizRole::Decision) {
                QVERIFY2(spec.clear, qPrintable(spec.id));  // how the exercise empties it
                QVERIFY2(!inTabs && !p->isVisibleTo(&w), qPrintable(spec.id));
            } else if (spec.area != PanelArea::Bottom) {
                QVERIFY2(inTabs, qPrintable(spec.id));
            }
        }
        QCOMPARE(tabTitles(w.sideTabs()), (QStringList{"Exercise"}));
        QCOMPARE(tabTitles(w.centreTabs()), (QStringList{"Timeline", "Metrics"}));
        // Emptied, not just out of sight; nothing selected that would point at the answer.
        QCOMPARE(w.stepper()->steps().count(), 0);
        QVERIFY(!w.focus()->current().evidence.has_value());
        QCOMPARE(w.evidence()->model()->rowCount(), int(a->result.evidence.size()));
        // Reveal: every decision back, the exercise's score stays on its tab.
        w.reveal();
        QVERIFY(!w.quizHidesVerdict());
        QCOMPARE(tabTitles(w.sideTabs()), (QStringList{"Verdict", "Explanation", "Teach", "Compare", "Review", "Exercise"}));
        QCOMPARE(w.sideTabs()->currentWidget(), static_cast<QWidget*>(w.stepper()));
        QVERIFY(w.stepper()->steps().count() > 0);
        // An ordinary open leaves the exercise: the usual tabs.
        w.endQuiz();
        QCOMPARE(tabTitles(w.sideTabs()), (QStringList{"Verdict", "Explanation", "Teach", "Compare", "Review"}));
        QCOMPARE(tabTitles(w.centreTabs()), (QStringList{"Timeline", "Symptom chain", "Metrics", "Baseline", "History"}));
    }

    void everyPanelReceivesTheAnalysisAndTheNotes()
    {
        QTemporaryDir dir;
        const auto a = test::makeIncident(dir.path());
        WorkbenchView w;
        w.setAnalysis(a);
        QCOMPARE(w.evidence()->model()->rowCount(), int(a->result.evidence.size()));
        QVERIFY(w.timeline()->view()->lanes().rowCount() > 0);
        QVERIFY(w.stepper()->steps().count() > 0);
        QVERIFY(w.focus()->current().evidence.has_value());  // the root cause's evidence, opened in the raw viewer
        QVERIFY(!w.raw()->view()->displayName().isEmpty());
        QVERIFY(w.openNotes(dir.filePath(QStringLiteral("bundle"))).isEmpty());
        QVERIFY(w.setLaneNote(QStringLiteral("node02"), QStringLiteral("slow NIC")));
        QCOMPARE(w.timeline()->view()->laneNotes().value(QStringLiteral("node02")), QStringLiteral("slow NIC"));
        // A background open clears every panel before its jobs land.
        w.setAnalysis(a, ViewJobs::Mode::Background);
        QCOMPARE(w.evidence()->model()->rowCount(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!w.viewsPending(), 20000);
        QCOMPARE(w.evidence()->model()->rowCount(), int(a->result.evidence.size()));
    }

    void twoAnalysesSideBySideKeepTheirOwnFocus()
    {
        QTemporaryDir dirA, dirB;
        const auto a = test::makeIncident(dirA.path());
        const auto b = test::makeIncident(dirB.path(), true);
        WorkbenchView left, right;
        left.setAnalysis(a);
        right.setAnalysis(b);
        const AnalysisId idA = left.focus()->analysis();
        const AnalysisId idB = right.focus()->analysis();
        QVERIFY(idA && idB && idA != idB);
        // The same evidence id exists in both; selecting it on the left moves only the left.
        const std::optional<EvidenceId> before = right.focus()->current().evidence;
        QSignalSpy rightEvidence(right.focus(), &FocusState::evidenceSelected);
        const EvidenceItem& pick = a->result.evidence.back();
        left.focus()->selectEvidence(pick.id, pick.event);
        QCOMPARE(left.focus()->current().evidence, std::optional(pick.id));
        QCOMPARE(right.focus()->current().evidence, before);
        QCOMPARE(rightEvidence.count(), 0);
        // The left's focus cannot be carried over to the right by mistake.
        QVERIFY(!right.focus()->navigate(left.focus()->current()));
        QCOMPARE(right.focus()->current().evidence, before);
        // Showing another analysis gives the view a new id: snapshots of the old one no longer apply.
        const FocusSnapshot old = left.focus()->current();
        left.setAnalysis(b);
        QVERIFY(left.focus()->analysis() != idA && left.focus()->analysis() != idB);
        QVERIFY(!left.focus()->navigate(old));
    }
};

QTEST_MAIN(TestWorkbench)
#include "test_workbench.moc"

// SPDX-License-Identifier: MIT
// "Look here" handed over (issue #45 item 5): the view of one workbench (tab, selection, window, mode) written
// as a faultline:? link and applied to a second workbench on the same bundle gives the same view; an id the
// result lacks is said, not ignored. And File → Exercises (issue #44 item 4): the library's samples are listed
// with their lessons and open as exercises; its model under QAbstractItemModelTester.
#include "exercise/library.h"
#include "views/teach/exercisesdialog.h"
#include "views/workbench/workbenchstate.h"
#include "views/workbench/workbenchview.h"

#include <QAbstractItemModelTester>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace fl;

class TestWorkbenchState : public QObject
{
    Q_OBJECT
private slots:
    void aLinkReopensTheSameView()
    {
        const QString bundle = QStringLiteral(FAULTLINE_SOURCE_DIR "/samples/ambiguous-two-faults");
        const auto a = std::make_shared<const Analysis>(analyze(bundle.toStdString(), AnalyzeOptions{}));
        const EvidenceId evidence = a->result.evidence.at(3).id;
        WorkbenchView from;
        from.setAnalysis(a);
        from.sideTabs()->setCurrentWidget(from.panel(QStringLiteral("compare")));
        from.focus()->selectEvidence(evidence);
        const int64_t t0 = a->result.events.front().time.ns;
        from.focus()->setTimeWindow(t0 - 1'000'000'000, t0 + 4'000'000'000);
        const store::WorkbenchState s = stateOf(from, bundle);
        QCOMPARE(s.tab, std::string("compare"));
        QVERIFY(s.mode == store::StateMode::Review);
        QVERIFY(s.selection == evidence);
        const std::string link = store::stateToLink(s);
        QVERIFY2(link.rfind("faultline:?", 0) == 0, link.c_str());

        WorkbenchView to;
        to.setAnalysis(a);
        QCOMPARE(applyState(to, store::stateFromLink(link)), QString());
        QCOMPARE(to.sideTabs()->currentWidget(), to.panel(QStringLiteral("compare")));
        QVERIFY(to.focus()->current().evidence == evidence);
        QCOMPARE(to.focus()->current().startNs, t0 - 1'000'000'000);
        QCOMPARE(to.focus()->current().endNs, t0 + 4'000'000'000);

        // A centre tab, and an evidence id this result does not have.
        store::WorkbenchState other = s;
        other.tab = "chain";
        other.selection = evidenceIdFromString("ev-99999");
        const QString problems = applyState(to, other);
        QCOMPARE(to.centreTabs()->currentWidget(), static_cast<QWidget*>(to.chain()));
        QVERIFY2(problems.contains(QStringLiteral("ev-99999")), qPrintable(problems));
        other.tab = "no-such-tab";
        other.selection.reset();
        QVERIFY(applyState(to, other).contains(QStringLiteral("no-such-tab")));
    }

    void theExerciseLibraryOpensASample()
    {
        const auto library = exercise::readLibrary(exercise::defaultLibraryPath());
        QVERIFY(library.size() >= 6);
        ExercisesDialog dialog(library, {});
        QAbstractItemModelTester tester(dialog.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(dialog.model()->rowCount(), static_cast<int>(library.size()));
        int sample = -1;
        for (int r = 0; r < dialog.model()->rowCount(); ++r) {
            QVERIFY(!dialog.model()->index(r, ExerciseLibraryModel::LessonColumn).data().toString().isEmpty());
            if (dialog.model()->index(r, 0).data().toString() == QStringLiteral("xid149-nccl"))
                sample = r;
        }
        QVERIFY(sample >= 0);
        const QString folder = dialog.model()->index(sample, 0).data(ExerciseLibraryModel::FolderRole).toString();
        QVERIFY2(folder.endsWith(QStringLiteral("samples/xid149-nccl")), qPrintable(folder));
        QSignalSpy open(&dialog, &ExercisesDialog::openRequested);
        QVERIFY(!dialog.openButton()->isEnabled());
        dialog.table()->setCurrentIndex(dialog.model()->index(sample, 0));
        QVERIFY(dialog.openButton()->isEnabled());
        QTest::mouseClick(dialog.openButton(), Qt::LeftButton);
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.front().front().toString(), folder);
    }
};

QTEST_MAIN(TestWorkbenchState)
#include "test_workbenchstate.moc"

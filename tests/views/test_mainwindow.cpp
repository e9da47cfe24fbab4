// SPDX-License-Identifier: MIT
// The application window with the real engine: analysis off the GUI thread,
// errors naming the file, keys wired to the focus history.
#include "qtplugins.h"
#include "commandpalette.h"
#include "mainwindow.h"
#include "progressgate.h"
#include "synth/synth.h"
#include "exercise/key.h"
#include "views/teach/newexercisedialog.h"

#include <QComboBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTextBrowser>

#include <QLineEdit>
#include <QListWidget>
#include <QTabWidget>

#include <QDir>
#include <QElapsedTimer>
#include <QMenu>
#include <QMenuBar>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QSignalSpy>
#include <QTest>

#include <thread>

using namespace fl;

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        FL_REQUIRE_SQLITE_DRIVER();
        QCoreApplication::setOrganizationName(QStringLiteral("FaultlineTest"));
        QCoreApplication::setApplicationName(QStringLiteral("test_views_mainwindow"));
        QStandardPaths::setTestModeEnabled(true);
        QFile::remove(HistoryStore::defaultPath());
    }

    // Scan threads report concurrently: the gate must let about one report
    // per interval through, whatever the number of threads, and always the last.
    void progressGateThrottlesAcrossThreads()
    {
        ProgressGate gate(20);
        std::atomic<int> passed{0};
        QElapsedTimer clock;
        clock.start();
        std::vector<std::thread> threads;
        for (int t = 0; t < 8; ++t)
            threads.emplace_back([&] {
                while (clock.elapsed() < 300)
                    if (gate.claim(false))
                        ++passed;
            });
        for (auto& th : threads)
            th.join();
        const qint64 ms = clock.elapsed();
        QVERIFY2(passed >= 2 && passed <= ms / 20 + 2, qPrintable(QString::number(passed.load())));
        QVERIFY(gate.claim(true));
    }

    void cancelShowsCancelledAndStaysResponsive()
    {
        // A bundle big enough to take seconds: 400 nodes x 8 GPUs.
        QTemporaryDir dir;
        fl::synth::Options o;
        o.nodes = 400;
        o.iterations = 30;
        std::string err;
        QVERIFY2(fl::synth::generate(o, dir.filePath(QStringLiteral("b")).toStdString(), &err), err.c_str());
        MainWindow w;
        w.setProperty("headless", true);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // The GUI thread's heartbeat: the largest gap between 10 ms ticks.
        QElapsedTimer beat;
        qint64 worstGap = 0;
        QTimer tick;
        tick.setInterval(10);
        connect(&tick, &QTimer::timeout, this, [&] {
            if (beat.isValid())
                worstGap = std::max(worstGap, beat.restart());
            else
                beat.start();
        });
        tick.start();
        QSignalSpy done(&w, &MainWindow::analysisFinished);
        w.openPath(dir.filePath(QStringLiteral("b")));
        QTest::qWait(300);
        QVERIFY2(w.isBusy(), "the analysis finished before it could be cancelled");
        w.cancelAnalysis();
        QVERIFY(done.wait(60000) || done.count() == 1);
        tick.stop();
        QCOMPARE(done.front().front().toBool(), true);  // cancelled is not an error
        QVERIFY(w.lastError().isEmpty());
        QVERIFY(w.workbench()->analysis() && w.workbench()->analysis()->cancelled);
        QVERIFY2(w.workbench()->verdict()->statusText().startsWith(QStringLiteral("CANCELLED")),
                 qPrintable(w.workbench()->verdict()->statusText()));
        QVERIFY(w.statusBar()->currentMessage().startsWith(QStringLiteral("Cancelled")));
        QVERIFY2(worstGap < 500, qPrintable(QStringLiteral("GUI blocked for %1 ms").arg(worstGap)));
        // Still usable: the next bundle opens normally.
        const QString sample = QStringLiteral(FAULTLINE_SOURCE_DIR "/samples/xid149-nccl");
        if (QDir(sample).exists()) {
            done.clear();
            w.openPath(sample);
            QVERIFY(done.wait(60000) || done.count() == 1);
            QVERIFY(!w.workbench()->analysis()->cancelled);
            // Both investigations are in the history, the cancelled one marked so.
            const auto recent = w.history()->recent();
            QVERIFY(recent.size() >= 2);
            QCOMPARE(recent[0].path, QFileInfo(sample).absoluteFilePath());
            QCOMPARE(recent[1].verdict, QStringLiteral("cancelled"));
            QVERIFY(w.recentMenu()->actions().size() >= 2);
            QVERIFY(w.recentMenu()->actions().front()->text().contains(QStringLiteral("attributed")));
        }
    }

    void opensSampleOffThread()
    {
        const QString sample = QStringLiteral(FAULTLINE_SOURCE_DIR "/samples/xid149-nccl");
        if (!QDir(sample).exists())
            QSKIP("sample xid149-nccl not in this checkout");
        MainWindow w;
        w.setProperty("headless", true);
        QSignalSpy done(&w, &MainWindow::analysisFinished);
        w.openPath(sample);
        QVERIFY(w.isBusy() || done.count() == 1);  // returns at once; the work is elsewhere
        QVERIFY(done.wait(60000) || done.count() == 1);
        QCOMPARE(done.front().front().toBool(), true);
        QVERIFY(w.workbench()->analysis());
        QVERIFY(w.workbench()->verdict()->statusText().startsWith(QStringLiteral("ATTRIBUTED")));
        // Keys: F8 moves to the next evidence; Alt+Left goes back.
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const std::optional<EvidenceId> first = w.workbench()->focus()->current().evidence;
        QTest::keyClick(&w, Qt::Key_F8);
        QVERIFY(w.workbench()->focus()->current().evidence != first);
        QTest::keyClick(&w, Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(w.workbench()->focus()->current().evidence, first);
    }

    void commandPaletteRunsActions()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::keyClick(&w, Qt::Key_K, Qt::ControlModifier);
        auto* palette = w.findChild<CommandPalette*>();
        QVERIFY(palette);
        auto* edit = palette->findChild<QLineEdit*>();
        auto* list = palette->findChild<QListWidget*>();
        QVERIFY(edit && list);
        const int all = list->count();
        QTest::keyClicks(edit, QStringLiteral("explan"));
        QCOMPARE(list->count(), 1);
        QVERIFY(list->count() < all);
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(w.workbench()->sideTabs()->currentWidget(), w.workbench()->explanation());
    }

    // File → New exercise… (issue #44 item 2): a synthetic bundle written by core's makeSynthExercise, its key
    // outside it, opened in quiz mode with that key; Open exercise… finds the key beside the folder.
    void newExerciseOpensAsAQuizWithItsKey()
    {
        QTemporaryDir tmp;
        MainWindow w;
        w.setProperty("headless", true);
        w.workbench()->setScoresPath(tmp.filePath(QStringLiteral("scores.sqlite")));
        QAction* make = nullptr;
        for (QAction* m : w.menuBar()->actions())
            if (m->menu())
                for (QAction* a : m->menu()->actions())
                    if (a->text() == QStringLiteral("&New exercise…"))
                        make = a;
        QVERIFY2(make, "no File → New exercise…");
        make->trigger();
        auto* dialog = w.findChild<NewExerciseDialog*>();
        QVERIFY(dialog);
        const int xid79 = dialog->faultBox()->findData(QStringLiteral("xid79"));
        QVERIFY(xid79 >= 0);
        QCOMPARE(dialog->faultBox()->count(), static_cast<int>(synth::faultKinds().size()));
        dialog->faultBox()->setCurrentIndex(xid79);
        dialog->nodesBox()->setValue(2);
        dialog->gpusBox()->setValue(2);
        const QString dir = tmp.filePath(QStringLiteral("ex1"));
        dialog->folderEdit()->setText(dir);
        QSignalSpy done(&w, &MainWindow::analysisFinished);
        QTest::mouseClick(dialog->createButton(), Qt::LeftButton);
        QVERIFY2(done.wait(120000), "the exercise was not written and opened within 120 s");
        QVERIFY2(done.last().at(0).toBool(), qPrintable(w.lastError()));
        const QString keyPath = dir + QStringLiteral(".key.json");
        QVERIFY(QFileInfo::exists(keyPath));
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/truth.json")));
        QVERIFY(w.workbench()->quizHidesVerdict());
        QCOMPARE(exerciseKeyBeside(dir), keyPath);
        QCOMPARE(exerciseKeyBeside(tmp.filePath(QStringLiteral("none"))), QString());

        // Scored against that key: its root line scores 1.
        const exercise::ExerciseKey key = exercise::readKey(keyPath.toStdString());
        QVERIFY(!key.root.empty());
        w.workbench()->quiz()->addMark(QString::fromStdString(key.root.front().file), key.root.front().line);
        w.workbench()->quiz()->revealButton()->click();
        const QString score = w.workbench()->quiz()->result()->toPlainText();
        QVERIFY2(score.contains(QStringLiteral("Score 1")), qPrintable(score));

        // A folder that is not empty is refused, naming it; nothing opens.
        make->trigger();
        auto* again = w.findChildren<NewExerciseDialog*>().last();
        again->folderEdit()->setText(dir);
        QSignalSpy failed(again, &NewExerciseDialog::failed);
        again->create();
        QVERIFY(failed.wait(60000));
        QVERIFY2(failed.last().at(0).toString().contains(dir), qPrintable(failed.last().at(0).toString()));
    }

    void errorNamesTheFile()
    {
        MainWindow w;
        w.setProperty("headless", true);
        QSignalSpy done(&w, &MainWindow::analysisFinished);
        const QString missing = QDir::temp().filePath(QStringLiteral("faultline-no-such-bundle"));
        w.openPath(missing);
        QVERIFY(done.wait(30000) || done.count() == 1);
        QCOMPARE(done.front().front().toBool(), false);
        QVERIFY2(w.lastError().contains(missing), qPrintable(w.lastError()));
        QVERIFY(!w.workbench()->analysis());
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_mainwindow.moc"

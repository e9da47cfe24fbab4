// SPDX-License-Identifier: MIT
// The application window with the real engine: analysis off the GUI thread,
// errors naming the file, keys wired to the focus history.
#include "commandpalette.h"
#include "mainwindow.h"

#include <QLineEdit>
#include <QListWidget>
#include <QTabWidget>

#include <QDir>
#include <QSignalSpy>
#include <QTest>

using namespace fl;

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("FaultlineTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_views_mainwindow"));
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
        const QString first = w.workbench()->focus()->current().evidence;
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
#include "tst_mainwindow.moc"

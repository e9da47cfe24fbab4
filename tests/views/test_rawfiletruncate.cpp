// SPDX-License-Identifier: MIT
// A log truncated on disk while the raw view shows it (log rotation, a collector rewriting it) must not kill
// the workbench with SIGBUS: the view maps through core's MappedFile and its SIGBUS guard, keeps working on
// zero pages, and says the file changed. Before, QFile::map touched vanished pages and the process died.
#include "qtplugins.h"
#include "views/evidence/rawfileview.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace fl;

class TestRawFileTruncate : public QObject
{
    Q_OBJECT
private slots:
    void truncatedWhileShownDoesNotCrash()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.log"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            // Past MappedFile::kReadBelowBytes, so it is mapped, not read.
            const QByteArray line = QByteArrayLiteral("Mar 14 10:00:41 node-02 kernel: NVRM: Xid (PCI:0000:41:00): 79, "
                                                      "GPU has fallen off the bus. padding padding padding\n");
            for (int i = 0; i < 40000; ++i)
                f.write(line);
            f.write("needle at the very end\n");
        }
        QVERIFY(QFileInfo(path).size() > qint64(MappedFile::kReadBelowBytes));
        RawFileView view;
        view.resize(1000, 600);
        view.show();
        QVERIFY(view.open(path, QStringLiteral("big.log")));
        QTRY_VERIFY_WITH_TIMEOUT(view.indexComplete(), 20000);
        QVERIFY(view.lineCount() >= 40001);
        view.goToLine(20000);
        QVERIFY(!view.grab().isNull());

        QVERIFY(QFile::resize(path, 0));  // the file is gone under the view

        // Everything that reads the bytes: scroll, paint, search, line text. No SIGBUS.
        view.goToLine(40001);
        QVERIFY(!view.grab().isNull());
        QVERIFY(!view.find(QStringLiteral("needle")));  // zeros stand in for the vanished pages
        QVERIFY(view.lineText(40001).isEmpty() || !view.lineText(40001).contains(QStringLiteral("needle")));
        QVERIFY2(view.errorString().contains(QStringLiteral("changed on disk")), qPrintable(view.errorString()));

        // Opening it again shows what is there now.
        view.close();
        QVERIFY(view.open(path, QStringLiteral("big.log")));
        QVERIFY(view.errorString().isEmpty());
        QVERIFY(!view.find(QStringLiteral("needle")));
    }
};

QTEST_MAIN(TestRawFileTruncate)
#include "test_rawfiletruncate.moc"

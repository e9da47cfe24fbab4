// SPDX-License-Identifier: MIT
#include "views/evidence/rawlineindex.h"
#include "views/evidence/rawfileview.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFontMetrics>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace fl;

class TestRawFileView : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    QString write(const QString& name, const QByteArray& data)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size())
            qFatal("cannot write test file");
        return path;
    }

private slots:
    void lineIndexShapes_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<int>("lines");
        QTest::addColumn<QByteArray>("last");
        QTest::newRow("empty") << QByteArray() << 0 << QByteArray();
        QTest::newRow("one, no newline") << QByteArray("abc") << 1 << QByteArray("abc");
        QTest::newRow("final newline") << QByteArray("a\nb\n") << 2 << QByteArray("b");
        QTest::newRow("crlf") << QByteArray("a\r\nbc\r\n") << 2 << QByteArray("bc");
        QTest::newRow("blank lines") << QByteArray("\n\n\n") << 3 << QByteArray();
        QTest::newRow("nul bytes") << QByteArray("a\0b\nc", 5) << 2 << QByteArray("c");
    }
    void lineIndexShapes()
    {
        QFETCH(QByteArray, data);
        QFETCH(int, lines);
        QFETCH(QByteArray, last);
        RawLineIndex idx;
        idx.reset({data.constData(), size_t(data.size())});
        while (!idx.indexMore(2)) {}  // tiny slices: newlines on slice edges
        QCOMPARE(int(idx.lineCount()), lines);
        if (lines > 0) {
            const auto l = idx.line(idx.lineCount() - 1);
            QCOMPARE(QByteArray(l.data(), qsizetype(l.size())), last);
        }
    }

    void lineOfOffset()
    {
        const QByteArray d("first\nsecond\nthird");
        RawLineIndex idx;
        idx.reset({d.constData(), size_t(d.size())});
        QCOMPARE(idx.lineOf(0), uint64_t(0));
        QCOMPARE(idx.lineOf(5), uint64_t(0));   // the newline belongs to its line
        QCOMPARE(idx.lineOf(6), uint64_t(1));
        QCOMPARE(idx.lineOf(17), uint64_t(2));
    }

    void goToLineAndRef()
    {
        QByteArray d;
        for (int i = 1; i <= 5000; ++i)
            d += "line " + QByteArray::number(i) + " payload\n";
        RawFileView v;
        v.resize(600, 400);
        QVERIFY(v.open(write(QStringLiteral("a.log"), d), QStringLiteral("a.log")));
        v.goToLine(1234);
        QCOMPARE(v.currentLine(), uint64_t(1234));
        QCOMPARE(v.lineText(1234), QStringLiteral("line 1234 payload"));
        QVERIFY(v.firstVisibleLine() <= 1233 && v.firstVisibleLine() + 30 > 1233);
        v.goToLine(999999);  // past the end: last line
        QCOMPARE(v.currentLine(), uint64_t(5000));
        // A ref is located by its byte offset.
        const qsizetype off = d.indexOf("line 4321 ");
        RawRef ref;
        ref.offset = uint64_t(off);
        ref.length = 17;
        ref.line = 4321;
        v.showRef(ref);
        QCOMPARE(v.currentLine(), uint64_t(4321));
        QCOMPARE(v.highlight().first, uint64_t(off));
        QCOMPARE(v.highlight().second, uint64_t(off + 17));
        // A ref past the end of a (changed) file highlights nothing and does not crash.
        ref.offset = uint64_t(d.size()) + 100;
        v.showRef(ref);
        QCOMPARE(v.highlight().first, v.highlight().second);
        (void)v.grab();
    }

    // Scrolled to the end of a short file, the last line is on the last full
    // row: no blank "line 8" under a 7-line file.
    void endOfFileHasNoBlankRow()
    {
        QByteArray d;
        for (int i = 1; i <= 7; ++i)
            d += "line " + QByteArray::number(i) + "\n";
        RawFileView v;
        const int lh = QFontMetrics(v.font()).height() + 2;
        v.resize(500, 4 * lh + lh / 2 + 2 * v.frameWidth());
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QVERIFY(v.open(write(QStringLiteral("seven.log"), d)));
        const int rows = v.viewport()->height() / lh;
        QVERIFY2(rows >= 2 && rows < 7, qPrintable(QString::number(rows)));
        v.verticalScrollBar()->setValue(v.verticalScrollBar()->maximum());
        QCOMPARE(v.lineAtY((rows - 1) * lh + 1), uint64_t(7));
        QCOMPARE(v.lineCount(), uint64_t(7));
        v.goToLine(7);
        QCOMPARE(v.lineAtY((rows - 1) * lh + 1), uint64_t(7));
    }

    // A syslog Xid line is longer than the panel: wrapped (the default) its
    // Xid text is on screen without scrolling; unwrapped it scrolls sideways.
    void longLinesWrap()
    {
        const QByteArray xid = "Mar 14 10:00:41 node-03 kernel: [6781741.548779] NVRM: Xid (PCI:0000:91:00): 79, "
                               "pid=1234, name=python3, GPU has fallen off the bus.";
        QByteArray d = "a\nb\nc\n" + xid + "\ne\nf\ng\n";
        RawFileView v;
        v.resize(460, 300);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QVERIFY(v.open(write(QStringLiteral("xid.log"), d)));
        QVERIFY(v.wrap());
        const int lh = QFontMetrics(v.font()).height() + 2;
        const int rows = v.rowsOf(3);
        QVERIFY2(rows >= 2, qPrintable(QString::number(rows)));
        QCOMPARE(v.horizontalScrollBar()->maximum(), 0);
        for (int r = 0; r < rows; ++r)
            QCOMPARE(v.lineAtY(3 * lh + r * lh + 1), uint64_t(4));
        QCOMPARE(v.lineAtY((3 + rows) * lh + 1), uint64_t(5));
        QVERIFY(v.find(QStringLiteral("fallen off")));
        QCOMPARE(v.horizontalScrollBar()->value(), 0);
        (void)v.grab();
        v.setWrap(false);
        QCOMPARE(v.rowsOf(3), 1);
        QVERIFY(v.horizontalScrollBar()->maximum() > 0);
        QCOMPARE(v.lineAtY(4 * lh + 1), uint64_t(5));
    }

    void searchNextPrevious()
    {
        const QByteArray d("alpha\nNeedle one\nbeta\nneedle two\ngamma\nNEEDLE three\n");
        RawFileView v;
        v.resize(600, 300);
        QVERIFY(v.open(write(QStringLiteral("s.log"), d)));
        QVERIFY(v.find(QStringLiteral("needle")));
        QCOMPARE(v.currentLine(), uint64_t(2));
        QVERIFY(v.find(QStringLiteral("needle")));
        QCOMPARE(v.currentLine(), uint64_t(4));
        QVERIFY(v.find(QStringLiteral("needle")));
        QCOMPARE(v.currentLine(), uint64_t(6));
        QVERIFY(v.find(QStringLiteral("needle"), false));
        QCOMPARE(v.currentLine(), uint64_t(4));
        QVERIFY(v.find(QStringLiteral("needle")));
        QVERIFY(v.find(QStringLiteral("needle")));  // wraps to the first
        QCOMPARE(v.currentLine(), uint64_t(2));
        QCOMPARE(v.currentMatch().first, uint64_t(d.indexOf("Needle one")));
        QVERIFY(!v.find(QStringLiteral("absent")));
        QCOMPARE(v.currentLine(), uint64_t(2));
        QVERIFY(!v.find(QStringLiteral("needle one"), true, true));  // case-sensitive
        (void)v.grab();
    }

    void hostileBytesAndMissingFile()
    {
        QByteArray d(200000, 'x');  // one 200 KB line
        d += "\n\x01\x02\xff\xfe\t\x1b[31mred\n";
        RawFileView v;
        v.resize(600, 300);
        QVERIFY(v.open(write(QStringLiteral("h.log"), d)));
        QCOMPARE(v.lineCount(), uint64_t(2));
        QVERIFY(v.lineText(1).size() < 5000);  // elided, not laid out whole
        QVERIFY(!v.lineText(2).contains(QChar(0x1b)));
        (void)v.grab();
        QVERIFY(v.open(write(QStringLiteral("empty.log"), {})));
        QCOMPARE(v.lineCount(), uint64_t(0));
        v.goToLine(5);
        (void)v.grab();
        QVERIFY(!v.open(m_dir.filePath(QStringLiteral("missing.log")), QStringLiteral("missing.log")));
        QVERIFY(v.errorString().contains(QStringLiteral("missing.log")));
        (void)v.grab();
    }

    void bigFileOpensAtOnce()
    {
        // ~120 MB: open must not index it all before showing the first lines.
        const QString path = m_dir.filePath(QStringLiteral("big.log"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray block;
            for (int i = 0; i < 20000; ++i)
                block += "2024-05-01T12:00:00Z node01 kernel: some ordinary line of text number xxxxxxxx\n";
            for (int i = 0; i < 75; ++i)
                f.write(block);
        }
        RawFileView v;
        v.resize(600, 300);
        QElapsedTimer t;
        t.start();
        QVERIFY(v.open(path));
        (void)v.grab();
        QVERIFY2(t.elapsed() < 1000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(!v.indexComplete());
        QSignalSpy spy(&v, &RawFileView::indexProgress);
        QTRY_VERIFY_WITH_TIMEOUT(v.indexComplete(), 20000);
        QCOMPARE(v.lineCount(), uint64_t(1'500'000));
        v.goToLine(1'499'999);
        QCOMPARE(v.currentLine(), uint64_t(1'499'999));
    }

    // Go-to-line deep in a big file: from the background checkpoints, without
    // indexing the prefix on the GUI thread.
    void goToLineFromCheckpoints()
    {
        const QString path = m_dir.filePath(QStringLiteral("numbered.log"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray block;
            for (int i = 1; i <= 1'500'000; ++i) {
                block += "line " + QByteArray::number(i).rightJustified(8, '0') + " of a log long enough to need checkpoints\n";
                if (block.size() > (8 << 20)) {
                    f.write(block);
                    block.clear();
                }
            }
            f.write(block);
        }
        RawFileView v;
        v.resize(600, 300);
        QVERIFY(v.open(path));
        QSignalSpy landed(&v, &RawFileView::goToLineLanded);
        v.goToLine(1'400'321);
        QVERIFY(!v.indexComplete());  // the prefix was not indexed to get there
        QVERIFY(landed.count() == 1 || landed.wait(20000));
        QCOMPARE(landed.count(), 1);
        QCOMPARE(landed.front().front().toULongLong(), quint64(1'400'321));
        QVERIFY(!v.goToLinePending());
        QCOMPARE(v.currentLine(), uint64_t(1'400'321));
        QVERIFY(v.lineText(1'400'321).startsWith(QStringLiteral("line 01400321 ")));
        QVERIFY(v.lineText(1'400'300).startsWith(QStringLiteral("line 01400300 ")));
        QTRY_VERIFY_WITH_TIMEOUT(v.checkpointsComplete(), 20000);
        landed.clear();
        v.goToLine(99'999'999);  // past the end: the last line
        QCOMPARE(v.currentLine(), uint64_t(1'500'000));
        QCOMPARE(landed.count(), 1);
        QCOMPARE(landed.front().front().toULongLong(), quint64(1'500'000));
        v.goToLine(1'023);  // within the first checkpoint
        QVERIFY(v.lineText(1'023).startsWith(QStringLiteral("line 00001023 ")));
    }

    void jumpToEvidenceBeyondTheIndexedPrefix()
    {
        // Numbered lines, ~80 MB: the evidence at line 900,000 is far past
        // the first index slice, and must show at once with its number.
        const QString path = m_dir.filePath(QStringLiteral("numbered.log"));
        RawRef ref;
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray block;
            uint64_t offset = 0;
            for (int i = 1; i <= 1'000'000; ++i) {
                const QByteArray l = QByteArrayLiteral("2024-05-01T12:00:00Z node01 app: line ") + QByteArray::number(i)
                    + QByteArray(40, 'x') + '\n';
                if (i == 900'000) {
                    ref.offset = offset + 5;  // inside the line, as a multi-field match may be
                    ref.line = uint32_t(i);
                    ref.length = uint32_t(l.size() - 6);
                }
                offset += uint64_t(l.size());
                block += l;
                if (block.size() > (1 << 22)) {
                    f.write(block);
                    block.clear();
                }
            }
            f.write(block);
        }
        RawFileView v;
        v.resize(600, 300);
        v.show();
        QVERIFY(v.open(path));
        QVERIFY(!v.indexComplete());
        v.showRef(ref);
        (void)v.grab();
        QVERIFY(!v.indexComplete());  // shown without indexing up to it
        QCOMPARE(v.currentLine(), uint64_t(900'000));
        QVERIFY(v.lineText(900'000).contains(QStringLiteral("line 900000x")));
        QVERIFY(v.lineText(899'990).contains(QStringLiteral("line 899990x")));
        QVERIFY(v.lineText(900'020).contains(QStringLiteral("line 900020x")));
        QVERIFY(v.firstVisibleLine() <= 900'000 - 1 && v.firstVisibleLine() + 20 > 900'000 - 1);
        // Going to a line in the not-yet-indexed gap lands there once the
        // background checkpoints reach it (at once if they already have).
        QSignalSpy landed(&v, &RawFileView::goToLineLanded);
        v.goToLine(500'000);
        QVERIFY(landed.count() == 1 || landed.wait(20000));
        QCOMPARE(landed.front().front().toULongLong(), quint64(500'000));
        QVERIFY(!v.goToLinePending());
        QCOMPARE(v.currentLine(), uint64_t(500'000));
        QVERIFY(v.lineText(500'000).contains(QStringLiteral("line 500000x")));
        // Once indexed, the numbers agree with the window's.
        QTRY_VERIFY_WITH_TIMEOUT(v.indexComplete(), 20000);
        QCOMPARE(v.lineCount(), uint64_t(1'000'000));
        QVERIFY(v.lineText(900'000).contains(QStringLiteral("line 900000x")));
    }
};

QTEST_MAIN(TestRawFileView)
#include "test_rawfileview.moc"

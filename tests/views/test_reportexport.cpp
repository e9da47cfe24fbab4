// SPDX-License-Identifier: MIT
// File → Export report…: the report of what the workbench shows, with its notes and override and the
// pictures grabbed from its own chain graph and timeline.
#include "qtplugins.h"
#include "viewfixture.h"
#include "views/export/reportexport.h"
#include "views/workbench/workbenchview.h"

#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace fl;

namespace {
QString readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}
} // namespace

class TestReportExport : public QObject
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

    void htmlHoldsVerdictNotesAndPictures()
    {
        const QString bundle = m_dir.filePath(QStringLiteral("inc"));
        auto analysis = test::makeIncident(bundle);
        WorkbenchView w;
        w.resize(1600, 1000);
        w.setAnalysis(analysis);
        QVERIFY(w.openNotes(bundle).isEmpty());
        const EvidenceId evId = analysis->result.evidence.front().id;
        QVERIFY(w.setEvidenceNote(evId, QStringLiteral("<i>seen</i> on this board before")));
        VerdictOverride o;
        o.status = QStringLiteral("ambiguous");
        o.domain = QStringLiteral("gpu");
        o.rootNode = QStringLiteral("node02");
        o.reason = QStringLiteral("two RMAs on the same board this month");
        QVERIFY(w.notes()->setVerdictOverride(o));

        const QString out = m_dir.filePath(QStringLiteral("r.html"));
        QCOMPARE(writeReport(w, bundle, out, true), QString());
        const QString html = readAll(out);
        QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
        QVERIFY(html.contains(QStringLiteral("node02 GPU 3 rank 7")));
        QVERIFY(html.contains(QStringLiteral("two RMAs on the same board this month")));
        QVERIFY(html.contains(QStringLiteral("&lt;i&gt;seen&lt;/i&gt; on this board before")));
        QVERIFY(!html.contains(QStringLiteral("<i>seen")));
        // Both pictures are PNGs of the views, decodable and not blank.
        const QRegularExpression png(QStringLiteral("src=\"data:image/png;base64,([^\"]+)\""));
        int pictures = 0;
        for (auto it = png.globalMatch(html); it.hasNext(); ++pictures) {
            const QImage img = QImage::fromData(QByteArray::fromBase64(it.next().captured(1).toLatin1()), "PNG");
            QVERIFY(!img.isNull());
            QVERIFY(img.width() >= 400 && img.height() >= 100);
            QSet<QRgb> colours;
            for (int y = 0; y < img.height(); y += 7)
                for (int x = 0; x < img.width(); x += 7)
                    colours.insert(img.pixel(x, y));
            QVERIFY2(colours.size() > 3, "a picture is blank");
        }
        QCOMPARE(pictures, 2);
    }

    void markdownWritesPicturesBesideAndFailsNamingTheFile()
    {
        const QString bundle = m_dir.filePath(QStringLiteral("inc2"));
        auto analysis = test::makeIncident(bundle, true);
        WorkbenchView w;
        w.resize(1600, 1000);
        w.setAnalysis(analysis);
        const QString out = m_dir.filePath(QStringLiteral("ticket.md"));
        QCOMPARE(writeReport(w, bundle, out, false), QString());
        const QString md = readAll(out);
        QVERIFY(md.contains(QStringLiteral("**AMBIGUOUS")));
        QVERIFY(md.contains(QStringLiteral("(<ticket-chain.png>)")));
        QVERIFY(!QImage(m_dir.filePath(QStringLiteral("ticket-timeline.png"))).isNull());

        const QString bad = m_dir.filePath(QStringLiteral("no-such-folder/r.html"));
        QVERIFY(writeReport(w, bundle, bad, true).contains(bad));
        WorkbenchView empty;
        QVERIFY(!writeReport(empty, bundle, out, true).isEmpty());
    }
};

QTEST_MAIN(TestReportExport)
#include "test_reportexport.moc"

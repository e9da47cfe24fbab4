// Bundles at the edges, end to end through faultline-cli (#13 item 6): a bare compressed log given as the
// whole bundle, and a syslog without years that spans New Year (its year comes from the file's time).
#include "cli_run.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {
using fl::test::cli;

bool write(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QJsonObject json(const QString& text)
{
    return QJsonDocument::fromJson(text.toUtf8()).object();
}
} // namespace

class TestBundleEdges : public QObject {
    Q_OBJECT
private slots:
    void bareCompressedLogIsTheWholeBundle()
    {
        QTemporaryDir dir;
        const QString log = dir.filePath("syslog");
        QVERIFY(QFile::copy(QStringLiteral(FAULTLINE_SOURCE_DIR "/samples/xid149-nccl/syslog-node-02.log"), log));
        QCOMPARE(QProcess::execute("gzip", {"-n", log}), 0);
        const auto r = cli({"analyze", dir.filePath("syslog.gz")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject doc = json(r.out);
        const QJsonArray conns = doc["connector_reports"].toArray();
        QCOMPARE(conns.size(), 1);
        QCOMPARE(conns[0]["file"].toString(), QStringLiteral("syslog.gz"));
        QCOMPARE(conns[0]["status"].toString(), QStringLiteral("ok"));
        QCOMPARE(conns[0]["kind"].toString(), QStringLiteral("syslog"));
        QVERIFY(conns[0]["observations"].toInt() > 0);
        QCOMPARE(doc["root_cause"]["node"].toString(), QStringLiteral("node-02"));

        // A gzip header over garbage: refused as unusable, naming the file and why.
        const QString broken = dir.filePath("broken.gz");
        QVERIFY(write(broken, QByteArray("\x1f\x8b\x08\x00garbage", 11)));
        const auto corrupt = cli({"analyze", broken});
        QCOMPARE(corrupt.code, 2);
        QVERIFY2(corrupt.err.contains("broken.gz") && corrupt.err.contains("compressed log"), qPrintable(corrupt.err));

        // Not compressed and not an archive: still refused, naming the file.
        const QString junk = dir.filePath("junk.bin");
        QVERIFY(write(junk, QByteArray(64, '\x7f')));
        const auto bad = cli({"analyze", junk});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("junk.bin"));
    }

    void syslogAcrossNewYearKeepsItsOrder()
    {
        // Two GPUs fall off the bus 5 s apart, across midnight of New Year's Eve; the file was last written
        // on 1 January. The December line is the earlier one only if it is given the year before.
        QTemporaryDir dir;
        const QString bundle = dir.filePath("b");
        QVERIFY(QDir().mkpath(bundle));
        const QString log = bundle + "/syslog-node-01.log";
        QVERIFY(write(log,
                      "Dec 31 23:59:50 node-01 systemd[1]: Started Session 12 of user train.\n"
                      "Dec 31 23:59:58 node-01 kernel: [2191.338871] NVRM: Xid (PCI:0000:41:00): 79, pid=1234, "
                      "name=python3, GPU has fallen off the bus.\n"
                      "Jan  1 00:00:03 node-01 kernel: [2196.338871] NVRM: Xid (PCI:0000:c1:00): 79, pid=1235, "
                      "name=python3, GPU has fallen off the bus.\n"
                      "Jan  1 00:00:09 node-01 systemd[1]: Stopped Session 12 of user train.\n"));
        QFile f(log);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.setFileTime(QDateTime(QDate(2027, 1, 1), QTime(0, 5), Qt::UTC), QFileDevice::FileModificationTime));
        f.close();
        const auto r = cli({"analyze", "--detail", bundle});  // the per-event chain (schema 2.0)
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject doc = json(r.out);
        QStringList times;
        for (const auto& n : doc["symptom_chain"]["nodes"].toArray())
            times << n.toObject()["time"].toString();
        QVERIFY2(times.contains("2026-12-31T23:59:58Z") && times.contains("2027-01-01T00:00:03Z"),
                 qPrintable(times.join(", ")));
        QVERIFY2(doc["root_cause"]["time"].toString() == QStringLiteral("2026-12-31T23:59:58Z"),
                 qPrintable(r.out.left(3000)));
        QCOMPARE(doc["root_cause"]["pci_bus"].toString(), QStringLiteral("0000:41:00"));
    }
};

QTEST_GUILESS_MAIN(TestBundleEdges)
#include "test_bundle_edges.moc"

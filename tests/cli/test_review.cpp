// `faultline-cli review` as a reviewer runs it on the ambiguous sample (docs/report.md): decisions are
// appended to the notes file with their author, `--history` lists them in order, a choice without a reason
// is refused naming the file, and `report` states the current decision first, beside the engine's verdict.
#include "cli_run.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using fl::test::cli;

const QString kSample = QStringLiteral(FAULTLINE_SOURCE_DIR "/samples/ambiguous-two-faults");

QString readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestReview : public QObject {
    Q_OBJECT
private slots:
    void reviewThenReport()
    {
        QTemporaryDir dir;
        const QString result = dir.filePath("result.json"), db = dir.filePath("notes.sqlite");
        auto r = cli({"analyze", kSample, "-o", result});
        QVERIFY2(r.code == 0 || r.code == 1, qPrintable(r.err));
        const QJsonObject doc = QJsonDocument::fromJson(readAll(result).toUtf8()).object();
        QCOMPARE(doc["status"].toString(), QStringLiteral("ambiguous"));
        QString node01;
        for (const QJsonValue& c : doc["candidates"].toArray())
            if (c["node"].toString() == "node-01" && !c["evidence"].toArray().isEmpty())
                node01 = c["evidence"].toArray().first().toString();
        QVERIFY2(!node01.isEmpty(), "no candidate on node-01 with evidence");

        // Unreviewed: the report opens with its title.
        r = cli({"report", result, "--notes", db});
        QCOMPARE(r.code, 2);  // no notes file yet: named
        QVERIFY2(r.err.contains(db), qPrintable(r.err));

        r = cli({"review", result, "--db", db, "--choose", node01});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(db) && r.err.contains("reason"), qPrintable(r.err));
        r = cli({"review", result, "--db", db, "--choose", "ev-not-there", "--reason", "x", "--reviewer", "alice"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(result) && r.err.contains("names no candidate"), qPrintable(r.err));

        r = cli({"review", result, "--db", db, "--confirm", "--reviewer", "bob"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = cli({"review", result, "--db", db, "--choose", node01, "--reason", "node-01's Xid is first in its dmesg",
                 "--reviewer", "alice"});
        QVERIFY2(r.code == 0, qPrintable(r.err));

        r = cli({"review", result, "--db", db, "--history", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonArray reviews = QJsonDocument::fromJson(r.out.toUtf8()).object()["reviews"].toArray();
        QCOMPARE(reviews.size(), 2);
        QCOMPARE(reviews[0]["reviewer"].toString(), QStringLiteral("bob"));
        QCOMPARE(reviews[0]["decision"].toString(), QStringLiteral("confirm"));
        QCOMPARE(reviews[1]["reviewer"].toString(), QStringLiteral("alice"));
        QCOMPARE(reviews[1]["decision"].toString(), QStringLiteral("choose"));
        QCOMPARE(reviews[1]["evidence_id"].toString(), node01);
        QCOMPARE(reviews[1]["engine_status"].toString(), QStringLiteral("ambiguous"));
        r = cli({"review", result, "--db", db, "--history"});
        QVERIFY2(r.code == 0 && r.out.count('\n') == 2 && r.out.indexOf("bob") < r.out.indexOf("alice"), qPrintable(r.out));

        // The report: the first line is the current decision with the engine's verdict beside it.
        r = cli({"report", result, "--notes", db});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString first = r.out.section('\n', 0, 0);
        QVERIFY2(first.startsWith("**Reviewed: ATTRIBUTED gpu") && first.contains("node-01") &&
                     first.endsWith("by alice (engine: AMBIGUOUS)**"),
                 qPrintable(first));
        QVERIFY(r.out.contains("Review history"));
        QVERIFY2(r.out.indexOf("| bob confirmed |") < r.out.indexOf("| alice chose |"), qPrintable(r.out));
        QVERIFY(r.out.contains("node-01's Xid is first in its dmesg"));

        const QString html = dir.filePath("r.html");
        r = cli({"report", result, "--notes", db, "-o", html});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString page = readAll(html);
        const int reviewed = page.indexOf("<p class=\"reviewed\">Reviewed: ATTRIBUTED gpu");
        QVERIFY2(reviewed > 0 && reviewed < page.indexOf("<h1>"), qPrintable(page.left(2000)));
        QVERIFY(page.contains("by alice (engine: AMBIGUOUS)"));
        QVERIFY(page.contains("<h3>Review history</h3>"));
    }

    void help()
    {
        auto r = cli({"review", "--help"});
        QCOMPARE(r.code, 0);
        for (const char* option : {"--confirm", "--choose", "--reason", "--reviewer", "--history", "--db"})
            QVERIFY2(r.out.contains(option), option);
    }
};

QTEST_GUILESS_MAIN(TestReview)
#include "test_review.moc"

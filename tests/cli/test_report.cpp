// `faultline-cli report` as a user runs it (docs/report.md): a sample bundle and a result document give the
// same report; the HTML is one file with its pictures inside; hostile text from logs and notes cannot become
// markup; the workbench's notes file (written here by the workbench's own NotesStore) shows up with its override.
#include "views/store/notesstore.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include "cli_run.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = fl::test::CliRun;
using fl::test::cli;

const QString kSample = QStringLiteral(FAULTLINE_SOURCE_DIR "/samples/xid149-nccl");

QString readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

bool write(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// Outside <pre> and attribute values nothing may open a tag we did not write.
void verifyNoInjectedMarkup(const QString& html)
{
    QVERIFY2(!html.contains("<script", Qt::CaseInsensitive), "a <script> tag reached the page");
    QVERIFY2(!html.contains(QRegularExpression(QStringLiteral("<[^>]*\\son[a-z]+\\s*="),
                                                QRegularExpression::CaseInsensitiveOption)),
             "an event handler attribute reached the page");
    QVERIFY(!html.contains("<img src=x"));
    QVERIFY(!html.contains("<iframe"));
    // Every <img> is ours: a data: URI.
    const QRegularExpression img(QStringLiteral("<img [^>]*src=\"([^\"]*)\""));
    for (auto it = img.globalMatch(html); it.hasNext();)
        QVERIFY2(it.next().captured(1).startsWith("data:image/"), "an <img> loads from outside the page");
}

} // namespace

class TestReport : public QObject {
    Q_OBJECT
private slots:
    void htmlFromABundleIsSelfContained()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("r.html");
        Run r = cli({"report", kSample, "--format", "html", "-o", out});
        QCOMPARE(r.code, 0);
        const QString html = readAll(out);
        QVERIFY(html.startsWith("<!DOCTYPE html>"));
        QVERIFY(html.contains("ATTRIBUTED: nvlink"));
        QVERIFY(html.contains("node-02 GPU 0 rank 2"));
        // The root cause's raw line, verbatim.
        QVERIFY2(html.contains("NVRM: Xid (PCI:0000:41:00): 149, NETIR_MFDE_EVENT"), qPrintable(html.left(3000)));
        // Both pictures inside, nothing fetched from outside.
        QCOMPARE(html.count("src=\"data:image/svg+xml;base64,"), 2);
        QVERIFY(!html.contains("src=\"http"));
        QVERIFY(html.contains("Content-Security-Policy"));
        // The chain graph is Graphviz's SVG of the summarised chain.
        const QRegularExpression data(QStringLiteral("src=\"data:image/svg\\+xml;base64,([^\"]+)\""));
        QStringList svgs;
        for (auto it = data.globalMatch(html); it.hasNext();)
            svgs << QString::fromUtf8(QByteArray::fromBase64(it.next().captured(1).toLatin1()));
        QVERIFY(svgs[0].contains("nvlink.fatal") && svgs[0].contains("nccl.watchdog_timeout"));
        QVERIFY(svgs[1].contains("node-02") && svgs[1].contains("root cause"));
        verifyNoInjectedMarkup(html);
    }

    void resultDocumentGivesTheSameReportAsItsBundle()
    {
        QTemporaryDir dir;
        const QString json = dir.filePath("result.json");
        QCOMPARE(cli({"analyze", kSample, "-o", json}).code, 0);
        Run fromBundle = cli({"report", kSample, "--format", "md"});
        Run fromResult = cli({"report", json, "--format", "md"});
        QCOMPARE(fromBundle.code, 0);
        QCOMPARE(fromResult.code, 0);
        // Only the Source line differs.
        auto withoutSource = [](QString s) { return s.remove(QRegularExpression("\\| Source \\|[^\n]*\n")); };
        QCOMPARE(withoutSource(fromResult.out), withoutSource(fromBundle.out));
        QVERIFY(fromResult.out.contains("## Candidates"));
        QVERIFY(fromResult.out.contains("```text\nMar 14 10:00:41 node-02 kernel:"));
    }

    void markdownWritesItsPicturesBeside()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("postmortem.md");
        QCOMPARE(cli({"report", kSample, "-o", out}).code, 0);
        const QString md = readAll(out);
        QVERIFY(md.contains("![") && md.contains("(<postmortem-chain.svg>)") && md.contains("(<postmortem-timeline.svg>)"));
        QVERIFY(readAll(dir.filePath("postmortem-chain.svg")).contains("<svg"));
        QVERIFY(readAll(dir.filePath("postmortem-timeline.svg")).contains("<svg"));
        // -o FILE.html picks HTML without --format.
        QCOMPARE(cli({"report", kSample, "-o", dir.filePath("x.html")}).code, 0);
        QVERIFY(readAll(dir.filePath("x.html")).startsWith("<!DOCTYPE html>"));
    }

    void hostileTextNeverBecomesMarkup()
    {
        QTemporaryDir dir;
        const QString json = dir.filePath("result.json");
        QCOMPARE(cli({"analyze", kSample, "-o", json}).code, 0);
        QJsonObject doc = QJsonDocument::fromJson(readAll(json).toUtf8()).object();
        const QString evil = QStringLiteral("<script>alert(1)</script><img src=x onerror=alert(2)>\"'&`\x01");
        const QString fence = QStringLiteral("\n```\n# not a heading </pre><script>alert(3)</script>\n````\n");
        doc["summary"] = evil;
        QJsonObject rc = doc["root_cause"].toObject();
        rc["node"] = evil;
        rc["title"] = evil;
        doc["root_cause"] = rc;
        QJsonArray ev = doc["evidence"].toArray();
        for (int i = 0; i < ev.size(); ++i) {
            QJsonObject e = ev[i].toObject();
            e["excerpt"] = evil + fence;
            e["node"] = evil;  // the timeline's lanes
            ev[i] = e;
        }
        doc["evidence"] = ev;
        QJsonObject chain = doc["symptom_chain"].toObject();
        QJsonArray families = chain["families"].toArray();
        QVERIFY(!families.isEmpty());
        for (int i = 0; i < families.size(); ++i) {
            QJsonObject f = families[i].toObject();
            f["nodes"] = evil;
            f["ranks"] = evil;
            f["symptom"] = evil;
            families[i] = f;
        }
        chain["families"] = families;
        doc["symptom_chain"] = chain;
        QVERIFY(write(json, QJsonDocument(doc).toJson()));

        Run html = cli({"report", json, "--format", "html"});
        QCOMPARE(html.code, 0);
        verifyNoInjectedMarkup(html.out);
        QVERIFY(html.out.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        QVERIFY(html.out.contains("&lt;/pre&gt;"));
        QVERIFY(!html.out.contains(QChar(1)));
        // The pictures escape it too: their text is XML-escaped inside the SVG.
        const QRegularExpression data(QStringLiteral("src=\"data:image/svg\\+xml;base64,([^\"]+)\""));
        int pictures = 0;
        for (auto it = data.globalMatch(html.out); it.hasNext(); ++pictures) {
            const QString svg = QString::fromUtf8(QByteArray::fromBase64(it.next().captured(1).toLatin1()));
            QVERIFY2(!svg.contains("<script"), qPrintable(svg.left(2000)));
            QVERIFY(!svg.contains("<img"));
        }
        QCOMPARE(pictures, 2);

        Run md = cli({"report", json, "--format", "md"});
        QCOMPARE(md.code, 0);
        // In prose every markup character is escaped ...
        QVERIFY(md.out.contains("\\<script\\>alert(1)\\</script\\>\\<img src=x onerror=alert(2)\\>"));
        // ... and a raw line cannot close its fence: the fence is longer than any backtick run in it.
        QVERIFY2(md.out.contains("`````text\n<script>"), qPrintable(md.out));
        QVERIFY(md.out.contains("````\n\n`````\n"));  // the raw line's own fence, then ours closing
    }

    void notesAndOverrideFromTheWorkbenchNotesFile()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath("notes.sqlite");
        {
            fl::NotesStore store;
            QVERIFY2(store.openFile(db), qPrintable(store.error()));
            QVERIFY(store.setNote(fl::NotesStore::kEvidence, "ev-00019", "<b>seen before</b> on this board",
                                  "syslog-node-02.log", 4));
            QVERIFY(store.setNote(fl::NotesStore::kLane, "node-03", "rank 5 was slow"));
            QVERIFY(store.addBookmark("applog-node-01-rank0.log", 12, "first timeout"));
            fl::VerdictOverride o;
            o.status = "attributed";
            o.domain = "gpu";
            o.subDomain = "gpu_lost";
            o.rootNode = "node-02";
            o.reason = "RMA ticket 4711 <confirmed>";
            QVERIFY(store.setVerdictOverride(o));
        }
        Run r = cli({"report", kSample, "--format", "html", "--notes", db});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("Reviewer's override"));
        QVERIFY(r.out.contains("RMA ticket 4711 &lt;confirmed&gt;"));
        QVERIFY(r.out.contains("gpu / gpu_lost"));
        QVERIFY(r.out.contains("&lt;b&gt;seen before&lt;/b&gt; on this board"));
        QVERIFY(r.out.contains("evidence ev-00019 (syslog-node-02.log:4)"));
        QVERIFY(r.out.contains("lane node-03"));
        QVERIFY(r.out.contains("bookmark applog-node-01-rank0.log:12"));
        QVERIFY(r.out.contains("first timeout"));
        QCOMPARE(cli({"report", kSample, "--notes", db, "--no-notes"}).code, 2);  // one or the other
    }

    void badInputIsAnErrorNamingIt()
    {
        QTemporaryDir dir;
        const QString notJson = dir.filePath("broken.json");
        QVERIFY(write(notJson, "{\"schema_version\": \"1.0\", \"status\": "));
        Run r = cli({"report", notJson});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("broken.json") && r.err.contains("not valid JSON"), qPrintable(r.err));

        const QString other = dir.filePath("other.json");
        QVERIFY(write(other, "{\"hello\": 1}"));
        r = cli({"report", other});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("other.json") && r.err.contains("not a Faultline result"), qPrintable(r.err));

        const QString notes = dir.filePath("notes.sqlite");
        QVERIFY(write(notes, "this is not SQLite"));
        r = cli({"report", kSample, "--notes", notes});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("notes.sqlite"), qPrintable(r.err));

        r = cli({"report", kSample, "--format", "pdf"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--format"), qPrintable(r.err));
        r = cli({"report", dir.filePath("no-such-bundle")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("no-such-bundle"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestReport)
#include "test_report.moc"

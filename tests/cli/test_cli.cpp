// faultline-cli as a user runs it: exit codes, messages that name the file,
// the text diagnosis, inspect, validate-rules and synth -> analyze round trip.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run {
    int code = -1;
    QString out;
    QString err;
};

Run cli(const QStringList& args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_CONFIG_HOME", "/nonexistent-faultline-test"); // no user rules
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(FAULTLINE_CLI), args);
    if (!p.waitForFinished(300000))
        return {};
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

const QString kSamples = QStringLiteral(FAULTLINE_SOURCE_DIR "/samples/");

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void analyzeTextNamesTheRootCause()
    {
        Run r = cli({"analyze", kSamples + "xid149-nccl", "--text"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("ATTRIBUTED"), qPrintable(r.out));
        QVERIFY(r.out.contains("node-02 GPU 0"));
        QVERIFY(r.out.contains("syslog-node-02.log:4"));
    }
    void unattributedStillExitsZero()
    {
        Run r = cli({"analyze", kSamples + "unattributed-timeouts"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("\"status\": \"unattributed\""));
    }
    void explainShowsEveryPhase()
    {
        Run r = cli({"analyze", kSamples + "nvlink-signal-integrity", "--explain"});
        QCOMPARE(r.code, 0);
        for (const char* phase : {"[EXTRACT]", "[FILTER.EARLY]", "[REFINE.FINAL]", "[OUTCOME]", "[REPORT]"})
            QVERIFY2(r.out.contains(phase), phase);
        QVERIFY(r.out.contains("nvlink.decode.signal-integrity"));
    }
    void missingBundleIsAnErrorNamingIt()
    {
        Run r = cli({"analyze", "/no/such/bundle.tar.gz"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("/no/such/bundle.tar.gz"), qPrintable(r.err));
    }
    void badUsageIsExplained()
    {
        Run r = cli({"analyze"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("usage"));
        QCOMPARE(cli({"frobnicate"}).code, 2);
    }
    void validateRulesNamesFileAndLine()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath("mine.jsonc"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\n  \"rules\": [\n    {\"id\": \"mine.x\", \"phase\": \"extract\", \"pattern\": \"(\", \"emit\": {\"symptom\": \"a\"}}\n  ]\n}\n");
        f.close();
        Run r = cli({"validate-rules", dir.path()});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("mine.jsonc:3:") && r.err.contains("mine.x"), qPrintable(r.err));
        QCOMPARE(cli({"validate-rules", QStringLiteral(FAULTLINE_SOURCE_DIR "/rules")}).code, 0);
    }
    void inspectListsCoverage()
    {
        Run r = cli({"inspect", kSamples + "ambiguous-two-faults"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("4 nodes"));
        QVERIFY(r.out.contains("syslog-node-03.log"));
        QVERIFY(r.out.contains("README.md"));
    }
    void synthThenAnalyzeFindsTheInjectedFault()
    {
        QTemporaryDir dir;
        Run s = cli({"synth", dir.filePath("b"), "--fault", "xid48", "--nodes", "4", "--iterations", "20"});
        QCOMPARE(s.code, 0);
        QFile truth(dir.filePath("b/truth.json"));
        QVERIFY(truth.open(QIODevice::ReadOnly));
        const QJsonObject t = QJsonDocument::fromJson(truth.readAll()).object();
        Run a = cli({"analyze", dir.filePath("b")});
        QCOMPARE(a.code, 0);
        const QJsonObject r = QJsonDocument::fromJson(a.out.toUtf8()).object();
        QCOMPARE(r["status"].toString(), QStringLiteral("attributed"));
        QCOMPARE(r["root_cause"].toObject()["node"].toString(), t["culprit_node"].toString());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"

// faultline-cli as a user runs it: exit codes, messages that name the file,
// the text diagnosis, inspect, validate-rules and synth -> analyze round trip.
#include "cli_run.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = fl::test::CliRun;
using fl::test::cli;

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
        // --coverage: families by the origin of the messages, domains, and no rule without samples.
        Run c = cli({"validate-rules", "--coverage", QStringLiteral(FAULTLINE_SOURCE_DIR "/rules")});
        QCOMPARE(c.code, 0);
        QVERIFY2(c.out.contains("families (origin of the messages):") && c.out.contains("NVIDIA/nccl") &&
                     c.out.contains("domains (of the symptoms the samples yield):") && !c.out.contains("(no source)") &&
                     !c.out.contains("warning: no \"samples\""),
                 qPrintable(c.out));
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

    // CLI conventions (issue #13): --help per command with every option, usage errors exit 2 naming the option.
    void everyCommandHasHelpNamingEveryOption_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::newRow("analyze") << QStringList{"--json", "--text", "--explain", "--rules", "--no-user-rules",
                                                "--output", "--timing", "BUNDLE"};
        QTest::newRow("inspect") << QStringList{"--json", "BUNDLE"};
        QTest::newRow("validate-rules") << QStringList{"--patterns", "DIR"};
        QTest::newRow("synth") << QStringList{"--fault", "--nodes", "--gpus", "--seed", "--skew", "--iterations",
                                              "--noise", "--app-logs-only", "--missing", "--start", "--list-faults"};
        QTest::newRow("eval") << QStringList{"--json", "--rules", "DIR"};
        QTest::newRow("report") << QStringList{"--format", "--output", "--notes", "--no-notes", "--rules",
                                               "--no-user-rules", "INPUT"};
    }
    void everyCommandHasHelpNamingEveryOption()
    {
        QFETCH(QStringList, options);
        const QString cmd = QString::fromLatin1(QTest::currentDataTag());
        Run r = cli({cmd, "--help"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("usage: faultline-cli " + cmd), qPrintable(r.out));
        for (const QString& o : options)
            QVERIFY2(r.out.contains(o), qPrintable(cmd + " --help lacks " + o + ":\n" + r.out));
        QCOMPARE(cli({"help", cmd}).out, r.out);

        Run bad = cli({cmd, "--no-such-option", kSamples + "xid149-nccl"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("--no-such-option") && bad.err.contains("usage: faultline-cli " + cmd),
                 qPrintable(bad.err));
        QVERIFY(bad.out.isEmpty());
    }
    void topLevelHelpVersionAndUnknownCommand()
    {
        Run help = cli({"--help"});
        QCOMPARE(help.code, 0);
        for (const char* cmd : {"analyze", "inspect", "validate-rules", "synth", "eval"})
            QVERIFY2(help.out.contains(cmd), cmd);
        Run v = cli({"--version"});
        QCOMPARE(v.code, 0);
        QVERIFY2(v.out.startsWith("faultline-cli 0.") || v.out.startsWith("faultline-cli 1."), qPrintable(v.out));
        Run unknown = cli({"frobnicate"});
        QCOMPARE(unknown.code, 2);
        QVERIFY(unknown.err.contains("unknown command 'frobnicate'"));
        QCOMPARE(cli({"analyze", "--output"}).code, 2);  // option without its value
        QCOMPARE(cli({"synth", "/tmp/x", "--nodes", "many"}).code, 2);
    }
    void rulesOptionRepeatsAndKeepsThePositional()
    {
        const QString rules = QStringLiteral(FAULTLINE_SOURCE_DIR "/rules");
        Run r = cli({"analyze", "--rules", rules, "--rules", rules, kSamples + "xid149-nccl", "--text"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("ATTRIBUTED"), qPrintable(r.err));
    }
    void bashCompletionCompletesCommandsAndOptions()
    {
        Run script = cli({"--bash-completion"});
        QCOMPARE(script.code, 0);
        QTemporaryDir dir;
        QFile f(dir.filePath("faultline-cli"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(script.out.toUtf8());
        f.close();
        // Complete as bash would: the words typed so far, the index of the one under the cursor.
        auto complete = [&](const QString& words, int cword) {
            QProcess bash;
            bash.start("bash", {"-c", QStringLiteral("source '%1' && COMP_WORDS=(%2) && COMP_CWORD=%3 && "
                                                     "_faultline_cli && echo \"${COMPREPLY[*]}\"")
                                          .arg(f.fileName(), words)
                                          .arg(cword)});
            bash.waitForFinished();
            return QString::fromUtf8(bash.readAllStandardOutput()).trimmed();
        };
        QCOMPARE(complete("faultline-cli an", 1), QStringLiteral("analyze"));
        QCOMPARE(complete("faultline-cli validate-rules --pa", 2), QStringLiteral("--patterns"));
        QCOMPARE(complete("faultline-cli analyze --no-", 2), QStringLiteral("--no-user-rules"));
        QCOMPARE(complete("faultline-cli synth --app", 2), QStringLiteral("--app-logs-only"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"

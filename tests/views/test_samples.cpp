// SPDX-License-Identifier: MIT
// The workbench on the repository's sample bundles, through the real engine:
// what the views show must agree with the engine's result.
#include "views/chain/chainlayout.h"
#include "views/workbench/workbenchview.h"

#include <QDir>
#include <QTableView>
#include <QTest>

using namespace fl;

class TestSamples : public QObject
{
    Q_OBJECT
private slots:
    void sample_data()
    {
        QTest::addColumn<QString>("name");
        const QDir dir(QStringLiteral(FAULTLINE_SOURCE_DIR "/samples"));
        const auto entries = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        for (const QString& e : entries)
            QTest::newRow(qPrintable(e)) << dir.filePath(e);
        if (entries.isEmpty())
            QTest::newRow("none") << QString();
    }

    void sample()
    {
        QFETCH(QString, name);
        if (name.isEmpty())
            QSKIP("no samples in this checkout");
        std::shared_ptr<const Analysis> a;
        try {
            a = std::make_shared<const Analysis>(analyze(name.toStdString(), AnalyzeOptions{}));
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        WorkbenchView w;
        w.resize(1600, 1000);
        w.setAnalysis(a);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const Result& r = a->result;
        QVERIFY(w.verdict()->statusText().startsWith(QString::fromUtf8(std::string(toString(r.status))).toUpper()));
        const TimelineLanes& lanes = w.timeline()->view()->lanes();
        if (r.rootCause) {
            QVERIFY(lanes.rootLane() >= 0);
            QCOMPARE(lanes.lane(lanes.rootLane()).node, r.rootCause->node);
            // The root's evidence is open in the raw viewer at its line.
            QVERIFY(w.focus()->current().evidence.has_value());
        } else if (r.status == ResultStatus::Ambiguous) {
            QVERIFY(w.explanation()->sideBySideCount() >= 2);
        }
        // Every evidence item opens its own file at its own line.
        for (const EvidenceItem& e : r.evidence) {
            w.focus()->selectEvidence(e.id, e.event);
            QVERIFY(e.ref.file.value < a->bundle.files.size());
            QCOMPARE(w.raw()->view()->displayName(), QString::fromStdString(a->bundle.files[e.ref.file.value].path));
            QCOMPARE(w.raw()->view()->currentLine(), uint64_t(e.ref.line));
        }
        // Every family of the chain has a box (up to the cap), and the root cause has one.
        QVERIFY(w.chain()->nodeItemCount() >= int(std::min(w.chain()->families().families.size(), kMaxChainNodes)));
        if (r.rootCause)
            QVERIFY(w.chain()->itemForEvent(r.rootCause->event));
        QDir().mkpath(QStringLiteral(FAULTLINE_BINARY_DIR "/screenshots"));
        QVERIFY(w.grab().save(QStringLiteral(FAULTLINE_BINARY_DIR "/screenshots/sample-%1.png").arg(QFileInfo(name).fileName())));
    }
};

QTEST_MAIN(TestSamples)
#include "test_samples.moc"

// SPDX-License-Identifier: MIT
#include "viewfixture.h"
#include "views/verdict/explanationpanel.h"
#include "views/timeline/metricspanel.h"
#include "views/verdict/verdictpanel.h"
#include "present/would_decide.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <qcustomplot.h>

using namespace fl;

class TestPanels : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void verdictAttributed()
    {
        auto a = test::makeIncident(m_dir.filePath(QStringLiteral("a")));
        FocusState focus;
        VerdictPanel v(&focus);
        v.setAnalysis(a);
        QVERIFY(v.statusText().startsWith(QStringLiteral("ATTRIBUTED")));
        const QString text = v.verdictText();
        QVERIFY(text.contains(QStringLiteral("GPU fell off the bus (Xid 79)")));
        QVERIFY(text.contains(QStringLiteral("node02")));
        QVERIFY(text.contains(QStringLiteral("2024-05-01 12:34:56.000 UTC")));
        QVERIFY(text.contains(QStringLiteral("gpu / pcie")));
        QVERIFY(text.contains(QStringLiteral("Fabric Manager log for node02")));
        QVERIFY(!text.contains(QStringLiteral("ambiguous")));
        // Coverage: one row per connector report, unrecognised files say why.
        QAbstractItemModel* cov = v.coverage()->model();
        QCOMPARE(cov->rowCount(), int(a->result.connectors.size()));
        bool sawUnrecognized = false;
        for (int r = 0; r < cov->rowCount(); ++r)
            if (cov->index(r, CoverageModel::StatusColumn).data().toString() == QStringLiteral("unrecognized"))
                sawUnrecognized = cov->index(r, CoverageModel::ReasonColumn).data().toString().contains(QStringLiteral("no known log shape"));
        QVERIFY(sawUnrecognized);
        // Filter by status, then by text; sort by observations.
        v.coverageStatus()->setCurrentIndex(v.coverageStatus()->findData(int(FileStatus::Unrecognized)));
        QVERIFY(cov->rowCount() >= 1);
        for (int r = 0; r < cov->rowCount(); ++r)
            QCOMPARE(cov->index(r, CoverageModel::StatusColumn).data().toString(), QStringLiteral("unrecognized"));
        v.coverageStatus()->setCurrentIndex(0);
        v.coverageFilter()->setText(QStringLiteral("NODE02"));
        QVERIFY(cov->rowCount() >= 1 && cov->rowCount() < int(a->result.connectors.size()));
        for (int r = 0; r < cov->rowCount(); ++r)
            QVERIFY(cov->index(r, CoverageModel::FileColumn).data().toString().contains(QStringLiteral("node02"))
                    || cov->index(r, CoverageModel::NodeColumn).data().toString().contains(QStringLiteral("node02")));
        v.coverageFilter()->clear();
        v.coverage()->sortByColumn(CoverageModel::ObservationsColumn, Qt::DescendingOrder);
        for (int r = 1; r < cov->rowCount(); ++r)
            QVERIFY(cov->index(r - 1, CoverageModel::ObservationsColumn).data().toULongLong()
                    >= cov->index(r, CoverageModel::ObservationsColumn).data().toULongLong());
    }

    // 1,250 affected nodes: a count and ranges, the names only on "show all".
    void affectedNodesSummarised()
    {
        auto a = test::makeIncident(m_dir.filePath(QStringLiteral("f")));
        a->result.affectedNodes.clear();
        for (int n = 1; n <= 1250; ++n)
            if (n != 979) {
                char name[32];
                std::snprintf(name, sizeof name, "node-%04d", n);
                a->result.affectedNodes.push_back(name);
            }
        a->result.affectedNodes.push_back("gpu-login");
        FocusState focus;
        VerdictPanel v(&focus);
        v.setAnalysis(a);
        QString text = v.verdictText();
        QVERIFY2(text.contains(QStringLiteral("Affected nodes (1,250): gpu-login,node-[0001-0978,0980-1250] show all 1250")),
                 qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("node-0500")));
        v.setShowAllNodes(true);
        text = v.verdictText();
        QVERIFY(text.contains(QStringLiteral("node-0500, node-0501")));
        v.setShowAllNodes(false);
        QVERIFY(!v.verdictText().contains(QStringLiteral("node-0500")));
    }

    void verdictAmbiguous()
    {
        auto a = test::makeIncident(m_dir.filePath(QStringLiteral("b")), true);
        FocusState focus;
        VerdictPanel v(&focus);
        v.setAnalysis(a);
        QVERIFY(v.statusText().startsWith(QStringLiteral("AMBIGUOUS")));
        QVERIFY(v.verdictText().contains(QStringLiteral("(ambiguous)")));
        QVERIFY(v.verdictText().contains(QStringLiteral("tied with gpu.xid.63 on node03 GPU 0 (1.500 s apart")));

        ExplanationPanel e(&focus);
        e.setAnalysis(a);
        QCOMPARE(e.sideBySideCount(), 2);
        // Each contender's place is written by core/present, rank included, as everywhere else.
        QStringList sides;
        for (const QGroupBox* box : e.findChildren<QGroupBox*>())
            for (const QLabel* l : box->findChildren<QLabel*>())
                sides << l->text();
        QVERIFY2(sides.join(QLatin1Char('|')).contains(QStringLiteral("<br>node02 GPU 3 rank 7<br>")), qPrintable(sides.join(QLatin1Char('|'))));
        QCOMPARE(e.candidateModel()->rowCount(), 2);
        // Clicking a candidate selects its event.
        e.candidates()->clicked(e.candidateModel()->index(1, 0));
        QCOMPARE(focus.current().event, std::optional<EventId>(a->result.candidates[1].event));
        // Its why-sentence too, spanning the row.
        const QModelIndex why = e.candidateModel()->index(0, 0, e.candidateModel()->index(0, 0));
        QVERIFY(e.candidates()->isFirstColumnSpanned(0, why.parent()));
        QVERIFY(why.data().toString().startsWith(QStringLiteral("→ ")));
        e.candidates()->clicked(why);
        QCOMPARE(focus.current().event, std::optional<EventId>(a->result.candidates[0].event));
    }

    // The ambiguous sample's Explanation says what would decide between its tied candidates (issue #45 item 2), in
    // the words core/present writes for the Verdict tab and the reports; an attributed result has no such list.
    void explanationSaysWhatWouldDecide()
    {
        const auto a = test::ambiguousSample();
        QVERIFY(a->result.status == ResultStatus::Ambiguous);
        const std::vector<std::string> lines = present::wouldDecideLines(a->result);
        QVERIFY(!lines.empty());
        FocusState focus;
        ExplanationPanel e(&focus);
        e.resize(480, 1000);
        e.setAnalysis(a);
        QVERIFY(e.decideLabel()->isVisibleTo(&e));
        const QString text = e.decideLabel()->text();
        QVERIFY2(text.contains(QString::fromStdString(present::missingHeading(a->result)).toHtmlEscaped()), qPrintable(text));
        for (const std::string& line : lines)
            QVERIFY2(text.contains(QString::fromStdString(line).toHtmlEscaped()), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("node-01")) && text.contains(QStringLiteral("node-03")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("UTC")), qPrintable(text));

        e.setAnalysis(test::makeIncident(m_dir.filePath(QStringLiteral("wd"))));
        QVERIFY(!e.decideLabel()->isVisibleTo(&e));
        QVERIFY(e.decideLabel()->text().isEmpty());
    }

    void unattributed()
    {
        auto a = test::makeIncident(m_dir.filePath(QStringLiteral("c")));
        a->result.status = ResultStatus::Unattributed;
        a->result.rootCause.reset();
        FocusState focus;
        VerdictPanel v(&focus);
        v.setAnalysis(a);
        QVERIFY(v.statusText().startsWith(QStringLiteral("UNATTRIBUTED")));
        QVERIFY(v.verdictText().contains(QStringLiteral("Missing evidence")));
    }

    void explanationRulesByPhase()
    {
        auto a = test::makeIncident(m_dir.filePath(QStringLiteral("d")));
        FocusState focus;
        ExplanationPanel e(&focus);
        e.setAnalysis(a);
        QCOMPARE(e.sideBySideCount(), 0);
        const ExplanationModel* t = e.ruleModel();
        QStringList phases;
        for (int i = 0; i < t->rowCount(); ++i)
            phases << t->index(i, 0).data().toString();
        QCOMPARE(phases, (QStringList{QStringLiteral("extract"), QStringLiteral("filter.late"),
                                      QStringLiteral("refine.final"), QStringLiteral("outcome")}));
        // extract: two rules fired + one trace step.
        QCOMPARE(t->rowCount(t->index(0, 0)), 3);
        QVERIFY(e.rules()->isExpanded(t->index(0, 0)));
    }

    void metricsFollowFocus()
    {
        auto a = test::makeIncident(m_dir.filePath(QStringLiteral("e")));
        FocusState focus;
        MetricsPanel m(&focus);
        m.setAnalysis(a);
        QCOMPARE(m.plotCount(), 2);  // GPU temperature and utilisation
        QCustomPlot* p = m.plot(0);
        QCOMPARE(p->graphCount(), test::kNodes * 4);
        // The root GPU's series is drawn thickest.
        double widest = 0;
        QString widestName;
        for (int i = 0; i < p->graphCount(); ++i)
            if (p->graph(i)->pen().widthF() > widest) {
                widest = p->graph(i)->pen().widthF();
                widestName = p->graph(i)->name();
            }
        QCOMPARE(widestName, QStringLiteral("node02 gpu3"));
        focus.setTimeWindow(test::kRootTimeNs, test::kRootTimeNs + 60'000'000'000);
        QCOMPARE(p->xAxis->range().lower, test::kRootTimeNs / 1e9);
        QCOMPARE(m.plot(1)->xAxis->range().upper, test::kRootTimeNs / 1e9 + 60);
        // Panning a plot moves the shared window.
        p->xAxis->moveRange(10);
        QCOMPARE(focus.current().startNs, test::kRootTimeNs + 10'000'000'000);
        QCOMPARE(m.plot(1)->xAxis->range().lower, test::kRootTimeNs / 1e9 + 10);
    }

    // The workbench keeps metric series without their samples; the panel reads
    // the samples of the series it draws from their files, and draws the same
    // points as from an analysis that kept them.
    void metricsReadFromTheirFilesWhenNotKept()
    {
        const QString dir = m_dir.filePath(QStringLiteral("metrics-bundle"));
        QVERIFY(QDir().mkpath(dir));
        auto write = [&](const QString& name, const std::string& text) {
            QFile f(dir + QLatin1Char('/') + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text.data(), qint64(text.size()));
        };
        std::string csv = "time,node,gpu,metric,value\n";
        for (int t = 0; t < 40; ++t)
            for (int g = 0; g < 2; ++g)
                csv += "2026-03-14T10:00:" + std::string(t < 10 ? "0" : "") + std::to_string(t) + "Z,node01,"
                     + std::to_string(g) + ",gpu_temp_c," + std::to_string(40 + t * (g + 1)) + "\n";
        write(QStringLiteral("metrics-node01.csv"), csv);
        write(QStringLiteral("syslog-node01.log"), "Mar 14 10:00:05 node01 kernel: [ 100.000000] hello\n");
        AnalyzeOptions kept, notKept;
        kept.userConfigRules = notKept.userConfigRules = false;
        notKept.keepMetricSamples = false;
        auto a = std::make_shared<const Analysis>(analyze(dir.toStdString(), kept));
        auto b = std::make_shared<const Analysis>(analyze(dir.toStdString(), notKept));
        QCOMPARE(b->metrics.size(), size_t(2));
        QVERIFY(b->metrics[0].samples.empty());
        FocusState focus;
        MetricsPanel withSamples(&focus), withoutSamples(&focus);
        withSamples.setAnalysis(a);
        withoutSamples.setAnalysis(b);
        QCOMPARE(withoutSamples.plotCount(), 1);
        QCOMPARE(withoutSamples.plot(0)->graphCount(), 2);
        for (int i = 0; i < 2; ++i) {
            const auto* want = withSamples.plot(0)->graph(i)->data().data();
            const auto* got = withoutSamples.plot(0)->graph(i)->data().data();
            QCOMPARE(got->size(), 40);
            QCOMPARE(got->size(), want->size());
            for (int k = 0; k < got->size(); ++k) {
                QCOMPARE(got->at(k)->key, want->at(k)->key);
                QCOMPARE(got->at(k)->value, want->at(k)->value);
            }
        }
    }
};

QTEST_MAIN(TestPanels)
#include "test_panels.moc"

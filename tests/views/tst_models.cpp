// SPDX-License-Identifier: MIT
// Every item model of the views under QAbstractItemModelTester (Hotspot's
// tests/modeltests/tst_models.cpp): the tester checks the model's contract on
// every reset, filter and sort, and fails the test on the first violation.
#include "viewfixture.h"
#include "views/coveragemodel.h"
#include "views/evidencemodel.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QTest>

using namespace fl;

class TestModels : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::shared_ptr<Analysis> m_analysis;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_analysis = test::makeIncident(m_dir.path());
    }

    void evidenceModel()
    {
        EvidenceModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setAnalysis(m_analysis);
        QCOMPARE(model.rowCount(), int(m_analysis->result.evidence.size()));
        model.setNotes({{QStringLiteral("ev-00001"), QStringLiteral("checked")}}, {});
        model.setAnalysis(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void evidenceProxy()
    {
        EvidenceModel model;
        EvidenceFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setAnalysis(m_analysis);
        proxy.setRole(int(EvidenceRole::Root));
        QVERIFY(proxy.rowCount() >= 1);
        proxy.setRole(-1);
        proxy.setText(QStringLiteral("watchdog"));
        proxy.sort(EvidenceModel::TimeColumn, Qt::DescendingOrder);
        proxy.setText({});
        QCOMPARE(proxy.rowCount(), model.rowCount());
    }

    void coverageModelAndProxy()
    {
        CoverageModel model;
        CoverageFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester t1(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReports(m_analysis->result.connectors);
        QCOMPARE(model.rowCount(), int(m_analysis->result.connectors.size()));
        proxy.sort(CoverageModel::ObservationsColumn, Qt::DescendingOrder);
        proxy.setStatus(int(FileStatus::Unrecognized));
        QVERIFY(proxy.rowCount() >= 1);
        QVERIFY(proxy.rowCount() < model.rowCount());
        proxy.setStatus(-1);
        proxy.setText(QStringLiteral("no-such-file"));
        QCOMPARE(proxy.rowCount(), 0);
        proxy.setText({});
        model.setReports({});
        QCOMPARE(proxy.rowCount(), 0);
    }
};

QTEST_MAIN(TestModels)
#include "tst_models.moc"

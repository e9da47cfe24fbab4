// SPDX-License-Identifier: MIT
// Every item model of the views under QAbstractItemModelTester (Hotspot's
// tests/modeltests/tst_models.cpp): the tester checks the model's contract on
// every reset, filter and sort, and fails the test on the first violation.
#include "viewfixture.h"
#include "views/models/coveragemodel.h"
#include "views/models/evidencemodel.h"
#include "views/models/explanationmodel.h"
#include "views/models/phasestepmodel.h"
#include "views/models/timelinelanemodel.h"

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

    // The timeline's lanes as a tree: node lanes at the top, rank lanes under them, found by key in O(1).
    void timelineLaneModel()
    {
        TimelineLaneModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto lanes = std::make_shared<TimelineLanes>();
        lanes->build(m_analysis->result);
        model.setLanes(lanes);
        QCOMPARE(model.rowCount(), test::kNodes);
        int ranks = 0;
        for (int r = 0; r < model.rowCount(); ++r)
            ranks += model.rowCount(model.index(r, 0));
        QCOMPARE(ranks, test::kRanks);
        for (int i = 0; i < lanes->laneCount(); ++i) {
            const QModelIndex idx = model.indexOfKey(lanes->lane(i).key);
            QVERIFY(idx.isValid());
            QCOMPARE(idx.data(TimelineLaneModel::LaneIndexRole).toInt(), i);
            QCOMPARE(idx.data(TimelineLaneModel::LaneKeyRole).toString(), lanes->lane(i).key);
            QCOMPARE(idx.parent().isValid(), lanes->lane(i).parent >= 0);
        }
        QVERIFY(!model.indexOfKey(QStringLiteral("no-such-node")).isValid());
        // The root cause's lane is marked, and its worst mark is the root's.
        const QModelIndex root = model.indexOfKey(lanes->lane(lanes->rootLane()).key);
        QVERIFY(root.data(TimelineLaneModel::RootRole).toBool());
        QCOMPARE(root.data(TimelineLaneModel::WorstLevelRole).toInt(), int(style::Root));
        model.setLanes(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    // The Teach tab's steps: one row a phase in engine order, counts per kind of change, found by name.
    void phaseStepModel()
    {
        PhaseStepModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        PhaseSteps steps;
        steps.build(*m_analysis);
        model.setSteps(steps);
        QCOMPARE(model.rowCount(), steps.count());
        QVERIFY(model.rowCount() > 0);
        QCOMPARE(model.columnCount(), int(PhaseStepModel::FirstChangeColumn) + int(PhaseSteps::ChangeCount));
        for (int i = 0; i < steps.count(); ++i) {
            const PhaseSteps::Step& s = steps.step(i);
            QCOMPARE(model.rowOfPhase(s.phase), i);
            QCOMPARE(model.index(i, PhaseStepModel::PhaseColumn).data().toString(), s.phase);
            for (int c = 0; c < PhaseSteps::ChangeCount; ++c)
                QCOMPARE(model.index(i, PhaseStepModel::FirstChangeColumn + c).data().toInt(),
                         int(s.events[size_t(c)].size()));
        }
        QCOMPARE(model.rowOfPhase(QStringLiteral("no-such-phase")), -1);
        model.setSteps(PhaseSteps{});
        QCOMPARE(model.rowCount(), 0);
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

    // Candidates: one row each with its why-sentence as the only child; the
    // chosen one bold; every row selects the candidate's event.
    void candidateModel()
    {
        ExplanationModel model({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d")});
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Result& r = m_analysis->result;
        QVERIFY(!r.candidates.empty());
        model.setRows(candidateRows(r));
        QCOMPARE(model.rowCount(), int(r.candidates.size()));
        for (int i = 0; i < model.rowCount(); ++i) {
            const QModelIndex row = model.index(i, 0);
            const Candidate& c = r.candidates[size_t(i)];
            QCOMPARE(model.rowCount(row), 1);
            QCOMPARE(model.eventAt(row), std::optional<EventId>(c.event));
            QCOMPARE(model.eventAt(model.index(0, 0, row)), std::optional<EventId>(c.event));
            QCOMPARE(row.data(ExplanationModel::EventRole).toULongLong(), qulonglong(c.event.value));
            QCOMPARE(row.data(Qt::FontRole).isValid(), c.chosen);
            QCOMPARE(model.index(0, 0, row).parent(), row);
            QCOMPARE(model.rowCount(model.index(0, 0, row)), 0);  // two levels only
        }
        model.setRows({});
        QCOMPARE(model.rowCount(), 0);
    }

    // Trace: phases in the order they ran, rules fired then steps under each;
    // a step selects its first event, a phase row selects nothing.
    void traceModel()
    {
        ExplanationModel model({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d")});
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(traceRows(*m_analysis));
        QVERIFY(model.rowCount() >= 1);
        int steps = 0, rules = 0;
        for (int i = 0; i < model.rowCount(); ++i) {
            const QModelIndex phase = model.index(i, 0);
            QVERIFY(!model.eventAt(phase));
            for (int j = 0; j < model.rowCount(phase); ++j) {
                const QModelIndex child = model.index(j, 0, phase);
                if (child.data().toString().startsWith(QStringLiteral("↳ ")))
                    ++steps;
                else
                    ++rules;
            }
        }
        QCOMPARE(steps, int(m_analysis->trace.size()));
        QCOMPARE(rules, int(m_analysis->result.rulesFired.size()));
        // A second analysis replaces the rows in one reset.
        model.setRows(traceRows(Analysis{}));
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestModels)
#include "test_models.moc"

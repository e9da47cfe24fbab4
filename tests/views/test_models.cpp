// SPDX-License-Identifier: MIT
// Every item model of the views under QAbstractItemModelTester (Hotspot's
// tests/modeltests/tst_models.cpp): the tester checks the model's contract on
// every reset, filter and sort, and fails the test on the first violation.
#include "viewfixture.h"
#include "views/models/coveragemodel.h"
#include "views/models/evidencemodel.h"
#include "views/models/explanationmodel.h"
#include "views/models/phasestepmodel.h"
#include "views/models/sessionlistmodel.h"
#include "views/models/timelinelanemodel.h"
#include "views/timeline/timelinelanedelegate.h"

#include <QImage>
#include <QPainter>

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QFont>
#include <QSignalSpy>
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
        // Notes are a role; a changed note is a dataChanged of its lane's row only.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        const QString key = lanes->lane(0).key;
        model.setLaneNotes({{key, QStringLiteral("slow NIC")}});
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.indexOfKey(key).data(TimelineLaneModel::NoteRole).toString(), QStringLiteral("slow NIC"));
        model.setLanes(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    // The delegate paints a lane from its model index alone: the root lane's strip has the root's colour
    // where its event is, a lane without events only its background.
    void timelineLaneDelegatePaintsFromTheModel()
    {
        TimelineLaneModel model;
        auto lanes = std::make_shared<TimelineLanes>();
        lanes->add("n1", -1, Timestamp{1'000'000'000, TimeBasis::Absolute, {1'000'000'000, 1'000'000'000}}, style::Root, EventId(0));
        lanes->add("n2", -1, Timestamp{1'500'000'000, TimeBasis::Absolute, {1'500'000'000, 1'500'000'000}}, style::Interesting, EventId(1));
        lanes->finish();
        model.setLanes(lanes);
        TimelineLaneDelegate delegate;
        delegate.setWindow({0, 2'000'000'000}, 200);
        QStyleOptionViewItem opt;
        opt.rect = QRect(0, 0, 200, 30);
        opt.palette.setColor(QPalette::Base, Qt::white);
        opt.palette.setColor(QPalette::AlternateBase, Qt::white);
        auto strip = [&](const QString& key) {
            QImage img(200, 30, QImage::Format_RGB32);
            img.fill(Qt::black);
            QPainter p(&img);
            delegate.paint(&p, opt, model.indexOfKey(key, TimelineLaneModel::EventsColumn));
            return img;
        };
        const QImage n1 = strip(QStringLiteral("n1"));
        QCOMPARE(n1.pixelColor(100, 15), style::levelColor(style::Root));
        const bool tinted = model.indexOfKey(QStringLiteral("n1")).data(TimelineLaneModel::RootRole).toBool();
        QCOMPARE(n1.pixelColor(150, 15), tinted ? QColor(0xfb, 0xe3, 0xe3) : QColor(Qt::white));  // no mark there
        const QImage n2 = strip(QStringLiteral("n2"));
        QCOMPARE(n2.pixelColor(100, 15), QColor(Qt::white));
        QCOMPARE(n2.pixelColor(150, 15), style::levelColor(style::Interesting));
        QCOMPARE(delegate.cachedLanes(), 2);
        delegate.setWindow({0, 1'000'000'000}, 200);  // another window: the cache starts over
        QCOMPARE(delegate.cachedLanes(), 0);
    }

    // The service's sessions: a row a session, found by id in O(1), the one shown in bold.
    void sessionListModel()
    {
        SessionListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSessions(nlohmann::json::parse(R"({"sessions": [
            {"session_id": "s-2", "workload_id": "w", "status": "attributed", "attempt": 1, "nodes": ["a", "b"]},
            {"session_id": "s-1", "workload_id": "w", "status": 7},
            {"workload_id": "no id"},
            {"session_id": "s-2", "workload_id": "listed twice"}]})"));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.rowOfSession(QStringLiteral("s-1")), 1);
        QCOMPARE(model.rowOfSession(QStringLiteral("s-2")), 0);  // the first of the two
        QCOMPARE(model.rowOfSession(QStringLiteral("s-9")), -1);
        QCOMPARE(model.index(1, SessionListModel::StatusColumn).data().toString(), QString());  // wrong type: empty
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setOpenSession(QStringLiteral("s-1"));
        QCOMPARE(changed.count(), 1);
        QVERIFY(model.index(1, 0).data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(!model.index(0, 0).data(Qt::FontRole).isValid());
        model.setOpenSession(QStringLiteral("s-2"));
        QCOMPARE(changed.count(), 3);  // the old row and the new
        model.setSessions(nlohmann::json::array());
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.rowOfSession(QStringLiteral("s-1")), -1);
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
            QCOMPARE(model.index(i, PhaseStepModel::TouchedColumn).data().toInt(), int(s.touched.size()));
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
        model.setNotes({{EvidenceId(0), QStringLiteral("checked")}}, {});
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
            QCOMPARE(model.indexOfEvent(c.event).row(), i);  // found by its event in O(1)
        }
        QVERIFY(!model.indexOfEvent(EventId(1u << 30)).isValid());
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

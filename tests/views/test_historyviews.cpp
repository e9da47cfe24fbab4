// SPDX-License-Identifier: MIT
// The Baseline and History tabs (issue #46), registry panels: their models under QAbstractItemModelTester, on
// the baseline sample pair (samples/baseline-pair) and on a history database written by collect --history.
#include "viewfixture.h"
#include "views/baseline/baselineattempt.h"
#include "views/baseline/baselinepanel.h"
#include "views/history/historypanel.h"
#include "views/workbench/workbenchview.h"

#include "baseline/compare.h"
#include "collect/upload.h"
#include "engine/result_json.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QTableView>
#include <QLabel>
#include <QSet>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

using namespace fl;

namespace {

const std::string kPair = FAULTLINE_SOURCE_DIR "/samples/baseline-pair/";

// The pair with the healthy attempt's own result kept as the workbench keeps it (BaselineAttempt).
struct Pair {
    std::shared_ptr<const Analysis> failed;
    std::shared_ptr<const BaselineAttempt> healthy;
};
Pair failedWithHealthy()
{
    Analysis failed = analyze(kPair + "failed", AnalyzeOptions{});
    Analysis healthy = analyze(kPair + "healthy", AnalyzeOptions{});
    auto c = std::make_shared<const BaselineComparison>(baseline::compare(failed, healthy));
    failed.result.baseline = c;
    auto kept = keepBaselineAttempt(std::move(healthy), c, QStringLiteral("healthy"));
    return {std::make_shared<const Analysis>(std::move(failed)), kept};
}

std::shared_ptr<const Analysis> failedAgainstHealthy()
{
    Analysis failed = analyze(kPair + "failed", AnalyzeOptions{});
    const Analysis healthy = analyze(kPair + "healthy", AnalyzeOptions{});
    failed.result.baseline = std::make_shared<const BaselineComparison>(baseline::compare(failed, healthy));
    return std::make_shared<const Analysis>(std::move(failed));
}

// A stored result of job `job` whose root cause is `symptom` at node/pci/gpu.
nlohmann::json stored(const std::string& job, const std::string& node, const std::string& pci, int gpu,
                      const std::string& symptom)
{
    Result r;
    r.status = ResultStatus::Attributed;
    r.domain = Domain::Gpu;
    r.subDomain = "gpu_lost";
    r.workloadId = job;
    r.attempt = 1;
    RootCause rc;
    rc.symptom = symptom;
    rc.node = node;
    rc.pciBus = pci;
    rc.gpuIndex = gpu;
    r.rootCause = rc;
    return resultToJson(r);
}

} // namespace

class TestHistoryViews : public QObject
{
    Q_OBJECT
private slots:
    void baselineRowsNewFirstNoiseDimmed()
    {
        const auto a = failedAgainstHealthy();
        FocusState focus;
        BaselinePanel panel(&focus);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.setAnalysis(a);
        BaselineModel* m = panel.model();
        QVERIFY(m->rowCount() > 3);
        // The Xid 79 the failed attempt alone has is the first row, new and bold; the benign kinds both attempts
        // print follow as "also in baseline", dimmed.
        QCOMPARE(m->row(0).kind, BaselineRow::Kind::NewFamily);
        QVERIFY2(m->index(0, BaselineModel::LabelColumn).data().toString().contains(QStringLiteral("79")),
                 qPrintable(m->index(0, BaselineModel::LabelColumn).data().toString()));
        QVERIFY(m->index(0, 0).data(Qt::FontRole).value<QFont>().bold());
        int also = 0;
        bool newAfterAlso = false;
        for (int r = 0; r < m->rowCount(); ++r) {
            const bool isAlso = m->row(r).kind == BaselineRow::Kind::AlsoFamily;
            also += isAlso ? 1 : 0;
            newAfterAlso = newAfterAlso || (also > 0 && m->row(r).kind == BaselineRow::Kind::NewFamily);
            QCOMPARE(m->index(r, 0).data(Qt::ForegroundRole).isValid(), isAlso || m->row(r).kind == BaselineRow::Kind::Gone);
        }
        QVERIFY2(also >= 3, qPrintable(QString::number(also)));
        QVERIFY(!newAfterAlso);
        QVERIFY(panel.headline()->text().contains(QStringLiteral("new")));
        // Every row is told apart from the others by its title and where (the sample has a suppressed duplicate
        // of the Xid 79 family at the root's own GPU).
        QSet<QString> seenRows;
        for (int r = 0; r < m->rowCount(); ++r) {
            const QString where = m->index(r, BaselineModel::PlaceColumn).data().toString();
            QVERIFY2(!where.isEmpty(), qPrintable(m->row(r).label));
            const QString key = BaselineModel::statusText(m->row(r).kind) + QLatin1Char('|') + m->row(r).label +
                                QLatin1Char('|') + where;
            QVERIFY2(!seenRows.contains(key), qPrintable(key));
            seenRows.insert(key);
        }
        // Without a baseline: no rows, and the tab says how to get one.
        panel.setAnalysis(std::make_shared<const Analysis>(analyze(kPair + "healthy", AnalyzeOptions{})));
        QCOMPARE(m->rowCount(), 0);
        QVERIFY(panel.headline()->text().contains(QStringLiteral("--baseline")));
    }

    // Two families of one title at different places (a benign poller on two nodes): each row says where, and the
    // order does not depend on the comparison's family order (the root's family first, then title, then place).
    void baselinePlacesTellSameTitlesApart()
    {
        Result r;
        auto event = [&r](const char* node, int gpu, int rank) {
            SymptomEvent e;
            e.id = EventId(static_cast<uint32_t>(r.events.size()));
            e.node = node;
            e.gpuIndex = gpu;
            e.rank = rank;
            r.events.push_back(e);
            return e.id;
        };
        auto family = [&r](const char* symptom, const char* title, const char* node, EventId e, int rank) {
            SymptomFamily f;
            f.symptom = symptom;
            f.title = title;
            f.nodes = {node};
            f.nodeRanges = node;
            f.ranks = {{rank, rank}};
            f.rankCount = 1;
            f.count = 1;
            f.events = {e};
            r.families.push_back(f);
        };
        family("gpu.mlx5_poll", "mlx5 counter polling failed", "node-02", event("node-02", 1, 9), 9);
        family("gpu.mlx5_poll", "mlx5 counter polling failed", "node-01", event("node-01", 3, 3), 3);
        family("gpu.xid.79", "GPU fell off the bus", "node-04", event("node-04", 5, 29), 29);
        RootCause rc;
        rc.event = EventId(2);
        rc.symptom = "gpu.xid.79";
        r.rootCause = rc;
        r.status = ResultStatus::Attributed;
        BaselineComparison c;
        for (uint32_t i = 0; i < 3; ++i) {
            BaselineFamilyMark m;
            m.family = FamilyId(i);
            m.symptom.symptom = r.families[i].symptom;
            m.symptom.count = 1;
            c.families.push_back(m);
        }
        BaselineModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows(BaselineModel::rowsOf(r, c));
        QCOMPARE(model.rowCount(), 3);
        auto place = [&model](int row) { return model.index(row, BaselineModel::PlaceColumn).data().toString(); };
        QVERIFY2(model.row(0).label.contains(QStringLiteral("79")), qPrintable(model.row(0).label));
        QCOMPARE(place(0), QStringLiteral("node-04 GPU 5 rank 29"));
        QCOMPARE(model.row(1).label, model.row(2).label);
        QCOMPARE(place(1), QStringLiteral("node-01 GPU 3 rank 3"));
        QCOMPARE(place(2), QStringLiteral("node-02 GPU 1 rank 9"));
        QCOMPARE(model.headerData(BaselineModel::PlaceColumn, Qt::Horizontal).toString(), QStringLiteral("Where"));
        // The comparison's families in another order: the same rows.
        std::reverse(c.families.begin(), c.families.end());
        const auto again = BaselineModel::rowsOf(r, c);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(again[static_cast<size_t>(i)].place, model.row(i).place);
    }

    void historyOfTheJobsPlaces()
    {
        const auto a = failedAgainstHealthy();
        const history::CausePlace root = history::causePlace(a->result);
        QVERIFY2(!root.node.empty() && !root.fingerprint.empty(), "the sample's verdict names a root-cause place");
        QTemporaryDir tmp;
        const std::string db = tmp.filePath(QStringLiteral("history.db")).toStdString();
        std::string error;
        // Three earlier jobs failed with the same cause on the same GPU; one with another cause on that GPU; one on
        // a node this job did not use (not listed).
        for (const char* job : {"job-1", "job-2", "job-3"})
            QVERIFY2(collect::appendHistory(db, stored(job, root.node, root.pciBus, root.gpu, root.fingerprint.substr(root.fingerprint.rfind('/') + 1)),
                                            "slurm", "", error), error.c_str());
        QVERIFY(collect::appendHistory(db, stored("job-4", root.node, root.pciBus, root.gpu, "gpu.xid.48"), "slurm", "", error));
        QVERIFY(collect::appendHistory(db, stored("job-5", "elsewhere-99", "0000:01:00", 0, "gpu.xid.79"), "slurm", "", error));
        // The open job itself, stored too: not counted as an earlier failure.
        QVERIFY(collect::appendHistory(db, resultToJson(a->result), "slurm", "", error));

        FocusState focus;
        HistoryPanel panel(&focus);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.setPrepared(HistoryPanel::prepare(a.get(), QString::fromStdString(db)));
        const QString head = panel.headline()->text();
        QVERIFY2(head.contains(QStringLiteral("in 3 other jobs")), qPrintable(head));
        HistoryModel* m = panel.model();
        QCOMPARE(m->rowCount(), 2);
        QVERIFY(m->row(0).rootCause);
        QCOMPARE(m->index(0, HistoryModel::JobsColumn).data().toUInt(), 4u);  // the three and the open job
        QVERIFY(m->index(0, 0).data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(m->row(1).rootPlace && !m->row(1).rootCause);
        QVERIFY(m->index(1, HistoryModel::CauseColumn).data().toString().endsWith(QStringLiteral("gpu.xid.48")));
        for (int r = 0; r < m->rowCount(); ++r)
            QVERIFY(!m->index(r, HistoryModel::PlaceColumn).data().toString().startsWith(QStringLiteral("elsewhere")));
        // Activating a row opens the newest result another job stored at its place: the document collect kept
        // (no bundle named), the bundle when it is on this machine, or a sentence saying why not.
        qRegisterMetaType<std::shared_ptr<const Analysis>>();
        QSignalSpy results(&panel, &HistoryPanel::openResult);
        QSignalSpy bundles(&panel, &HistoryPanel::openBundle);
        panel.openRow(0);
        QVERIFY2(results.count() == 1, qPrintable(panel.openNote()->text()));
        const auto opened = results.takeFirst().at(0).value<std::shared_ptr<const Analysis>>();
        QVERIFY(opened && opened->result.rootCause);
        QCOMPARE(opened->result.workloadId, std::string("job-3"));
        QVERIFY2(panel.openNote()->text().contains(QStringLiteral("job-3")), qPrintable(panel.openNote()->text()));
        QVERIFY(collect::appendHistory(db, stored("job-6", root.node, root.pciBus, root.gpu, "gpu.xid.48"), "slurm",
                                       kPair + "healthy", error));
        panel.openRow(1);
        QCOMPARE(bundles.count(), 1);
        QCOMPARE(bundles.takeFirst().at(0).toString(), QString::fromStdString(kPair + "healthy"));
        {
            sqlite3* h = nullptr;
            QCOMPARE(sqlite3_open(db.c_str(), &h), SQLITE_OK);
            QCOMPARE(sqlite3_exec(h, "UPDATE results SET result_json = '{}', bundle = '/gone/job-6' WHERE workload_id = 'job-6'",
                                  nullptr, nullptr, nullptr),
                     SQLITE_OK);
            sqlite3_close(h);
        }
        panel.openRow(1);
        QCOMPARE(bundles.count(), 0);
        QCOMPARE(results.count(), 0);
        QVERIFY2(panel.openNote()->text().contains(QStringLiteral("job-6")) &&
                     panel.openNote()->text().contains(QStringLiteral("/gone/job-6")),
                 qPrintable(panel.openNote()->text()));

        // No database: the tab says how to open one; an unreadable one: the error names the file.
        panel.setPrepared(HistoryPanel::prepare(a.get(), QString()));
        QCOMPARE(m->rowCount(), 0);
        QVERIFY(panel.headline()->text().contains(QStringLiteral("--history")));
        const QString bad = tmp.filePath(QStringLiteral("not-a-db.txt"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not a database\n");
        f.close();
        panel.setPrepared(HistoryPanel::prepare(a.get(), bad));
        QVERIFY2(panel.headline()->text().contains(bad), qPrintable(panel.headline()->text()));
    }

    // Both attempts on one time axis: every family of the failed attempt with its span, the healthy attempt's
    // span of the same symptom beside it, as offsets from their starts or from a chosen shared family's first line;
    // what is new strong, what is shared dimmed.
    void bothAttemptsOnOneAxis()
    {
        const Pair pair = failedWithHealthy();
        FocusState focus;
        BaselinePanel panel(&focus);
        AttemptAxisModel* m = panel.axisModel();
        QAbstractItemModelTester tester(m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.setAttemptSource([&pair] { return pair.healthy; });
        panel.setAnalysis(pair.failed);
        QVERIFY(m->rowCount() > 3);
        const int64_t failedStart = attemptStartNs(*pair.failed);
        QVERIFY(failedStart != kNoTime && pair.healthy->startNs != kNoTime);
        QCOMPARE(m->failedOriginNs(), failedStart);
        QCOMPARE(m->healthyOriginNs(), pair.healthy->startNs);
        // New families first: the Xid 79 only the failed attempt printed, no bar in the baseline.
        QCOMPARE(m->row(0).kind, BaselineRow::Kind::NewFamily);
        QVERIFY(m->index(0, AttemptAxisModel::AxisColumn).data(AttemptAxisModel::NewRole).toBool());
        QVERIFY(m->index(0, AttemptAxisModel::AxisColumn).data(AttemptAxisModel::HereFirstRole).isValid());
        QVERIFY(!m->index(0, AttemptAxisModel::AxisColumn).data(AttemptAxisModel::ThereFirstRole).isValid());
        int shared = -1;
        for (int r = 0; r < m->rowCount(); ++r) {
            const AttemptAxisRow& row = m->row(r);
            const QModelIndex axis = m->index(r, AttemptAxisModel::AxisColumn);
            QCOMPARE(m->index(r, AttemptAxisModel::LabelColumn).data(Qt::ForegroundRole).isValid(),
                     row.kind != BaselineRow::Kind::NewFamily);  // shared and gone dimmed
            if (row.here.timed())
                QCOMPARE(axis.data(AttemptAxisModel::HereFirstRole).toLongLong(), row.here.firstNs - failedStart);
            if (row.there.timed())
                QCOMPARE(axis.data(AttemptAxisModel::ThereFirstRole).toLongLong(), row.there.firstNs - pair.healthy->startNs);
            if (shared < 0 && row.kind == BaselineRow::Kind::AlsoFamily && row.here.timed() && row.there.timed())
                shared = r;
            // Every bar inside the axis.
            for (int role : {AttemptAxisModel::HereFirstRole, AttemptAxisModel::HereLastRole, AttemptAxisModel::ThereFirstRole,
                             AttemptAxisModel::ThereLastRole})
                if (axis.data(role).isValid())
                    QVERIFY(axis.data(role).toLongLong() >= m->axisFirstNs() && axis.data(role).toLongLong() <= m->axisLastNs());
        }
        QVERIFY2(shared >= 0, "the pair shares a timed family");
        // The healthy run started two hours earlier (08:00 against 10:00): at their starts a shared start-up line
        // sits at about the same offset in both; aligned at it, both begin at 0.
        QVERIFY(!panel.alignAt(0));  // a new family has no first line in the baseline
        QVERIFY(panel.alignAt(shared));
        QCOMPARE(m->alignedRow(), std::optional<int>(shared));
        QCOMPARE(m->index(shared, AttemptAxisModel::AxisColumn).data(AttemptAxisModel::HereFirstRole).toLongLong(), 0);
        QCOMPARE(m->index(shared, AttemptAxisModel::AxisColumn).data(AttemptAxisModel::ThereFirstRole).toLongLong(), 0);
        QCOMPARE(panel.alignment()->currentData().toInt(), shared);
        QVERIFY(panel.axisHeadline()->text().contains(m->row(shared).label));
        QVERIFY(panel.alignAt(-1));
        QCOMPARE(m->failedOriginNs(), failedStart);
        // Only with its own comparison: a healthy result kept for another comparison is not drawn.
        auto other = std::make_shared<BaselineAttempt>(*pair.healthy);
        other->comparison = std::make_shared<const BaselineComparison>(*pair.failed->result.baseline);
        panel.setAttemptSource([other] { return std::shared_ptr<const BaselineAttempt>(other); });
        panel.setAnalysis(pair.failed);
        QCOMPARE(m->rowCount(), 0);
        QVERIFY(panel.axisHeadline()->text().contains(QStringLiteral("Compare with")));
        QVERIFY(!panel.alignment()->isEnabled());
    }

    // Both are registry panels: centre tabs of the workbench, filled by their jobs.
    void workbenchTabs()
    {
        const auto a = failedAgainstHealthy();
        QTemporaryDir tmp;
        const std::string db = tmp.filePath(QStringLiteral("history.db")).toStdString();
        std::string error;
        const history::CausePlace root = history::causePlace(a->result);
        for (const char* job : {"job-1", "job-2"})
            QVERIFY(collect::appendHistory(db, stored(job, root.node, root.pciBus, root.gpu, "gpu.xid.79"), "slurm", "", error));
        WorkbenchView w;
        auto* history = w.panelAs<HistoryPanel>(QStringLiteral("history"));
        auto* base = w.panelAs<BaselinePanel>(QStringLiteral("baseline"));
        QVERIFY(history && base);
        QVERIFY(w.centreTabs()->indexOf(history) >= 0 && w.centreTabs()->indexOf(base) >= 0);
        history->setDatabase(QString::fromStdString(db));
        w.setAnalysis(a, ViewJobs::Mode::Background);
        QTRY_VERIFY_WITH_TIMEOUT(!w.viewsPending(), 20000);
        QVERIFY(base->model()->rowCount() > 3);
        QCOMPARE(base->axisModel()->rowCount(), 0);  // no healthy result kept with it
        // The workbench holds the healthy attempt's result for the tab (File → Open against a baseline…).
        const Pair pair = failedWithHealthy();
        w.setBaselineAttempt(pair.healthy);
        w.setAnalysis(pair.failed);
        QVERIFY(base->axisModel()->rowCount() > 3);
        QVERIFY(history->model()->rowCount() >= 1);
        // Choosing another database while the result is open reads it at once.
        history->setDatabase(QString());
        QCOMPARE(history->model()->rowCount(), 0);
    }
};

QTEST_MAIN(TestHistoryViews)
#include "test_historyviews.moc"

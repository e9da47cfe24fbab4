// SPDX-License-Identifier: MIT
// File → Connect to service…, against a REAL faultline-service started here on a free loopback port in a
// temporary folder, with a token: connect, submit a sample bundle (a folder, packed and streamed), see it
// listed and filtered, open its result with the raw lines of its evidence fetched from the service, re-run
// attribution; errors say the HTTP status and the service's {error, detail}. The session list model under
// QAbstractItemModelTester, including hostile JSON.
#include "qtplugins.h"
#include "realservice.h"
#include "engine/engine.h"
#include "present/verdict.h"
#include "views/common/focusstate.h"
#include "views/store/notesstore.h"
#include "views/evidence/rawfilepanel.h"
#include "views/evidence/rawfileview.h"
#include "views/service/servicebrowser.h"
#include "views/service/servicereview.h"
#include "views/models/sessionlistmodel.h"
#include "views/workbench/workbenchview.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QFile>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QListWidget>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace fl;

namespace {
bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// Line `line` (1-based) of a sample file, as the raw viewer shows it.
QString sampleLine(const QString& file, uint32_t line)
{
    QFile f(QStringLiteral(FAULTLINE_SOURCE_DIR "/samples/xid149-nccl/") + file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QList<QByteArray> lines = f.readAll().split('\n');
    return line >= 1 && line <= uint32_t(lines.size()) ? QString::fromUtf8(lines[line - 1]) : QString();
}

bool waitIdle(ServiceBrowser& b)
{
    if (!b.busy())
        return true;
    QSignalSpy idle(&b, &ServiceBrowser::idle);
    return idle.wait(120000);
}
} // namespace

class TestServiceBrowser : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    RealService m_service;
    QString m_url;
    QString m_tokenFile;

    // Connects `b` to the test's service and submits a sample bundle; false when either fails.
    bool submitSample(ServiceBrowser& b, const QString& sample)
    {
        b.setUrl(m_url);
        b.setTokenFile(m_tokenFile);
        if (!b.connectToService() || !waitIdle(b))
            return false;
        b.submit(QStringLiteral(FAULTLINE_SOURCE_DIR "/samples/") + sample);
        const bool ok = waitIdle(b) && !b.openSession().isEmpty();
        if (!ok)
            qWarning("submitting %s failed: %s", qPrintable(sample), qPrintable(b.statusText()));
        return ok;
    }

    // True once the service runs and queues no analysis. An aborted request's analysis still runs to its end
    // on the service (it holds one of the test service's --workers 1 slots), so a test that aborts requests
    // waits here before the next one submits: otherwise that submit is (rightly) answered 429.
    bool serviceIdle(ServiceClient* client, int timeoutMs = 120000)
    {
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < timeoutMs) {
            bool answered = false, idle = false;
            client->health(this, [&](const ServiceReply& r) {
                answered = true;
                const auto depth = r.body.is_object() ? r.body.value("queue_depth", nlohmann::json::object()) : nlohmann::json();
                idle = r.error.isEmpty() && depth.is_object() && depth.value("analyses_running", -1) == 0 &&
                       depth.value("analyses_waiting", -1) == 0;
            });
            while (!answered && clock.elapsed() < timeoutMs)
                QTest::qWait(20);
            if (idle)
                return true;
            QTest::qWait(100);
        }
        return false;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);  // notes of service sessions go to a test data folder
        QVERIFY(m_dir.isValid());
        const QString problem = m_service.start(QStringLiteral(FAULTLINE_SERVICE), m_dir.path(), "workbench-test-token-0123456789");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        m_url = m_service.url();
        m_tokenFile = m_service.tokenFile();
    }

    void modelPassesTheTesterWithHostileJson()
    {
        SessionListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSessions(nlohmann::json::parse(R"({"sessions": [
            {"session_id": "s-1", "workload_id": "w", "attempt": 2, "status": "attributed", "domain": "gpu",
             "nodes": ["n1", "n2"], "latest_run": 3, "created_at": "2026-01-01T00:00:00Z"},
            {"session_id": "s-2", "attempt": "two", "nodes": "n1", "latest_run": 99999999999999},
            {"workload_id": "no id"}, 7, null, {"session_id": 5}
        ]})"));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, SessionListModel::NodesColumn).data().toString(), QStringLiteral("n1, n2"));
        QCOMPARE(model.index(0, SessionListModel::RunsColumn).data().toInt(), 3);
        QCOMPARE(model.index(1, SessionListModel::AttemptColumn).data().toString(), QString());
        QCOMPARE(model.index(1, SessionListModel::RunsColumn).data().toInt(), 0);
        QCOMPARE(model.index(1, 0).data(SessionListModel::SessionIdRole).toString(), QStringLiteral("s-2"));
        model.setSessions(nlohmann::json::array());
        QCOMPARE(model.rowCount(), 0);
    }

    void errorsNameStatusAndDetail()
    {
        ServiceBrowser b{QString()};
        b.setUrl(QStringLiteral("ftp://example"));
        QVERIFY(!b.connectToService());
        QVERIFY(b.statusText().contains(QStringLiteral("http://")));

        b.setUrl(m_url);
        b.setTokenFile(m_dir.filePath(QStringLiteral("no-such-token")));
        QVERIFY(!b.connectToService());
        QVERIFY2(b.statusText().contains(QStringLiteral("no-such-token")), qPrintable(b.statusText()));

        // A wrong token: the service's 401 {error, detail} as it said it.
        const QString wrong = m_dir.filePath(QStringLiteral("wrong-token"));
        QVERIFY(writeFile(wrong, "not-the-right-token-at-all"));
        b.setTokenFile(wrong);
        QVERIFY(b.connectToService());  // healthz is open to probes ...
        QVERIFY(waitIdle(b));
        QVERIFY2(b.statusText().contains(QStringLiteral("HTTP 401 unauthorized")), qPrintable(b.statusText()));  // ... the list is not

        // Nothing listening.
        b.setUrl(QStringLiteral("http://127.0.0.1:9"));
        QVERIFY(b.connectToService());
        QVERIFY(waitIdle(b));
        QVERIFY2(b.statusText().startsWith(QStringLiteral("Failed:")), qPrintable(b.statusText()));
    }

    void submitListOpenEvidenceRerun()
    {
        ServiceBrowser b{QString()};
        b.setUrl(m_url);
        b.setTokenFile(m_tokenFile);
        QVERIFY(b.connectToService());
        QVERIFY(b.busy());  // asynchronous: the call returned before any answer
        QVERIFY(waitIdle(b));
        QVERIFY2(b.statusText().startsWith(QStringLiteral("Connected: faultline-service")), qPrintable(b.statusText()));
        const int before = b.sessions()->rowCount();

        b.submit(QStringLiteral(FAULTLINE_SOURCE_DIR "/samples/xid149-nccl"));  // a folder: packed, then streamed
        QVERIFY(b.busy());
        QVERIFY(waitIdle(b));
        QVERIFY2(b.statusText().contains(QStringLiteral("Submitted xid149-nccl as session")), qPrintable(b.statusText()));
        QCOMPARE(b.sessions()->rowCount(), before + 1);
        QCOMPARE(QString::fromStdString(b.result().value("status", std::string())), QStringLiteral("attributed"));
        QCOMPARE(QString::fromStdString(b.result()["root_cause"].value("node", std::string())), QStringLiteral("node-02"));
        // The root cause's evidence first, its raw lines fetched from the service, marked.
        QVERIFY(b.evidenceList()->count() > 0);
        QVERIFY(b.evidenceList()->item(0)->text().contains(QStringLiteral("root")));
        {
            // Every evidence item of the document, root ones first, each as "id  role  file:line  excerpt".
            QStringList roots, rest;
            for (const auto& e : b.result()["evidence"]) {
                const QString line = QStringLiteral("%1  %2  %3:%4").arg(QString::fromStdString(e["id"].get<std::string>()),
                    QString::fromStdString(e["role"].get<std::string>()), QString::fromStdString(e["raw"]["file"].get<std::string>()))
                    .arg(e["raw"]["line"].get<int>());
                (e["role"] == "root" ? roots : rest).append(line);
            }
            std::reverse(roots.begin(), roots.end());
            const QStringList want = roots + rest;
            QCOMPARE(b.evidenceList()->count(), int(want.size()));
            for (int i = 0; i < b.evidenceList()->count(); ++i)
                QVERIFY2(b.evidenceList()->item(i)->text().startsWith(want[i] + QStringLiteral("  ")),
                         qPrintable(b.evidenceList()->item(i)->text() + QStringLiteral(" / ") + want[i]));
        }
        QVERIFY2(b.rawText().contains(QStringLiteral("▶")) && b.rawText().contains(QStringLiteral("NVRM: Xid")),
                 qPrintable(b.rawText()));
        const QString session = b.openSession();

        // Filters go to the service.
        SessionFilter f;
        f.status = QStringLiteral("unattributed");
        b.setFilter(f);
        b.refresh();
        QVERIFY(waitIdle(b));
        QCOMPARE(b.sessions()->rowCount(), 0);
        f = {};
        f.domain = QStringLiteral("nvlink");
        f.node = QStringLiteral("node-02");
        b.setFilter(f);
        b.refresh();
        QVERIFY(waitIdle(b));
        QCOMPARE(b.sessions()->rowCount(), 1);
        QCOMPARE(b.sessions()->session(0)->id, session);
        QCOMPARE(b.sessions()->session(0)->latestRun, 1);

        // Open it from the list, then attribute again: run 2.
        b.sessionView()->selectRow(0);
        b.openSelected();
        QVERIFY(waitIdle(b));
        QCOMPARE(b.openSession(), session);
        b.rerunSelected();
        QVERIFY(waitIdle(b));
        QVERIFY2(b.statusText().contains(QStringLiteral("Run 2 of ") + session + QStringLiteral(": attributed")),
                 qPrintable(b.statusText()));
        QCOMPARE(b.sessions()->session(0)->latestRun, 2);

        if (const QString shots = qEnvironmentVariable("FAULTLINE_SCREENSHOTS"); !shots.isEmpty()) {
            b.resize(1200, 800);
            b.grab().save(shots + QStringLiteral("/servicebrowser.png"));  // to look at, as a reviewer sees it
        }

        // A file that is no archive: the service's 400 with its detail.
        const QString junk = m_dir.filePath(QStringLiteral("junk.tar.gz"));
        QVERIFY(writeFile(junk, "this is not an archive"));
        b.submit(junk);
        QVERIFY(waitIdle(b));
        QVERIFY2(b.statusText().contains(QRegularExpression(QStringLiteral("HTTP 4\\d\\d \\w+: "))), qPrintable(b.statusText()));
    }

    // A service result reviewed in the workbench as a local one: selecting an evidence item shows its raw
    // lines, fetched from the service, in the raw viewer at their real line numbers, highlighted; notes and
    // bookmarks are kept per session; why each candidate lost reads as for the local analysis; a refusal of
    // the service is shown where the lines would be.
    void serviceResultReviewedAsALocalOne()
    {
        ServiceBrowser b{QString()};
        QVERIFY(submitSample(b, QStringLiteral("xid149-nccl")));
        QSignalSpy opened(&b, &ServiceBrowser::openInWorkbench);
        QVERIFY(b.openInMainWindow());
        const auto service = opened.at(0).at(0).value<std::shared_ptr<const Analysis>>();
        QVERIFY(service && service->result.rootCause);

        WorkbenchView view;
        view.setAnalysis(service);
        ServiceReview* review = ServiceReview::of(&view);
        QCOMPARE(ServiceReview::of(&view), review);
        QSignalSpy shown(review, &ServiceReview::rawShown);
        QSignalSpy traced(review, &ServiceReview::traceShown);
        review->attach(b.client(), b.openSession(), b.openRun(), service);
        QVERIFY(review->active());
        QVERIFY(review->busy());  // asynchronous
        QVERIFY(shown.count() || shown.wait(60000));

        // The root cause's evidence line, as the file in the bundle holds it, at its line number.
        RawFileView* raw = view.raw()->view();
        QTRY_VERIFY(raw->indexComplete());
        const EvidenceId rootId = service->result.rootCause->evidence.front();
        const EvidenceItem* root = nullptr;
        for (const EvidenceItem& e : service->result.evidence)
            if (e.id == rootId)
                root = &e;
        QVERIFY(root);
        QVERIFY(shown.last().at(0).value<EvidenceId>() == rootId);
        QCOMPARE(raw->displayName(), QString::fromStdString(root->file));
        const QString expected = sampleLine(QString::fromStdString(root->file), root->ref.line);
        QVERIFY(expected.contains(QStringLiteral("NVRM: Xid")));
        QCOMPARE(raw->lineText(root->ref.line), expected);
        QCOMPARE(raw->currentLine(), uint64_t(root->ref.line));
        QVERIFY(raw->highlight().second > raw->highlight().first);
        QVERIFY(review->lastError().isEmpty());

        // Another evidence item, in another file, with fewer lines around it: its own lines.
        const EvidenceItem* other = nullptr;
        for (const EvidenceItem& e : service->result.evidence)
            if (e.file != root->file && (!other || e.ref.line > other->ref.line))
                other = &e;
        QVERIFY(other && other->ref.line > 4);
        const int context = 2;
        review->setContext(context);
        view.focus()->selectEvidence(other->id);
        QVERIFY(shown.wait(60000));
        QCOMPARE(raw->displayName(), QString::fromStdString(other->file));
        QTRY_VERIFY(raw->indexComplete());
        QCOMPARE(raw->lineText(other->ref.line), sampleLine(QString::fromStdString(other->file), other->ref.line));
        // Lines before the fetched ones are not invented: blank, and the last of them says where they are.
        const uint32_t firstFetched = std::max<int64_t>(1, int64_t(other->ref.line) - context);
        QVERIFY(firstFetched > 2);
        {
            QVERIFY2(raw->lineText(firstFetched - 1).contains(QStringLiteral("with the service")), qPrintable(raw->lineText(firstFetched - 1)));
            QVERIFY(raw->lineText(1).isEmpty());
            QCOMPARE(raw->lineText(firstFetched), sampleLine(QString::fromStdString(other->file), firstFetched));
            const uint32_t after = other->ref.line + other->ref.lineCount + context;  // the first line not fetched
            QFile f(QStringLiteral(FAULTLINE_SOURCE_DIR "/samples/xid149-nccl/") + QString::fromStdString(other->file));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const bool more = after <= uint32_t(f.readAll().count('\n'));
            QCOMPARE(raw->lineText(after).contains(QStringLiteral("with the service")), more);
        }

        if (const QString shots = qEnvironmentVariable("FAULTLINE_SCREENSHOTS"); !shots.isEmpty()) {
            view.resize(1600, 1000);
            view.grab().save(shots + QStringLiteral("/service-review-raw.png"));  // the raw lines as a reviewer sees them
        }

        // Notes and bookmarks of this session, kept across a reopening.
        QVERIFY(view.setEvidenceNote(rootId, QStringLiteral("checked the NVLink cable")));
        QVERIFY(view.toggleBookmark(raw->displayName(), other->ref.line));
        QVERIFY2(view.notes()->path().contains(QStringLiteral("service-notes")), qPrintable(view.notes()->path()));
        {
            WorkbenchView again;
            again.setAnalysis(service);
            ServiceReview::of(&again)->attach(b.client(), b.openSession(), b.openRun(), service);
            QCOMPARE(again.notes()->note(NotesStore::kEvidence, QString::fromStdString(toString(rootId))),
                     QStringLiteral("checked the NVLink cable"));
            QCOMPARE(again.notes()->bookmarks(raw->displayName()).size(), size_t(1));
        }

        // Why each candidate won or lost: as the local analysis says it.
        AnalyzeOptions o;
        o.userConfigRules = false;
        const Analysis local = analyze(FAULTLINE_SOURCE_DIR "/samples/xid149-nccl", o);

        // The phase stepper: the trace, which the stored result does not carry, from the service.
        QVERIFY(traced.count() || traced.wait(60000));
        QVERIFY2(traced.last().at(0).toBool(), qPrintable(review->traceError()));
        {
            WorkbenchView here;
            here.setAnalysis(std::make_shared<const Analysis>(local));
            QVERIFY(here.stepper()->steps().count() > 3);
            QCOMPARE(view.stepper()->steps().count(), here.stepper()->steps().count());
            for (int i : {0, here.stepper()->steps().count() - 1}) {
                view.stepper()->setStep(i);
                here.stepper()->setStep(i);
                QCOMPARE(view.stepper()->phaseText(), here.stepper()->phaseText());
                QCOMPARE(view.stepper()->countsText(), here.stepper()->countsText());
            }
        }
        QCOMPARE(service->result.candidates.size(), local.result.candidates.size());
        for (size_t i = 0; i < local.result.candidates.size(); ++i)
            QCOMPARE(present::candidateVerdict(service->result.candidates[i], service->result),
                     present::candidateVerdict(local.result.candidates[i], local.result));

        // A session the service does not know: its refusal, shown where the lines would be.
        auto copy = std::make_shared<const Analysis>(*service);
        WorkbenchView gone;
        gone.setAnalysis(copy);
        ServiceReview* r2 = ServiceReview::of(&gone);
        QSignalSpy shown2(r2, &ServiceReview::rawShown);
        QSignalSpy traced2(r2, &ServiceReview::traceShown);
        r2->attach(b.client(), QStringLiteral("no-such-session"), 1, copy);
        QVERIFY(shown2.wait(60000));
        QVERIFY(traced2.count() || traced2.wait(60000));
        QVERIFY(!traced2.last().at(0).toBool());
        QVERIFY2(r2->traceError().contains(QStringLiteral("HTTP 404")), qPrintable(r2->traceError()));
        QTRY_VERIFY(gone.raw()->view()->indexComplete());
        QVERIFY2(r2->lastError().contains(QStringLiteral("HTTP 404")), qPrintable(r2->lastError()));
        QVERIFY2(gone.raw()->view()->lineText(1).contains(QStringLiteral("did not give the raw lines")),
                 qPrintable(gone.raw()->view()->lineText(1)));

        // Lines that are not this result's evidence line (here: a result whose root evidence says another
        // line than the service's run) are refused, not shown as if they were.
        {
            auto moved = std::make_shared<Analysis>(*service);
            for (EvidenceItem& e : moved->result.evidence)
                if (e.id == rootId)
                    e.ref.line += 1;
            WorkbenchView stale;
            stale.setAnalysis(moved);
            ServiceReview* r3 = ServiceReview::of(&stale);
            QSignalSpy shown3(r3, &ServiceReview::rawShown);
            r3->attach(b.client(), b.openSession(), b.openRun(), moved);
            stale.focus()->selectEvidence(rootId);
            QTRY_VERIFY_WITH_TIMEOUT(!r3->busy() && shown3.count() > 0, 60000);
            QVERIFY2(r3->lastError().contains(QStringLiteral("on another line")), qPrintable(r3->lastError()));
        }

        // Whatever the view shows next ends the review.
        view.setAnalysis(std::make_shared<const Analysis>(local));
        QVERIFY(!review->active());
    }

    // A view closed while its raw lines and trace are still being fetched is never called back: the
    // requests are aborted and their replies freed. (Its handlers once ran on the freed review and crashed
    // one run in three.)
    void aViewClosedWhileFetchingIsNotCalledBack()
    {
        ServiceBrowser b{QString()};
        QVERIFY(submitSample(b, QStringLiteral("xid149-nccl")));
        QSignalSpy opened(&b, &ServiceBrowser::openInWorkbench);
        QVERIFY(b.openInMainWindow());
        const auto service = opened.at(0).at(0).value<std::shared_ptr<const Analysis>>();
        QVERIFY(service);
        auto pending = [&b] { return b.client()->findChildren<QNetworkReply*>().size(); };
        for (int i = 0; i < 5; ++i) {
            auto view = std::make_unique<WorkbenchView>();
            view->setAnalysis(service);
            ServiceReview* review = ServiceReview::of(view.get());
            review->attach(b.client(), b.openSession(), b.openRun(), service);
            QVERIFY(review->busy());
            QVERIFY(pending() >= 2);  // the raw lines and the trace
            view.reset();
            QTRY_COMPARE_WITH_TIMEOUT(pending(), qsizetype(0), 60000);
        }
        QVERIFY2(serviceIdle(b.client()), "the service still runs the aborted requests' analyses after 120 s");
        // The client still serves the browser afterwards.
        b.refresh();
        QVERIFY(waitIdle(b));
        QVERIFY2(b.sessions()->rowCount() > 0, qPrintable(b.statusText()));
    }

    // "Open in workbench": the service's (compact) result in the main window's views, as a local analysis of
    // the same bundle shows it: the verdict, every evidence line, the chain's families and their edges.
    void serviceResultOpensInTheWorkbenchViews()
    {
        ServiceBrowser b{QString()};
        QVERIFY(!b.openInMainWindow());  // nothing open yet
        QVERIFY(submitSample(b, QStringLiteral("xid149-nccl")));
        QVERIFY(!b.result()["symptom_chain"].contains("nodes"));  // the service keeps the compact document

        QSignalSpy opened(&b, &ServiceBrowser::openInWorkbench);
        QVERIFY(b.openInMainWindow());
        QCOMPARE(opened.count(), 1);
        const auto service = opened.at(0).at(0).value<std::shared_ptr<const Analysis>>();
        QVERIFY(service);
        QVERIFY(opened.at(0).at(1).toString().contains(b.openSession()));

        AnalyzeOptions o;
        o.userConfigRules = false;
        auto local = std::make_shared<const Analysis>(analyze(FAULTLINE_SOURCE_DIR "/samples/xid149-nccl", o));

        WorkbenchView remote, here;
        remote.setAnalysis(service);
        here.setAnalysis(local);
        QCOMPARE(remote.verdict()->statusText(), here.verdict()->statusText());
        QVERIFY2(remote.verdict()->verdictText().contains(QStringLiteral("node-02")), qPrintable(remote.verdict()->verdictText()));
        QCOMPARE(remote.evidence()->model()->rowCount(), here.evidence()->model()->rowCount());
        // The chain: the same families, one box each (the local one starts expanded into its events).
        const ChainFamilies& rf = remote.chain()->families();
        const ChainFamilies& lf = here.chain()->families();
        QCOMPARE(rf.families.size(), lf.families.size());
        QCOMPARE(rf.edges.size(), lf.edges.size());
        for (size_t i = 0; i < rf.families.size(); ++i) {
            QCOMPARE(rf.families[i].family->symptom, lf.families[i].family->symptom);
            QCOMPARE(rf.families[i].family->count, lf.families[i].family->count);
            QCOMPARE(rf.families[i].family->nodes, lf.families[i].family->nodes);
        }
        QCOMPARE(remote.chain()->nodeItemCount(), int(rf.families.size()));
        if (const QString shots = qEnvironmentVariable("FAULTLINE_SCREENSHOTS"); !shots.isEmpty()) {
            remote.resize(1600, 1000);
            for (int tab : {0, 1}) {  // the timeline, then the chain, as a reviewer sees them
                remote.centreTabs()->setCurrentIndex(tab);
                remote.grab().save(shots + QStringLiteral("/service-in-workbench-%1.png").arg(tab));
            }
        }
        QVERIFY(remote.chain()->itemForEvent(service->result.rootCause->event));
        // The chosen candidate is the root cause, as typed fields say.
        QVERIFY(!service->result.candidates.empty());
        QVERIFY(service->result.candidates.front().chosen);
        QCOMPARE(present::candidateVerdict(service->result.candidates.front(), service->result),
                 present::candidateVerdict(local->result.candidates.front(), local->result));
    }

    // The review asks for the run it shows: after the session was attributed again with more evidence,
    // the raw lines and the trace are still those of the run on screen, not the newer one's.
    void reviewAsksForTheRunItShows()
    {
        ServiceBrowser b{QString()};
        QVERIFY(submitSample(b, QStringLiteral("xid149-nccl")));
        QCOMPARE(b.openRun(), 1);
        QSignalSpy opened(&b, &ServiceBrowser::openInWorkbench);
        QVERIFY(b.openInMainWindow());
        const auto run1 = opened.at(0).at(0).value<std::shared_ptr<const Analysis>>();
        QVERIFY(run1 && run1->result.rootCause);
        const QString session = b.openSession();

        // More evidence and a new run, as another client would add them.
        ServiceReply posted, attributed;
        QNetworkAccessManager net;
        QNetworkRequest req(QUrl(m_url + QStringLiteral("/v2/sessions/") + session +
                                 QStringLiteral("/observations?path=late/syslog-node-05.log&kind=syslog&node=node-05")));
        req.setRawHeader("Authorization", "Bearer workbench-test-token-0123456789");
        req.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("text/plain"));
        QNetworkReply* reply = net.post(req, QByteArray("Mar 14 10:01:00 node-05 kernel: NVRM: Xid (PCI:0000:41:00): 79, GPU has fallen off the bus.\n"));
        QSignalSpy finished(reply, &QNetworkReply::finished);
        QVERIFY2(finished.wait(60000), "no answer to the observation upload within 60 s");
        QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 201);
        reply->deleteLater();
        QObject asker;
        bool answered = false;
        b.client()->attribute(session, &asker, [&](const ServiceReply& r) { attributed = r; answered = true; });
        QTRY_VERIFY_WITH_TIMEOUT(answered, 120000);
        QVERIFY2(attributed.ok(), qPrintable(attributed.error));
        QCOMPARE(attributed.body.value("run", 0), 2);
        QVERIFY(attributed.body["result"] != b.result());

        WorkbenchView view;
        view.setAnalysis(run1);
        ServiceReview* review = ServiceReview::of(&view);
        QSignalSpy shown(review, &ServiceReview::rawShown);
        QSignalSpy traced(review, &ServiceReview::traceShown);
        review->attach(b.client(), session, b.openRun(), run1);
        QCOMPARE(review->run(), 1);
        QVERIFY2(shown.count() || shown.wait(60000), "no raw lines within 60 s");
        QTRY_VERIFY_WITH_TIMEOUT(!review->busy(), 120000);
        QVERIFY2(review->lastError().isEmpty(), qPrintable(review->lastError()));
        QVERIFY2(traced.count() && traced.last().at(0).toBool(), qPrintable(review->traceError()));
        // Every evidence item of run 1, also those run 2 numbers otherwise, shows run 1's lines.
        for (const EvidenceItem& e : run1->result.evidence) {
            view.focus()->selectEvidence(e.id);
            QTRY_VERIFY_WITH_TIMEOUT(!review->busy(), 60000);
            QVERIFY2(review->lastError().isEmpty(), qPrintable(review->lastError()));
            QTRY_VERIFY(view.raw()->view()->indexComplete());
            QCOMPARE(view.raw()->view()->lineText(e.ref.line), sampleLine(QString::fromStdString(e.file), e.ref.line));
        }
        // The phase stepper steps through run 1's trace: the local analysis of the same files has as many steps.
        AnalyzeOptions o;
        o.userConfigRules = false;
        WorkbenchView here;
        here.setAnalysis(std::make_shared<const Analysis>(analyze(FAULTLINE_SOURCE_DIR "/samples/xid149-nccl", o)));
        QCOMPARE(view.stepper()->steps().count(), here.stepper()->steps().count());
    }

    // Delete session: gone on the service (404 afterwards), out of the list, and the notes this workbench
    // kept for it removed; a second delete reports the service's 404.
    // A service that turns a request away (429 + Retry-After) is asked again after the wait: the submit
    // succeeds without the user resubmitting. Its own service, rate-limited to one request per 5 s: the
    // listing after connecting takes the one request, so the submit right after it is turned away.
    void aTurnedAwaySubmitIsSentAgain()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        RealService limited;
        const QString problem = limited.start(QStringLiteral(FAULTLINE_SERVICE), dir.path(), "workbench-test-token-0123456789",
                                              {QStringLiteral("--rate-limit"), QStringLiteral("0.2"),
                                               QStringLiteral("--rate-burst"), QStringLiteral("1")});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        ServiceBrowser b{QString()};
        QSignalSpy retries(b.findChild<ServiceClient*>(), &ServiceClient::retrying);
        QVERIFY(retries.isValid());
        b.setUrl(limited.url());
        b.setTokenFile(limited.tokenFile());
        QVERIFY(b.connectToService());
        QVERIFY(waitIdle(b));
        QVERIFY2(b.statusText().startsWith(QStringLiteral("Connected")) || b.statusText().contains(QStringLiteral("session")),
                 qPrintable(b.statusText()));
        b.submit(QStringLiteral(FAULTLINE_SOURCE_DIR "/samples/xid149-nccl"));  // a folder: its archive must outlive a retry
        QVERIFY(waitIdle(b));
        QVERIFY2(!b.openSession().isEmpty(), qPrintable(b.statusText()));
        QVERIFY2(!retries.isEmpty(), "the submit was never turned away: the test did not test the retry");
        QCOMPARE(retries.first().at(1).toInt(), 2);  // the second attempt
        QVERIFY(retries.first().at(0).toInt() >= 1 && retries.first().at(0).toInt() <= ServiceClient::kMaxRetryWaitS);
        QVERIFY2(retries.first().at(2).toString().contains(QStringLiteral("HTTP 429")), qPrintable(retries.first().at(2).toString()));
    }

    // A service whose connection threads are all taken answers 503 "unavailable" + Retry-After before
    // reading the request; the client asks again after the wait. Its own service with two HTTP threads and
    // no backlog: two idle connections that never finish their request hold both threads, so the listing
    // on connect is refused; they are closed before the Retry-After second is over, so the retry is served.
    void aServiceWithNoFreeThreadIsAskedAgain()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        RealService busy;
        const QString problem = busy.start(QStringLiteral(FAULTLINE_SERVICE), dir.path(), "workbench-test-token-0123456789",
                                           {QStringLiteral("--http-threads"), QStringLiteral("2"),
                                            QStringLiteral("--backlog"), QStringLiteral("0")});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const QUrl url(busy.url());
        std::vector<std::unique_ptr<QTcpSocket>> holders;
        for (int i = 0; i < 2; ++i) {
            holders.push_back(std::make_unique<QTcpSocket>());
            holders.back()->connectToHost(QHostAddress::LocalHost, static_cast<quint16>(url.port()));
            QVERIFY(holders.back()->waitForConnected(10000));
            holders.back()->write("GET /v2/healthz HTTP/1.1\r\n");  // headers never finished: the thread waits
            QVERIFY(holders.back()->waitForBytesWritten(10000));
        }
        QTest::qWait(300);  // both taken up by the service's two threads
        ServiceBrowser b{QString()};
        QSignalSpy retries(b.findChild<ServiceClient*>(), &ServiceClient::retrying);
        QVERIFY(retries.isValid());
        b.setUrl(busy.url());
        b.setTokenFile(busy.tokenFile());
        QVERIFY(b.connectToService());
        QTRY_VERIFY_WITH_TIMEOUT(!retries.isEmpty(), 20000);
        holders.clear();  // the threads come free before the retry is sent
        QVERIFY(waitIdle(b));
        QVERIFY2(b.statusText().startsWith(QStringLiteral("Connected")), qPrintable(b.statusText()));
        QCOMPARE(retries.count(), 1);
        QCOMPARE(retries.first().at(1).toInt(), 2);  // the second attempt
        QVERIFY(retries.first().at(0).toInt() >= 1 && retries.first().at(0).toInt() <= ServiceClient::kMaxRetryWaitS);
        QVERIFY2(retries.first().at(2).toString().contains(QStringLiteral("HTTP 503")), qPrintable(retries.first().at(2).toString()));
    }

    void deleteRemovesTheSessionAndItsNotes()
    {
        ServiceBrowser b{QString()};
        QVERIFY(submitSample(b, QStringLiteral("xid149-nccl")));
        const QString session = b.openSession();
        QSignalSpy opened(&b, &ServiceBrowser::openInWorkbench);
        QVERIFY(b.openInMainWindow());
        const auto service = opened.at(0).at(0).value<std::shared_ptr<const Analysis>>();
        QString notesPath;
        {
            WorkbenchView view;
            view.setAnalysis(service);
            ServiceReview::of(&view)->attach(b.client(), session, b.openRun(), service);
            QVERIFY(view.setEvidenceNote(service->result.evidence.front().id, QStringLiteral("to go")));
            notesPath = view.notes()->path();
            QTRY_VERIFY_WITH_TIMEOUT(!ServiceReview::of(&view)->busy(), 60000);
        }
        QVERIFY2(QFileInfo::exists(notesPath), qPrintable(notesPath));

        QSignalSpy deleted(&b, &ServiceBrowser::sessionDeleted);
        b.deleteSession(session);
        QVERIFY(b.busy());
        QVERIFY(waitIdle(b));
        QVERIFY2(b.statusText().startsWith(QStringLiteral("Deleted ") + session), qPrintable(b.statusText()));
        QCOMPARE(deleted.count(), 1);
        QVERIFY2(!QFileInfo::exists(notesPath), qPrintable(notesPath));
        QVERIFY(b.openSession().isEmpty());  // the open result was that session's
        QVERIFY(!b.openInMainWindow());
        for (int i = 0; i < b.sessions()->rowCount(); ++i)
            QVERIFY(b.sessions()->session(i)->id != session);

        QObject asker;
        ServiceReply gone;
        bool answered = false;
        b.client()->result(session, 0, &asker, [&](const ServiceReply& r) { gone = r; answered = true; });
        QTRY_VERIFY_WITH_TIMEOUT(answered, 60000);
        QCOMPARE(gone.status, 404);

        b.deleteSession(session);
        QVERIFY(waitIdle(b));
        QVERIFY2(b.statusText().contains(QStringLiteral("HTTP 404 not_found")), qPrintable(b.statusText()));
    }
};

QTEST_MAIN(TestServiceBrowser)
#include "test_servicebrowser.moc"

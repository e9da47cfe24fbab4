// SPDX-License-Identifier: MIT
// File → Connect to service…, end to end, as a person uses it: the real MainWindow (offscreen) opens a sample
// bundle, its File menu opens the service window, whose fields and buttons connect to a REAL faultline-service
// (started here on a free loopback port, with a token), submit the open bundle (answering the question the
// window asks), open the result in the main window (raw lines and trace of that run fetched from the
// service), write a reviewer note, re-run attribution, delete the session (its open notes closed and removed), and close the main window while a fetch is in flight.
// File → Copy link on a service result names the service, session and run, and the link (faultline --state
// LINK) reopens that run in another window at the same tab, selection and window.
// Every wait is bounded and fails saying what did not come.
#include "qtplugins.h"
#include "realservice.h"
#include "mainwindow.h"
#include "servicestart.h"
#include "views/workbench/workbenchstate.h"
#include "views/common/focusstate.h"
#include "views/store/notesstore.h"
#include "views/teach/phasestepperpanel.h"
#include "views/evidence/rawfilepanel.h"
#include "views/evidence/rawfileview.h"
#include "views/baseline/baselinepanel.h"
#include "views/history/historypanel.h"
#include "views/service/servicebrowser.h"
#include "views/service/servicereview.h"
#include "views/models/sessionlistmodel.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QNetworkReply>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace fl;

namespace {
const QString kSample = QStringLiteral(FAULTLINE_SOURCE_DIR "/samples/xid149-nccl");

QString sampleLine(const std::string& file, uint32_t line)
{
    QFile f(kSample + QLatin1Char('/') + QString::fromStdString(file));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QList<QByteArray> lines = f.readAll().split('\n');
    return line >= 1 && line <= uint32_t(lines.size()) ? QString::fromUtf8(lines[line - 1]) : QString();
}

// Lines of a sample file as a viewer counts them: a final newline ends the last line, it starts none.
uint64_t sampleLineCount(const std::string& file)
{
    QFile f(kSample + QLatin1Char('/') + QString::fromStdString(file));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray d = f.readAll();
    return static_cast<uint64_t>(d.count('\n') + (d.isEmpty() || d.endsWith('\n') ? 0 : 1));
}

QPushButton* button(QWidget* in, const QString& text)
{
    for (QPushButton* b : in->findChildren<QPushButton*>())
        if (b->text() == text)
            return b;
    return nullptr;
}

QAction* menuAction(QMainWindow& w, const QString& menu, const QString& action)
{
    for (QAction* m : w.menuBar()->actions())
        if (m->text() == menu && m->menu())
            for (QAction* a : m->menu()->actions())
                if (a->text() == action)
                    return a;
    return nullptr;
}

// Answers the next question box with `answer`, from inside its exec(), as a person would click it. Polls for
// 20 s at most, then gives up (the caller's checks then fail naming the question that never came).
struct QuestionAnswerer : QObject {
    QString text;
    bool answered = false;
    explicit QuestionAnswerer(QMessageBox::StandardButton answer)
    {
        auto* timer = new QTimer(this);
        timer->setInterval(50);
        connect(timer, &QTimer::timeout, this, [this, timer, answer, ticks = 0]() mutable {
            for (QWidget* top : QApplication::topLevelWidgets())
                if (auto* box = qobject_cast<QMessageBox*>(top); box && box->isVisible()) {
                    text = box->text();
                    answered = true;
                    timer->stop();
                    if (QAbstractButton* b = box->button(answer))
                        b->click();
                    else
                        box->reject();
                    return;
                }
            if (++ticks > 400)
                timer->stop();
        });
        timer->start();
    }
};

bool waitIdle(ServiceBrowser& b, int ms = 120000)
{
    if (!b.busy())
        return true;
    QSignalSpy idle(&b, &ServiceBrowser::idle);
    return idle.wait(ms);
}
} // namespace

class TestServiceMenu : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    RealService m_service;
    QString m_url;
    QString m_tokenFile;

private slots:
    void initTestCase()
    {
        FL_REQUIRE_SQLITE_DRIVER();
        QStandardPaths::setTestModeEnabled(true);  // notes and history go to a test data folder
        QVERIFY(m_dir.isValid());
        const QString problem = m_service.start(QStringLiteral(FAULTLINE_SERVICE), m_dir.path(), "menu-test-token-0123456789abcdef");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        m_url = m_service.url();
        m_tokenFile = m_service.tokenFile();
    }

    void connectSubmitOpenRerunDeleteClose()
    {
        auto* w = new MainWindow;
        QPointer<MainWindow> alive(w);
        w->resize(1400, 900);
        w->show();
        {
            QSignalSpy done(w, &MainWindow::analysisFinished);
            w->openPath(kSample);
            QVERIFY2(done.count() || done.wait(120000), "the sample was not analysed within 120 s");
            QVERIFY2(done.last().at(0).toBool(), qPrintable(w->lastError()));
        }

        // File → Connect to service…: one window, offering the open bundle.
        QAction* connectAction = menuAction(*w, tr("&File"), tr("&Connect to service…"));
        QVERIFY2(connectAction, "no File → Connect to service… in the menu bar");
        connectAction->trigger();
        auto* browser = w->findChild<ServiceBrowser*>();
        QVERIFY(browser);
        QVERIFY(browser->isVisible());
        connectAction->trigger();
        QCOMPARE(w->findChildren<ServiceBrowser*>().size(), qsizetype(1));

        // Typed into the fields, then Connect.
        auto* url = browser->findChild<QLineEdit*>(QStringLiteral("serviceUrl"));
        auto* token = browser->findChild<QLineEdit*>(QStringLiteral("serviceTokenFile"));
        QVERIFY(url && token);
        url->clear();
        QTest::keyClicks(url, m_url);
        token->setText(m_tokenFile);
        QPushButton* connectButton = button(browser, tr("Connect"));
        QVERIFY(connectButton);
        QTest::mouseClick(connectButton, Qt::LeftButton);
        QVERIFY2(waitIdle(*browser), "no answer from the service to Connect within 120 s");
        QVERIFY2(browser->statusText().startsWith(QStringLiteral("Connected: faultline-service")), qPrintable(browser->statusText()));

        // Submit bundle…: the window asks whether to submit the bundle open in the workbench; yes.
        {
            QuestionAnswerer yes(QMessageBox::Yes);
            QTest::mouseClick(button(browser, tr("Submit bundle…")), Qt::LeftButton);
            QVERIFY2(yes.answered, "no question whether to submit the open bundle");
            QVERIFY2(yes.text.contains(kSample), qPrintable(yes.text));
        }
        QVERIFY2(waitIdle(*browser), "the submitted bundle was not analysed within 120 s");
        QVERIFY2(browser->statusText().contains(QStringLiteral("Submitted xid149-nccl as session")), qPrintable(browser->statusText()));
        const QString session = browser->openSession();
        QCOMPARE(browser->openRun(), 1);
        QCOMPARE(browser->sessions()->rowCount(), 1);

        // Open result, then Open in workbench: the main window shows it, its raw lines and trace from the service.
        browser->sessionView()->selectRow(0);
        QTest::mouseClick(button(browser, tr("Open result")), Qt::LeftButton);
        QVERIFY2(waitIdle(*browser), "the result was not fetched within 120 s");
        QCOMPARE(browser->openSession(), session);
        QCOMPARE(browser->openRun(), 1);
        auto* review = ServiceReview::of(w->workbench());
        QSignalSpy shown(review, &ServiceReview::rawShown);
        QSignalSpy traced(review, &ServiceReview::traceShown);
        QSignalSpy finished(w, &MainWindow::analysisFinished);
        QPushButton* toWorkbench = button(browser, tr("Open in workbench"));
        QVERIFY(toWorkbench && toWorkbench->isEnabled());
        QTest::mouseClick(toWorkbench, Qt::LeftButton);
        QCOMPARE(finished.count(), 1);
        QVERIFY2(w->windowTitle().contains(session), qPrintable(w->windowTitle()));
        const auto shownAnalysis = w->workbench()->analysis();
        QVERIFY(shownAnalysis && shownAnalysis->result.rootCause);
        QCOMPARE(QString::fromStdString(shownAnalysis->result.rootCause->node), QStringLiteral("node-02"));
        QVERIFY(review->active());
        QCOMPARE(review->sessionId(), session);
        QCOMPARE(review->run(), 1);
        QVERIFY2(shown.count() || shown.wait(60000), "no raw lines of the root cause within 60 s");
        QVERIFY2(traced.count() || traced.wait(120000), "no phase trace within 120 s");
        QVERIFY2(traced.last().at(0).toBool(), qPrintable(review->traceError()));
        QVERIFY(w->workbench()->stepper()->steps().count() > 3);
        const fl::EvidenceId rootId = shownAnalysis->result.rootCause->evidence.front();
        const EvidenceItem* root = nullptr;
        for (const EvidenceItem& e : shownAnalysis->result.evidence)
            if (e.id == rootId)
                root = &e;
        QVERIFY(root);
        RawFileView* raw = w->workbench()->raw()->view();
        QTRY_VERIFY_WITH_TIMEOUT(raw->indexComplete(), 10000);
        QVERIFY2(review->lastError().isEmpty(), qPrintable(review->lastError()));
        QCOMPARE(raw->lineText(root->ref.line), sampleLine(root->file, root->ref.line));
        QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("from the service")),
                 qPrintable(w->statusBar()->currentMessage()));
        // The History tab asks the service's history (no database is open here): this run's own cause at its node.
        auto* history = w->workbench()->panelAs<HistoryPanel>(QStringLiteral("history"));
        QVERIFY(history);
        QTRY_VERIFY_WITH_TIMEOUT(history->headline()->text().startsWith(QStringLiteral("From the service")), 30000);
        QVERIFY2(history->headline()->text().contains(QStringLiteral("in no other job")), qPrintable(history->headline()->text()));
        QVERIFY(history->model()->rowCount() >= 1);
        QVERIFY(history->model()->row(0).rootCause);
        QCOMPARE(QString::fromStdString(history->model()->row(0).place.node), QStringLiteral("node-02"));
        // A reviewer note on the root cause: kept per service and session, in a file the main window holds open.
        const QString notesKey = ServiceReview::notesKey(browser->client()->baseUrl(), session);
        const QString notesFile = NotesStore::besidePath(notesKey);
        QVERIFY2(w->workbench()->setEvidenceNote(rootId, QStringLiteral("XID line checked")),
                 qPrintable(w->workbench()->notes()->error()));
        QVERIFY2(QFileInfo::exists(notesFile), qPrintable(notesFile));
        QVERIFY(w->workbench()->notes()->isOpen());
        if (const QString shots = qEnvironmentVariable("FAULTLINE_SCREENSHOTS"); !shots.isEmpty())
            w->grab().save(shots + QStringLiteral("/service-menu-workbench.png"));

        // Re-run attribution: run 2 on the service; the main window still reviews run 1.
        browser->sessionView()->selectRow(0);
        QTest::mouseClick(button(browser, tr("Re-run attribution")), Qt::LeftButton);
        QVERIFY2(waitIdle(*browser), "the re-run did not finish within 120 s");
        QVERIFY2(browser->statusText().contains(QStringLiteral("Run 2 of ") + session), qPrintable(browser->statusText()));
        const EvidenceItem& last = shownAnalysis->result.evidence.back();
        w->workbench()->focus()->selectEvidence(last.id);
        QTRY_VERIFY_WITH_TIMEOUT(!review->busy(), 60000);
        QVERIFY2(review->lastError().isEmpty(), qPrintable(review->lastError()));
        QTRY_VERIFY_WITH_TIMEOUT(raw->indexComplete(), 10000);
        QCOMPARE(raw->lineText(last.ref.line), sampleLine(last.file, last.ref.line));
        // Evidence near the end of its file: the viewer shows as many lines as the file has, not a blank one
        // after its final newline (the service sent one: "line 4 / 8" under a 7-line file).
        const EvidenceItem* nearEnd = nullptr;
        for (const EvidenceItem& e : shownAnalysis->result.evidence)
            if (!nearEnd && e.ref.line + 5 >= sampleLineCount(e.file))
                nearEnd = &e;
        QVERIFY2(nearEnd, "the sample has no evidence within 5 lines of its file's end");
        w->workbench()->focus()->selectEvidence(nearEnd->id);
        QTRY_VERIFY_WITH_TIMEOUT(!review->busy(), 60000);
        QVERIFY2(review->lastError().isEmpty(), qPrintable(review->lastError()));
        QTRY_VERIFY_WITH_TIMEOUT(raw->indexComplete(), 10000);
        QCOMPARE(raw->lineCount(), sampleLineCount(nearEnd->file));
        QCOMPARE(raw->lineText(raw->lineCount()), sampleLine(nearEnd->file, static_cast<uint32_t>(raw->lineCount())));

        // Delete session…: asked, then gone on the service; the main window's next fetch says so.
        browser->sessionView()->selectRow(0);
        {
            QuestionAnswerer yes(QMessageBox::Yes);
            QTest::mouseClick(button(browser, tr("Delete session…")), Qt::LeftButton);
            QVERIFY2(yes.answered, "no question before deleting");
            QVERIFY2(yes.text.contains(session), qPrintable(yes.text));
        }
        QVERIFY2(waitIdle(*browser), "the delete was not answered within 120 s");
        QVERIFY2(browser->statusText().startsWith(QStringLiteral("Deleted ") + session), qPrintable(browser->statusText()));
        QCOMPARE(browser->sessions()->rowCount(), 0);
        // Its notes went with it, and the main window, which had them open, closed them first: a note written
        // now neither goes to the removed file (failing with "attempt to write a readonly database") nor
        // makes a notes file again for a session that is gone; the window says why.
        QVERIFY2(!QFileInfo::exists(notesFile), qPrintable(notesFile));
        QVERIFY2(!w->workbench()->notes()->isOpen(), "the main window still holds the deleted session's notes file open");
        QVERIFY(review->notesClosed());
        QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("was deleted on the service")),
                 qPrintable(w->statusBar()->currentMessage()));
        {
            QuestionAnswerer ok(QMessageBox::Ok);  // the main window's "Notes not saved" warning
            QVERIFY(!w->workbench()->setEvidenceNote(rootId, QStringLiteral("after the deletion")));
        }
        QVERIFY(!QFileInfo::exists(notesFile));
        QVERIFY(!QFileInfo::exists(NotesStore::fallbackPath(notesKey)));
        w->workbench()->focus()->selectEvidence(rootId);
        QTRY_VERIFY_WITH_TIMEOUT(!review->busy(), 60000);
        QVERIFY2(review->lastError().contains(QStringLiteral("HTTP 404")), qPrintable(review->lastError()));

        // Closed while a fetch is in flight: nothing is called back on the destroyed window.
        w->workbench()->focus()->selectEvidence(last.id);
        QVERIFY(review->busy());
        delete w;
        QVERIFY(!alive);
        QTest::qWait(500);  // the aborted reply's events, delivered to nobody
    }

    // Compare with… in the session list: the failed attempt attributed against the healthy one's session, and the
    // healthy result fetched, so the workbench's Baseline tab puts both on one time axis.
    void compareWithFromTheSessionList()
    {
        MainWindow w;
        w.resize(1400, 900);
        ServiceBrowser* browser = w.serviceBrowser();
        browser->setUrl(m_url);
        browser->setTokenFile(m_tokenFile);
        QVERIFY(browser->connectToService());
        QVERIFY2(waitIdle(*browser), "no answer from the service to Connect within 120 s");
        const QString pair = QStringLiteral(FAULTLINE_SOURCE_DIR "/samples/baseline-pair/");
        browser->submit(pair + QStringLiteral("healthy"));
        QVERIFY2(waitIdle(*browser), "the healthy attempt was not analysed within 120 s");
        const QString healthy = browser->openSession();
        browser->submit(pair + QStringLiteral("failed"));
        QVERIFY2(waitIdle(*browser), "the failed attempt was not analysed within 120 s");
        const QString failed = browser->openSession();
        QVERIFY(!healthy.isEmpty() && !failed.isEmpty() && healthy != failed);
        QVERIFY(button(browser, tr("Compare with…")));
        browser->sessionView()->selectRow(browser->sessions()->rowOfSession(failed));
        browser->compareSelected(healthy);
        QVERIFY2(waitIdle(*browser), "the comparison did not finish within 120 s");
        QVERIFY2(browser->lastError().isEmpty(), qPrintable(browser->lastError()));
        QCOMPARE(browser->openSession(), failed);
        QVERIFY(browser->result().contains("baseline"));
        QVERIFY(browser->openBaseline());
        QVERIFY(browser->openInMainWindow());
        QCOMPARE(w.workbench()->baselineAttempt(), browser->openBaseline());
        auto* base = w.workbench()->panelAs<BaselinePanel>(QStringLiteral("baseline"));
        QVERIFY(base);
        QVERIFY2(base->axisModel()->rowCount() > 3, qPrintable(base->axisHeadline()->text()));
        QCOMPARE(base->axisModel()->row(0).kind, BaselineRow::Kind::NewFamily);
        QVERIFY(base->axisHeadline()->text().contains(healthy));

        for (const QString& id : {healthy, failed}) {
            browser->deleteSession(id);
            QVERIFY(waitIdle(*browser));
        }
    }

    void copyLinkReopensTheServiceRun()
    {
        MainWindow first;
        first.resize(1400, 900);
        ServiceBrowser* browser = first.serviceBrowser();
        browser->setUrl(m_url);
        browser->setTokenFile(m_tokenFile);
        QVERIFY(browser->connectToService());
        QVERIFY2(waitIdle(*browser), "no answer from the service to Connect within 120 s");
        browser->submit(kSample);
        QVERIFY2(waitIdle(*browser), "the submitted bundle was not analysed within 120 s");
        const QString session = browser->openSession();
        QVERIFY(!session.isEmpty());
        // Run 2 exists: the link must name the run shown (1), not "the latest".
        browser->sessionView()->selectRow(browser->sessions()->rowOfSession(session));
        browser->rerunSelected();
        QVERIFY2(waitIdle(*browser), "the re-run did not finish within 120 s");
        browser->openSession(session, 1);
        QVERIFY2(waitIdle(*browser), "run 1 was not fetched within 120 s");
        QCOMPARE(browser->openRun(), 1);
        QVERIFY(browser->openInMainWindow());
        const auto shown = first.workbench()->analysis();
        QVERIFY(shown && shown->result.rootCause);

        // The reviewer's view: the Explanation tab, the root cause's evidence, a window around it.
        WorkbenchView* wb = first.workbench();
        wb->sideTabs()->setCurrentWidget(wb->explanation());
        const EvidenceId root = shown->result.rootCause->evidence.front();
        wb->focus()->selectEvidence(root);
        const int64_t at = shown->result.rootCause->time.ns;
        wb->focus()->setTimeWindow(at - 5'000'000'000, at + 5'000'000'000);
        QString why;
        const QString link = first.stateLink(&why);
        QVERIFY2(!link.isEmpty(), qPrintable(why));
        QVERIFY2(link.startsWith(QStringLiteral("faultline:?service=")) && link.contains(QStringLiteral("&session=") + session) &&
                     link.contains(QStringLiteral("&run=1&")) && link.contains(QStringLiteral("tab=explanation")) &&
                     link.contains(QStringLiteral("select=") + QString::fromStdString(toString(root))) &&
                     !link.contains(QStringLiteral("bundle=")),
                 qPrintable(link));
        QAction* copy = menuAction(first, tr("&File"), tr("Copy &link"));
        QVERIFY(copy);
        copy->trigger();
        QCOMPARE(QApplication::clipboard()->text(), link);

        // faultline --state LINK --token-file FILE: another window opens run 1 of the session at that view.
        const store::WorkbenchState state = store::stateFromLink(link.toStdString());
        QCOMPARE(state.run, 1);
        MainWindow second;
        second.resize(1400, 900);
        ServiceStart start(&second, state, m_tokenFile);
        QSignalSpy finished(&start, &ServiceStart::finished);
        start.start();
        QVERIFY2(finished.count() || finished.wait(120000), "the linked session was not opened within 120 s");
        QVERIFY2(finished.last().at(0).toString().isEmpty(), qPrintable(finished.last().at(0).toString()));
        auto* review = ServiceReview::of(second.workbench());
        QVERIFY(review->active());
        QCOMPARE(review->sessionId(), session);
        QCOMPARE(review->run(), 1);
        QCOMPARE(second.workbench()->sideTabs()->currentWidget(), static_cast<QWidget*>(second.workbench()->explanation()));
        QCOMPARE(second.workbench()->focus()->current().evidence, std::optional<EvidenceId>(root));
        QCOMPARE(second.workbench()->focus()->current().startNs, wb->focus()->current().startNs);
        QCOMPARE(second.workbench()->focus()->current().endNs, wb->focus()->current().endNs);
        QCOMPARE(second.stateLink(), link);

        // A run the session does not have is refused, saying so.
        store::WorkbenchState missing = state;
        missing.run = 9;
        MainWindow third;
        ServiceStart none(&third, missing, m_tokenFile);
        QSignalSpy refused(&none, &ServiceStart::finished);
        none.start();
        QVERIFY2(refused.count() || refused.wait(120000), "no answer for run 9 within 120 s");
        QVERIFY2(refused.last().at(0).toString().contains(QStringLiteral("404")), qPrintable(refused.last().at(0).toString()));
        browser->deleteSession(session);
        QVERIFY(waitIdle(*browser));
    }

    // A service session's History tab: the root cause's row opens the result another job (another workload id)
    // stored at that GPU, fetched from the service. The same sample under another workload id is that other job.
    void historyRowOpensAnotherJobsResult()
    {
        QTemporaryDir other;
        QVERIFY(other.isValid());
        const QDir sample(kSample);
        for (const QString& name : sample.entryList(QDir::Files)) {
            QFile in(sample.filePath(name));
            QVERIFY(in.open(QIODevice::ReadOnly));
            QByteArray data = in.readAll();
            if (name == QStringLiteral("workload.json")) {
                QVERIFY(data.contains("\"gpt-8b-pretrain-7731\""));
                data.replace("\"gpt-8b-pretrain-7731\"", "\"gpt-8b-pretrain-9901\"");
            }
            QFile out(other.filePath(name));
            QVERIFY(out.open(QIODevice::WriteOnly) && out.write(data) == data.size());
        }
        MainWindow w;
        w.resize(1400, 900);
        ServiceBrowser* browser = w.serviceBrowser();
        browser->setUrl(m_url);
        browser->setTokenFile(m_tokenFile);
        QVERIFY(browser->connectToService());
        QVERIFY2(waitIdle(*browser), "no answer from the service to Connect within 120 s");
        browser->submit(other.path());
        QVERIFY2(waitIdle(*browser), "the other job was not analysed within 120 s");
        const QString otherSession = browser->openSession();
        browser->submit(kSample);
        QVERIFY2(waitIdle(*browser), "the sample was not analysed within 120 s");
        const QString session = browser->openSession();
        QVERIFY(!otherSession.isEmpty() && !session.isEmpty() && otherSession != session);
        QVERIFY(browser->openInMainWindow());

        auto* history = w.workbench()->panelAs<HistoryPanel>(QStringLiteral("history"));
        QVERIFY(history);
        QTRY_VERIFY_WITH_TIMEOUT(history->headline()->text().startsWith(QStringLiteral("From the service")), 30000);
        QVERIFY2(!history->headline()->text().contains(QStringLiteral("in no other job")), qPrintable(history->headline()->text()));
        QVERIFY(history->model()->rowCount() >= 1 && history->model()->row(0).rootCause);
        qRegisterMetaType<std::shared_ptr<const fl::Analysis>>();
        QSignalSpy opened(history, &HistoryPanel::openResult);
        history->openRow(0);
        QVERIFY2(opened.count() || opened.wait(120000), qPrintable(history->openNote()->text()));
        const QString title = opened.last().at(1).toString();
        QVERIFY2(title.contains(otherSession) && title.contains(QStringLiteral("gpt-8b-pretrain-9901")), qPrintable(title));
        const auto past = opened.last().at(0).value<std::shared_ptr<const fl::Analysis>>();
        QVERIFY(past && past->result.rootCause);
        QCOMPARE(QString::fromStdString(past->result.rootCause->node), QStringLiteral("node-02"));
        // Another row (not the root cause's place) says its results are counted, not listed.
        for (int row = 1; row < history->model()->rowCount(); ++row)
            if (!history->model()->row(row).rootCause) {
                history->openRow(row);
                QVERIFY2(history->openNote()->text().contains(QStringLiteral("counted")), qPrintable(history->openNote()->text()));
                break;
            }
        for (const QString& id : {otherSession, session}) {
            browser->deleteSession(id);
            QVERIFY(waitIdle(*browser));
        }
    }
};

QTEST_MAIN(TestServiceMenu)
#include "test_servicemenu.moc"

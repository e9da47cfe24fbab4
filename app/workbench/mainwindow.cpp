// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "commandpalette.h"
#include "progressgate.h"
#include "views/export/reportexport.h"
#include "views/service/servicebrowser.h"
#include "views/service/servicereview.h"
#include "views/common/viewstyle.h"
#include "exercise/score.h"
#include "baseline/compare.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QDebug>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

namespace fl {

namespace {
constexpr int kMaxRecent = 15;

// Runs on a worker thread: everything it touches is its own or atomic.
AnalysisOutcome runAnalysis(const QString& path, const QString& baselinePath, std::shared_ptr<std::atomic<bool>> cancel,
                            QPointer<MainWindow> window)
{
    Progress progress;
    progress.cancel = cancel.get();
    // Scan threads call `report` concurrently. It posts at most every 50 ms
    // so the event queue never floods; the throttle is one atomic (the time
    // of the last post), claimed by compare-exchange, so two threads never
    // write shared state unsynchronised. The window outlives the worker (its
    // destructor waits).
    progress.report = [window, gate = std::make_shared<ProgressGate>()](std::string_view stage, uint64_t done, uint64_t total) {
        if (!gate->claim(done >= total))
            return;
        const QString s = QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()));
        QMetaObject::invokeMethod(
            window.data(), [window, s, done, total] {
                if (window)
                    window->onProgress(s, done, total);
            },
            Qt::QueuedConnection);
    };
    try {
        AnalyzeOptions options;
        // Series without their samples: the metric plots read the few they draw
        // from the files (MetricsPanel::prepare); a 10,000-rank bundle's 6.5
        // million samples were ~200 MB and a third of the open.
        options.keepMetricSamples = false;
        Analysis failed = analyze(path.toStdString(), options, progress);
        std::shared_ptr<const BaselineAttempt> kept;
        if (!baselinePath.isEmpty()) {
            // A healthy attempt of the same job: the Baseline tab shows what is new against it (analyze --baseline),
            // and keeps its result (not its lines) to put both attempts on one time axis.
            try {
                Analysis healthy = analyze(baselinePath.toStdString(), options);
                auto comparison = std::make_shared<const BaselineComparison>(baseline::compare(failed, healthy));
                failed.result.baseline = comparison;
                kept = keepBaselineAttempt(std::move(healthy), std::move(comparison), baselinePath);
            } catch (const BundleError& e) {
                return QObject::tr("Cannot open the baseline %1:\n%2").arg(QString::fromStdString(e.file), QString::fromUtf8(e.what()));
            }
        }
        return OpenedAnalysis{std::make_shared<const Analysis>(std::move(failed)), std::move(kept)};
    } catch (const BundleError& e) {
        return QObject::tr("Cannot open bundle %1:\n%2").arg(QString::fromStdString(e.file), QString::fromUtf8(e.what()));
    } catch (const RuleError& e) {
        return QObject::tr("Rule error in %1:%2:%3:\n%4")
            .arg(QString::fromStdString(e.file))
            .arg(e.line)
            .arg(e.column)
            .arg(QString::fromUtf8(e.what()));
    } catch (const std::exception& e) {
        return QObject::tr("Analysis of %1 failed:\n%2").arg(path, QString::fromUtf8(e.what()));
    }
}
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_workbench(new WorkbenchView(this))
    , m_progress(new QProgressBar(this))
    , m_stage(new QLabel(this))
    , m_notesProblem(new QLabel(this))
    , m_cancelButton(new QPushButton(tr("Cancel"), this))
    , m_history(std::make_unique<HistoryStore>())
{
    setWindowTitle(tr("Faultline"));
    setCentralWidget(m_workbench);
    setAcceptDrops(true);
    m_progress->setMaximumWidth(240);
    m_progress->setTextVisible(false);
    // Stays in the status bar while notes cannot be stored, unlike the passing messages.
    m_notesProblem->setObjectName(QStringLiteral("notesProblem"));
    m_notesProblem->setStyleSheet(QStringLiteral("color: #b3261e;"));
    m_notesProblem->hide();
    statusBar()->addPermanentWidget(m_notesProblem);
    statusBar()->addPermanentWidget(m_stage);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancelButton);
    m_progress->hide();
    m_cancelButton->hide();
    connect(m_cancelButton, &QPushButton::clicked, this, &MainWindow::cancelAnalysis);
    connect(&m_watcher, &QFutureWatcher<AnalysisOutcome>::finished, this, &MainWindow::onFinished);
    buildActions();
    connect(m_workbench, &WorkbenchView::notesError, this, &MainWindow::showNotesProblem);
    connect(m_workbench, &WorkbenchView::viewsReady, this, &MainWindow::onViewsReady);
    connect(m_workbench, &WorkbenchView::notesChanged, this, [this] {
        if (!m_path.isEmpty() && m_workbench->analysis() && QFileInfo::exists(m_path)) {  // not a service session
            addRecent(m_path);
        }
    });
    statusBar()->showMessage(tr("Open a bundle folder or archive (Ctrl+O), or drop one here."));
}

MainWindow::~MainWindow()
{
    // The worker reads nothing of ours but the cancel flag it co-owns; let it stop.
    if (m_cancel)
        m_cancel->store(true);
    m_watcher.waitForFinished();
}

ServiceBrowser* MainWindow::serviceBrowser()
{
    auto* browser = findChild<ServiceBrowser*>();  // one window, kept with what it showed
    if (!browser) {
        browser = new ServiceBrowser(m_path, this);
        // Reviewed like a local result: raw lines fetched per evidence item, notes per session.
        auto* review = ServiceReview::of(m_workbench);
        connect(review, &ServiceReview::message, this, [this](const QString& m) { statusBar()->showMessage(m, 15000); });
        connect(browser, &ServiceBrowser::openInWorkbench, this,
                [this, browser, review](std::shared_ptr<const Analysis> a, const QString& title) {
                    showAnalysis(a, title, browser->openBaseline());
                    review->attach(browser->client(), browser->openSession(), browser->openRun(), a);
                });
    }
    browser->setOpenBundle(QFileInfo::exists(m_path) ? m_path : QString());
    return browser;
}

void MainWindow::buildActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open archive…"), this, [this] { openDialog(false); });
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &folder…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this, [this] { openDialog(true); });
    file->addAction(tr("Open &against a baseline…"), this, &MainWindow::openAgainstDialog);
    m_recentMenu = file->addMenu(tr("&Recent investigations"));
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction(tr("&Save notes as…"), this, &MainWindow::saveNotesAsDialog);
    file->addAction(tr("&Export report…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                    [this] { exportReportDialog(this, *m_workbench, m_path); });
    file->addAction(tr("E&xercises…"), this, &MainWindow::showExercises);
    file->addAction(tr("&New exercise…"), this, &MainWindow::newExercise);
    file->addAction(tr("Open exerc&ise…"), this, &MainWindow::openExercise);
    file->addAction(tr("Copy &link"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this, &MainWindow::copyLink);
    file->addAction(tr("&Connect to service…"), this, [this] {
        ServiceBrowser* browser = serviceBrowser();
        browser->show();
        browser->raise();
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    FocusState* focus = m_workbench->focus();
    QMenu* go = menuBar()->addMenu(tr("&Go"));
    QAction* back = go->addAction(tr("&Back"), QKeySequence(Qt::ALT | Qt::Key_Left), focus, &FocusState::back);
    QAction* fwd = go->addAction(tr("&Forward"), QKeySequence(Qt::ALT | Qt::Key_Right), focus, &FocusState::forward);
    auto syncHistory = [back, fwd, focus] {
        back->setEnabled(focus->canGoBack());
        fwd->setEnabled(focus->canGoForward());
    };
    connect(focus, &FocusState::historyChanged, this, syncHistory);
    syncHistory();
    go->addSeparator();
    go->addAction(tr("&Next evidence"), QKeySequence(Qt::Key_F8), m_workbench->evidence(), &EvidencePanel::selectNext);
    go->addAction(tr("&Previous evidence"), QKeySequence(Qt::SHIFT | Qt::Key_F8), m_workbench->evidence(),
                  &EvidencePanel::selectPrevious);
    go->addAction(tr("Go to &root cause"), QKeySequence(Qt::CTRL | Qt::Key_R), this, [this] {
        const auto a = m_workbench->analysis();
        if (a && a->result.rootCause)
            m_workbench->focus()->selectEvent(a->result.rootCause->event);
    });

    go->addSeparator();
    go->addAction(tr("Next &bookmark"), QKeySequence(Qt::Key_F2), this, [this] { m_workbench->raw()->view()->goToBookmark(true); });
    go->addAction(tr("Previous b&ookmark"), QKeySequence(Qt::SHIFT | Qt::Key_F2), this,
                  [this] { m_workbench->raw()->view()->goToBookmark(false); });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    TimelineView* tl = m_workbench->timeline()->view();
    view->addAction(tr("&Fit timeline to incident"), QKeySequence(Qt::Key_F), tl, &TimelineView::fitToIncident);
    view->addAction(tr("Show &all events"), QKeySequence(Qt::SHIFT | Qt::Key_F), tl, &TimelineView::fitAll);
    auto tab = [this](QTabWidget* tabs, QWidget* w) {
        return [tabs, w] { tabs->setCurrentWidget(w); w->setFocus(); };
    };
    view->addSeparator();
    view->addAction(tr("Timeline"), QKeySequence(Qt::CTRL | Qt::Key_1), this, tab(m_workbench->centreTabs(), m_workbench->timeline()));
    view->addAction(tr("Symptom chain"), QKeySequence(Qt::CTRL | Qt::Key_2), this, tab(m_workbench->centreTabs(), m_workbench->chain()));
    view->addAction(tr("Metrics"), QKeySequence(Qt::CTRL | Qt::Key_3), this, tab(m_workbench->centreTabs(), m_workbench->metrics()));
    view->addAction(tr("Verdict"), QKeySequence(Qt::CTRL | Qt::Key_4), this, tab(m_workbench->sideTabs(), m_workbench->verdict()));
    view->addAction(tr("Explanation"), QKeySequence(Qt::CTRL | Qt::Key_5), this, tab(m_workbench->sideTabs(), m_workbench->explanation()));
    view->addAction(tr("Teach: phase stepper"), QKeySequence(Qt::CTRL | Qt::Key_6), this, tab(m_workbench->sideTabs(), m_workbench->stepper()));
    view->addAction(tr("Filter lanes"), QKeySequence(Qt::CTRL | Qt::Key_L), this, [this] {
        m_workbench->centreTabs()->setCurrentWidget(m_workbench->timeline());
        m_workbench->timeline()->filterEdit()->setFocus();
    });
    view->addAction(tr("Find in raw file"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F), m_workbench->raw(), &RawFilePanel::focusSearch);
    view->addSeparator();
    view->addAction(tr("Command palette…"), QKeySequence(Qt::CTRL | Qt::Key_K), this, &MainWindow::showCommandPalette);
}

void MainWindow::showCommandPalette()
{
    QList<QAction*> actions;
    for (QAction* menu : menuBar()->actions())
        if (menu->menu())
            for (QAction* a : menu->menu()->actions())
                if (!a->isSeparator() && !a->menu())
                    actions << a;
    auto* palette = new CommandPalette(actions, this);
    palette->setAttribute(Qt::WA_DeleteOnClose);
    palette->move(mapToGlobal(QPoint((width() - palette->width()) / 2, 60)));
    palette->show();
}

void MainWindow::openDialog(bool folder)
{
    const QString path = folder ? QFileDialog::getExistingDirectory(this, tr("Open bundle folder"))
                                : QFileDialog::getOpenFileName(this, tr("Open bundle archive"), {},
                                                               tr("Archives (*.tar *.tar.gz *.tgz *.zip *.tar.zst *.tar.xz);;All files (*)"));
    if (!path.isEmpty()) {
        m_baselinePath.clear();  // a bundle on its own (File → Open against a baseline… opens a pair)
        openPath(path);
    }
}

void MainWindow::openAgainstDialog()
{
    // Folders, as analyze FAILED --baseline HEALTHY takes them (an archive is opened with --baseline).
    const QString failed = QFileDialog::getExistingDirectory(this, tr("Open the failed attempt's bundle folder"));
    if (failed.isEmpty())
        return;
    const QString healthy = QFileDialog::getExistingDirectory(
        this, tr("Against the healthy attempt of the same job (bundle folder)"), QFileInfo(failed).absolutePath());
    if (healthy.isEmpty())
        return;
    m_baselinePath = healthy;
    openPath(failed);
}

void MainWindow::openQuiz(const QString& path, const QString& keyPath)
{
    openPath(path);
    m_workbench->endQuiz();
    m_quiz = true;  // after openPath, which starts an ordinary open
    m_quizKeyPath = keyPath;
    rebuildRecentMenu();
}

void MainWindow::openPath(const QString& path)
{
    if (m_watcher.isRunning()) {
        cancelAnalysis();
        m_watcher.waitForFinished();
    }
    m_quiz = false;
    m_quizKeyPath.clear();
    m_pendingState.reset();
    m_path = path;
    m_lastError.clear();
    m_awaitingViews = false;
    m_openClock.start();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_progress->setRange(0, 0);
    m_progress->show();
    m_cancelButton->show();
    m_cancelButton->setEnabled(true);
    m_stage->setText(tr("Analysing %1…").arg(QFileInfo(path).fileName()));
    setWindowTitle(tr("%1 — Faultline").arg(QFileInfo(path).fileName()));
    m_watcher.setFuture(QtConcurrent::run(runAnalysis, path, m_baselinePath, m_cancel, QPointer<MainWindow>(this)));
}

void MainWindow::showAnalysis(std::shared_ptr<const Analysis> analysis, const QString& title,
                              std::shared_ptr<const BaselineAttempt> baseline)
{
    if (!analysis)
        return;
    if (m_watcher.isRunning()) {
        cancelAnalysis();
        m_watcher.waitForFinished();
    }
    m_path = title;  // the report's source; never a path the notes store writes beside
    m_lastError.clear();
    m_workbench->notes()->close();
    m_quiz = false;
    m_workbench->endQuiz();
    m_workbench->setBaselineAttempt(std::move(baseline));
    m_workbench->setAnalysis(analysis);
    m_notesProblem->hide();
    setWindowTitle(tr("%1 — Faultline").arg(title));
    statusBar()->showMessage(tr("%1: %2 files, %3 evidence lines, %4 symptom families (analysed by the service; the "
                                "raw lines of each evidence item are fetched from it)")
                                 .arg(title)
                                 .arg(analysis->bundle.files.size())
                                 .arg(analysis->result.evidence.size())
                                 .arg(analysis->result.families.size()));
    raise();
    activateWindow();
    emit analysisFinished(true);
}

void MainWindow::cancelAnalysis()
{
    if (m_cancel)
        m_cancel->store(true);
    m_cancelButton->setEnabled(false);
    m_stage->setText(tr("Cancelling…"));
}

void MainWindow::onProgress(const QString& stage, qulonglong done, qulonglong total)
{
    m_stage->setText(stage);
    if (total == 0) {
        m_progress->setRange(0, 0);
        return;
    }
    // QProgressBar is int: scale to per mille.
    m_progress->setRange(0, 1000);
    m_progress->setValue(static_cast<int>(std::min<qulonglong>(done, total) * 1000 / total));
}

void MainWindow::onFinished()
{
    m_progress->hide();
    m_cancelButton->hide();
    m_stage->clear();
    const AnalysisOutcome out = m_watcher.result();
    if (const auto* err = std::get_if<QString>(&out)) {
        m_lastError = *err;
        statusBar()->showMessage(tr("Could not analyse %1").arg(m_path));
        if (!property("headless").toBool())
            QMessageBox::critical(this, tr("Cannot analyse bundle"), *err);
        emit analysisFinished(false);
        return;
    }
    const auto analysis = std::get<OpenedAnalysis>(out).analysis;
    m_workbench->setBaselineAttempt(std::get<OpenedAnalysis>(out).baseline);
    m_timings.clear();
    for (const auto& [stage, ms] : analysis->stageMs)
        m_timings.push_back({QStringLiteral("engine: %1").arg(style::q(stage)), ms});
    m_timings.push_back({tr("analysis done (since open)"), elapsedMs()});
    // The verdict first; the other views land as their jobs finish (onViewsReady).
    m_awaitingViews = true;
    if (m_quiz) {
        std::optional<exercise::ExerciseKey> key;
        if (!m_quizKeyPath.isEmpty()) {
            try {
                key = exercise::readKey(m_quizKeyPath.toStdString());
            } catch (const std::exception& e) {
                m_lastError = QString::fromStdString(e.what());
                statusBar()->showMessage(m_lastError);
                if (!property("headless").toBool())
                    QMessageBox::critical(this, tr("Cannot open the exercise key"), m_lastError);
                emit analysisFinished(false);
                return;
            }
        }
        m_workbench->setQuiz(analysis, std::move(key), ViewJobs::Mode::Background);
    } else {
        m_workbench->endQuiz();
        m_workbench->setAnalysis(analysis, ViewJobs::Mode::Background); // paints the verdict before its jobs start
    }
    m_viewsStartMs = elapsedMs() - m_workbench->jobs()->elapsedMs();
    m_timings.push_back({tr("verdict panel (GUI thread)"), m_workbench->verdictMs()});
    m_timings.push_back({tr("verdict shown (since open)"), elapsedMs()});
    // Notes are a convenience: an unusable notes file is reported, never fatal.
    m_notesError = m_workbench->openNotes(m_path);
    m_notesProblem->hide();
    if (!m_notesError.isEmpty())
        showNotesProblem(m_notesError);
    addRecent(m_path);
    statusBar()->showMessage(analysis->cancelled ? tr("Cancelled: showing a partial result for %1").arg(m_path)
                                                 : tr("%1: %2 files, %3 observations, %4 events — building the views…")
                                                       .arg(m_path)
                                                       .arg(analysis->bundle.files.size())
                                                       .arg(analysis->observations.size())
                                                       .arg(analysis->result.events.size()));
}

void MainWindow::onViewsReady()
{
    if (!m_awaitingViews)
        return;
    m_awaitingViews = false;
    for (const JobTiming& j : m_workbench->jobs()->timings())
        m_timings.push_back({tr("view: %1 (worker %2 ms, GUI %3 ms), landed at").arg(j.name).arg(j.workMs, 0, 'f', 1).arg(j.applyMs, 0, 'f', 1),
                             m_viewsStartMs + j.doneAtMs});
    m_timings.push_back({tr("all views (since open)"), elapsedMs()});
    if (const auto a = m_workbench->analysis(); a && !a->cancelled)
        statusBar()->showMessage(tr("%1: %2 files, %3 observations, %4 events")
                                     .arg(m_path)
                                     .arg(a->bundle.files.size())
                                     .arg(a->observations.size())
                                     .arg(a->result.events.size()));
    if (m_pendingState) {  // faultline --state: the state's view, now that every view is built
        const store::WorkbenchState state = *std::exchange(m_pendingState, std::nullopt);
        applyState(state);
    }
    emit analysisFinished(true);
}

QString MainWindow::timingReport() const
{
    QString out;
    for (const auto& [what, ms] : m_timings)
        out += QStringLiteral("%1 %2 ms\n").arg(what, -64).arg(ms, 10, 'f', 1);
    return out;
}

double MainWindow::elapsedMs() const
{
    return static_cast<double>(m_openClock.nsecsElapsed()) / 1e6;
}

QString MainWindow::verdictSummary() const
{
    const auto a = m_workbench->analysis();
    if (!a)
        return {};
    if (a->cancelled)
        return tr("cancelled");
    if (m_workbench->quizHidesVerdict())
        return tr("exercise");
    QString v = style::q(toString(a->result.status));
    if (a->result.domain != Domain::Unknown || !a->result.subDomain.empty())
        v += QStringLiteral(" · ") + style::q(toString(a->result.domain))
            + (a->result.subDomain.empty() ? QString() : QStringLiteral(" / ") + style::q(a->result.subDomain));
    if (const auto o = m_workbench->notes()->verdictOverride())
        v += tr(" (reviewer: %1)").arg(o->status);
    return v;
}

void MainWindow::showNotesProblem(const QString& message)
{
    qWarning().noquote() << "faultline:" << message;
    m_notesProblem->setText(message);
    m_notesProblem->setToolTip(message);
    m_notesProblem->show();
    statusBar()->showMessage(message, 15000);
    if (!property("headless").toBool())
        QMessageBox::warning(this, tr("Notes"), message);
}

void MainWindow::saveNotesAsDialog()
{
    if (!m_workbench->analysis())
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Save notes as"), m_workbench->notes()->path(),
                                                      tr("Faultline notes (*.sqlite);;All files (*)"));
    if (!path.isEmpty() && m_workbench->saveNotesAs(path))
        statusBar()->showMessage(tr("Notes saved to %1").arg(path), 8000);
}

void MainWindow::addRecent(const QString& path)
{
    // An unusable history file is already named in the Recent menu; a write that fails on a usable one is said here.
    if (!m_history->record(path, verdictSummary(), m_workbench->notes()->hasNotes()) && m_history->isUsable())
        statusBar()->showMessage(tr("Recent investigations not updated: cannot write %1").arg(m_history->path()), 8000);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    if (!m_history->isUsable()) {
        m_recentMenu->addAction(m_history->error())->setEnabled(false);
        return;
    }
    const auto recent = m_history->recent(kMaxRecent);
    for (const Investigation& inv : recent) {
        // "path — verdict — when ✎" : what it was, and whether notes wait there. An exercise on screen hides
        // every verdict: the same bundle opened before would give its answer away.
        const QString verdict = m_quiz && !m_workbench->quizRevealed() ? tr("verdict hidden") : inv.verdict;
        const QString label = QStringLiteral("%1 — %2 — %3%4")
                                  .arg(inv.path, verdict.isEmpty() ? tr("not analysed") : verdict,
                                       inv.opened.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                                       inv.hasNotes ? tr(" · notes") : QString());
        const QString p = inv.path;
        m_recentMenu->addAction(label, this, [this, p] { openPath(p); });
    }
    m_recentMenu->setEnabled(!recent.empty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e)
{
    if (e->mimeData()->hasUrls() && e->mimeData()->urls().size() == 1 && e->mimeData()->urls().front().isLocalFile())
        e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e)
{
    openPath(e->mimeData()->urls().front().toLocalFile());
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    if (m_cancel)
        m_cancel->store(true);
    QMainWindow::closeEvent(e);
}

} // namespace fl

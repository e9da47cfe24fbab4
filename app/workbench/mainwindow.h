// SPDX-License-Identifier: MIT
// The application window: opening bundles (menu, drag and drop, command
// line, recent files), running the analysis off the GUI thread with progress
// and cancel, and the global keys. The views live in WorkbenchView.
#pragma once

#include "views/baseline/baselineattempt.h"
#include "views/store/historystore.h"
#include "store/state_file.h"
#include "views/workbench/workbenchview.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QMainWindow>

#include <atomic>
#include <memory>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

class QLabel;
class QProgressBar;
class QPushButton;

namespace fl {

class ServiceBrowser;

// What a background analysis hands back: the analysis (with the healthy attempt it was compared against, if any)
// or a message naming the file.
struct OpenedAnalysis {
    std::shared_ptr<const Analysis> analysis;
    std::shared_ptr<const BaselineAttempt> baseline;
};
using AnalysisOutcome = std::variant<OpenedAnalysis, QString>;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    WorkbenchView* workbench() const { return m_workbench; }
    bool isBusy() const { return m_watcher.isRunning(); }
    QString lastError() const { return m_lastError; }
    QString notesError() const { return m_notesError; }
    HistoryStore* history() const { return m_history.get(); }
    QMenu* recentMenu() const { return m_recentMenu; }
    // Where the time of the last open went: the engine's stages, the verdict,
    // each view's job, one "what  N ms" line each (faultline --timings).
    QString timingReport() const;
    // The service browser (File → Connect to service…), made on first use; not shown.
    ServiceBrowser* serviceBrowser();
    // The bundle open (a path; a service result's title), for the state and the report.
    QString currentPath() const { return m_path; }
    // The open view as a link (File → Copy link, mainwindowstate.cpp): a bundle's path, or a service result's
    // service, session and run; empty with `why` set when nothing is open.
    QString stateLink(QString* why = nullptr) const;

public slots:
    void openPath(const QString& path);
    // A healthy attempt of the same job that the next openPath compares against (the Baseline tab); empty: none.
    void setBaselinePath(const QString& path) { m_baselinePath = path; }
    // File → Open against a baseline…: the failed attempt's folder, then the healthy one's; opened compared.
    void openAgainstDialog();
    // Quiz mode (an exercise): the bundle's verdict is hidden until the learner reveals it; `keyPath` (may be
    // empty: the engine's own verdict is the answer) is an exercise key (faultline-cli exercise).
    void openQuiz(const QString& path, const QString& keyPath);
    // Opens the state's bundle (as an exercise in quiz mode) and, once every view is built, shows its tab,
    // step, window and selection (faultline --state). A state naming a service session is main's to start.
    void openState(const store::WorkbenchState& state);
    // Applies a state to the analysis shown now; false when some of it could not be (lastError() and the
    // status bar say what).
    bool applyState(const store::WorkbenchState& state);
    void copyLink();
    // File → Exercises…: the exercise library; an entry opens as an exercise (mainwindowstate.cpp).
    void showExercises();
    // File → New exercise…: a synthetic bundle and its key outside it, then opened as an exercise with that key;
    // File → Open exercise…: a bundle folder and its key, opened as an exercise (mainwindowstate.cpp).
    void newExercise();
    void openExercise();
    // A result that was analysed elsewhere (a faultline-service session): shown in
    // the same views; its raw lines and notes come with views/servicereview.h.
    // `baseline`: the healthy attempt it was compared against (service: Compare with…), for the Baseline tab's axis.
    void showAnalysis(std::shared_ptr<const fl::Analysis> analysis, const QString& title,
                      std::shared_ptr<const fl::BaselineAttempt> baseline = nullptr);
    void openDialog(bool folder);
    void cancelAnalysis();
    void showCommandPalette();
    void saveNotesAsDialog();
    void onProgress(const QString& stage, qulonglong done, qulonglong total);

signals:
    void analysisFinished(bool ok);

protected:
    void dragEnterEvent(QDragEnterEvent*) override;
    void dropEvent(QDropEvent*) override;
    void closeEvent(QCloseEvent*) override;

private:
    void buildActions();
    void onFinished();
    bool m_quiz = false;       // the open in flight (or shown) is an exercise
    std::optional<store::WorkbenchState> m_pendingState;  // applied when the open in flight is shown
    QString m_quizKeyPath;
    void onViewsReady();
    double elapsedMs() const;
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    QString verdictSummary() const;
    void showNotesProblem(const QString& message);

    WorkbenchView* m_workbench;
    QFutureWatcher<AnalysisOutcome> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QString m_path;
    QString m_baselinePath;
    QString m_lastError;
    QString m_notesError;
    QProgressBar* m_progress;
    QLabel* m_stage;
    QLabel* m_notesProblem;  // why notes cannot be stored, while that holds
    QPushButton* m_cancelButton;
    QMenu* m_recentMenu = nullptr;
    std::unique_ptr<HistoryStore> m_history;
    QElapsedTimer m_openClock;
    double m_viewsStartMs = 0;  // the view jobs' clock started here (since open)
    bool m_awaitingViews = false;
    std::vector<std::pair<QString, double>> m_timings;
};

} // namespace fl

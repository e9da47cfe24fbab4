// SPDX-License-Identifier: MIT
// Every view of one analysis, laid out and wired to one FocusState. The
// panels come from workbenchPanels() (panelregistry.h): this class lays them
// out by area, hands each the analysis and the notes, keeps the notes store,
// and runs an exercise (quiz mode, workbenchquiz.cpp). The application's main window holds one of these; the tests build it
// directly.
#pragma once

#include "views/chain/chaingraphview.h"
#include "views/evidence/evidencepanel.h"
#include "views/verdict/explanationpanel.h"
#include "views/common/focusstate.h"
#include "views/timeline/metricspanel.h"
#include "views/store/notesstore.h"
#include "views/teach/phasestepperpanel.h"
#include "views/teach/quizpanel.h"
#include "exercise/key.h"
#include "views/evidence/rawfilepanel.h"
#include "views/timeline/timelinepanel.h"
#include "views/verdict/verdictpanel.h"
#include "views/common/viewjobs.h"
#include "views/workbench/panelregistry.h"

#include <QWidget>

class QTabWidget;

class QSplitter;

namespace fl {

struct BaselineAttempt;

class WorkbenchView : public QWidget
{
    Q_OBJECT
public:
    explicit WorkbenchView(QWidget* parent = nullptr);
    ~WorkbenchView() override;
    // Inline: every view is built before this returns (tests, a result read
    // from the service). Background: the verdict is shown at once
    // (verdictShown), the rest is built by jobs() and lands view by view;
    // viewsReady() when all did. A new call drops what an older one still builds.
    void setAnalysis(std::shared_ptr<const Analysis> analysis, ViewJobs::Mode mode = ViewJobs::Mode::Inline);
    ViewJobs* jobs() const { return m_jobs; }
    bool viewsPending() const { return m_jobs->pending() > 0; }
    // How long the verdict panel took on the GUI thread in the last setAnalysis.
    double verdictMs() const { return m_verdictMs; }
    std::shared_ptr<const Analysis> analysis() const { return m_analysis; }
    // The healthy attempt's own result for the next setAnalysis of a failed attempt compared against it (the
    // Baseline tab's time axis); the tab shows it only with the comparison it was made in. Null: none.
    void setBaselineAttempt(std::shared_ptr<const BaselineAttempt> attempt) { m_baselineAttempt = std::move(attempt); }
    std::shared_ptr<const BaselineAttempt> baselineAttempt() const { return m_baselineAttempt; }

    FocusState* focus() const { return m_focus; }
    // A panel by its PanelSpec::id; null when there is none (or not of type W).
    QWidget* panel(const QString& id) const;
    template <typename W>
    W* panelAs(const QString& id) const { return dynamic_cast<W*>(panel(id)); }
    VerdictPanel* verdict() const { return panelAs<VerdictPanel>(QStringLiteral("verdict")); }
    ExplanationPanel* explanation() const { return panelAs<ExplanationPanel>(QStringLiteral("explanation")); }
    TimelinePanel* timeline() const { return panelAs<TimelinePanel>(QStringLiteral("timeline")); }
    ChainGraphView* chain() const { return panelAs<ChainGraphView>(QStringLiteral("chain")); }
    MetricsPanel* metrics() const { return panelAs<MetricsPanel>(QStringLiteral("metrics")); }
    EvidencePanel* evidence() const { return panelAs<EvidencePanel>(QStringLiteral("evidence")); }
    RawFilePanel* raw() const { return panelAs<RawFilePanel>(QStringLiteral("raw")); }
    PhaseStepperPanel* stepper() const { return panelAs<PhaseStepperPanel>(QStringLiteral("teach")); }
    QuizPanel* quiz() const { return panelAs<QuizPanel>(QStringLiteral("quiz")); }
    NotesStore* notes() const { return m_notes.get(); }
    QTabWidget* centreTabs() const { return m_centre; }
    QTabWidget* sideTabs() const { return m_side; }

    // Quiz mode: the views show `full` with its decisions taken out (exercise::quizAnalysis), the Decision panels
    // (PanelSpec::quiz) out of sight and empty, and no automatic selection; the learner marks lines; reveal()
    // scores them against `key` (none: the engine's own verdict) and shows `full` on the Teach tab.
    void setQuiz(std::shared_ptr<const Analysis> full, std::optional<exercise::ExerciseKey> key,
                 ViewJobs::Mode mode = ViewJobs::Mode::Inline);
    bool quizHidesVerdict() const { return m_quizFull != nullptr && !m_revealed; }
    bool quizRevealed() const { return m_revealed; }
    // Leaves quiz mode: every tab back (an ordinary open calls it).
    void endQuiz();
    // Scores the marks, records the score under the quiz panel's learner name in scoresPath() (the exercise
    // library's past scores; a failure to record is said, never stops the reveal), then shows the decision.
    void reveal();
    // Teach as a replay (workbenchreplay.cpp): the panels with a PanelSpec::replay hook (timeline, evidence) show
    // the result as the engine knew it after Teach step `index` (exercise::knownAfter), and, with a replay time,
    // only what had happened by then; -1 shows the whole result again. The Teach tab drives it.
    void replayStep(int index);
    void setReplayTime(int64_t atNs);  // kNoTime: every moment
    int replayedStep() const { return m_replayStep; }
    // Whether a side tab follows the replay (its panel has a replay hook): chosen after the Teach tab, it keeps
    // the replay's step (the Verdict and Explanation tabs say what was known then); any other side tab ends it.
    bool followsReplay(const QWidget* sideTab) const;
    int64_t replayTime() const { return m_replayAtNs; }
    // What the replaying panels show now: the replayed result, else the analysis.
    std::shared_ptr<const Analysis> replayed() const { return m_replayed ? m_replayed : m_analysis; }
    // Where Reveal records scores: exercise::defaultScoresPath() unless set (empty: not recorded).
    QString scoresPath() const { return m_scoresPath; }
    void setScoresPath(const QString& path) { m_scoresPath = path; }

    // Attaches the reviewer notes of `bundlePath` and shows them. Returns the
    // message when the notes file is unusable (the views go on without notes).
    QString openNotes(const QString& bundlePath);
    [[nodiscard]] bool saveNotesAs(const QString& dbPath);

    // Writes a note / bookmark / override and refreshes the views. False
    // (with notesError emitted) when the store cannot write.
    [[nodiscard]] bool setEvidenceNote(EvidenceId evidence, const QString& text);
    [[nodiscard]] bool setLaneNote(const QString& laneKey, const QString& text);
    [[nodiscard]] bool toggleBookmark(const QString& file, quint64 line);
    [[nodiscard]] bool setLineNote(const QString& file, quint64 line, const QString& text);
    [[nodiscard]] bool setVerdictOverride(const VerdictOverride& o);
    [[nodiscard]] bool clearVerdictOverride();
    // Opens a bundle file (by bundle path) in the raw viewer at `line`.
    [[nodiscard]] bool openRawLine(const QString& file, quint64 line);
    const EvidenceItem* evidenceById(EvidenceId id) const;

public slots:
    // Interactive editors (dialogs) behind the context menus.
    void editEvidenceNote(fl::EvidenceId evidence);
    void editLaneNote(const QString& laneKey);
    void editLineNote(quint64 line);
    void editVerdictOverride();
    // Shows the notes in every panel again (after a write, or when the raw viewer opened another file).
    void refreshNotes();
    // Opens the evidence's raw lines in the raw viewer.
    void openEvidence(std::optional<fl::EvidenceId> evidence);

signals:
    void verdictShown();
    void viewsReady();
    void notesChanged();
    void notesError(const QString& message);
    void replayShown(int step);  // the replaying panels show step `step` (-1: the whole result)

private:
    void onViewsReady();
    // Where a reader starts: the root cause's first evidence (else the first root-role item, else the earliest).
    void selectStart(FocusSnapshot& s) const;
    // Starting the Teach replay: the open's automatic selection is dropped (workbenchreplay.cpp).
    void dropStartSelection();
    void fitTimelineShare();
    bool checked(bool ok);
    PanelNotes panelNotes() const;
    // Whether the panel is on screen now: its QuizRole against the exercise's state.
    bool panelShown(const PanelSpec& spec) const;
    void recordScore(const exercise::Score& score);  // reveal(): the learner's score kept (workbenchquiz.cpp)
    // Puts every panel shown in its area (list order) and takes the others out of sight; tells each the state.
    void applyExercise();

    std::shared_ptr<const Analysis> m_analysis;
    std::shared_ptr<const BaselineAttempt> m_baselineAttempt;
    FocusState* m_focus;
    std::vector<QWidget*> m_panels;  // one per workbenchPanels() entry, same order
    std::unique_ptr<NotesStore> m_notes;
    std::shared_ptr<const Analysis> m_quizFull;  // the analysis an exercise hides, shown on reveal
    std::optional<exercise::ExerciseKey> m_quizKey;
    bool m_revealed = false;
    bool m_revealing = false;  // reveal() shows the full analysis: no start selection
    QString m_scoresPath;
    void showReplay();
    std::shared_ptr<const Analysis> m_replayed;    // what they show now; null: the analysis itself
    int m_replayStep = -1;
    int64_t m_replayAtNs = kNoTime;
    QTabWidget* m_centre;
    QTabWidget* m_side;
    ViewJobs* m_jobs;
    QSplitter* m_rightSplit = nullptr;  // the centre tabs over the evidence and raw lines
    QSplitter* m_bottom = nullptr;      // the Bottom panels, side by side
    double m_verdictMs = 0;
};

} // namespace fl

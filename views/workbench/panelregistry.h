// SPDX-License-Identifier: MIT
// The workbench's panels as data: each says what it is (id, tab title, where
// it sits), how it is made (given the workbench's FocusState, which is how it
// follows the focus) and how it receives an analysis (cleared, shown at once,
// built by jobs), the reviewer's notes and an exercise (quiz mode).
// WorkbenchView's constructor and setAnalysis walk workbenchPanels(), so a new
// view is one file (views/workbench/panels/<id>.cpp: `PanelSpec panels::<id>()`)
// and one line (`FL_PANEL(<id>)` in panellist.h). An explicit list, not static
// self-registration: the views are a static library, and its linker drops an
// object file nothing refers to.
#pragma once

#include "engine/engine.h"
#include "views/common/focusstate.h"
#include "views/common/viewjobs.h"
#include "views/models/evidencemodel.h"
#include "views/store/notesstore.h"

#include <QHash>
#include <QSet>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QWidget;

namespace fl {

class WorkbenchView;
using AnalysisPtr = std::shared_ptr<const Analysis>;

// Side: what was decided and why. Centre: when and where. Bottom: the proof.
enum class PanelArea { Side, Centre, Bottom };

// What a panel shows while an exercise (quiz mode) keeps the decision hidden until Reveal.
enum class QuizRole {
    Neutral,   // what the learner reads (timeline, metrics, evidence, raw lines): always shown
    Decision,  // says what was decided (verdict, explanation, chain, teach): out of sight, and cleared, until Reveal
    Exercise,  // the exercise itself: shown only while an exercise is open (before and after Reveal)
};

// The notes as the panels show them, computed once per change by the workbench.
struct PanelNotes {
    EvidenceModel::Notes evidence;        // evidence id -> note (followed to renumbered ids)
    QHash<QString, QString> lanes;        // lane key -> note
    QSet<QString> markedLines;            // EvidenceModel::lineKey of every bookmark
    std::vector<LineBookmark> bookmarks;  // every bookmark, by file and line
    std::optional<VerdictOverride> verdictOverride;
    std::vector<present::ReviewDecision> reviews;  // the review record, oldest first (the last is current)
    std::vector<present::ThreadComment> threads;   // every evidence item's comments, by item then id
    // The event the current decision names in the analysis shown (reviewrecord.h); none while an exercise
    // hides the decision.
    std::optional<EventId> reviewedRoot;
    TimeInterval reviewedInterval;  // where the timeline draws it: a candidate's corrected interval
};

// Where the Teach replay is: which step of how many, its phase, whether the verdict is decided by then, the
// replay time. The whole result: step -1.
struct ReplayPoint {
    int step = -1;
    int steps = 0;
    QString phase;
    bool decided = true;
    int64_t atNs = kNoTime;
};

struct PanelSpec {
    QString id;     // stable, for lookups and --tab
    QString title;  // the tab's text
    PanelArea area = PanelArea::Centre;
    QuizRole quiz = QuizRole::Neutral;
    std::function<QWidget*(FocusState*)> create;
    // Each hook gets the widget create() made; any may be empty, except `clear` of a Decision panel (it is how
    // an exercise empties it).
    std::function<void(QWidget*, WorkbenchView&)> attach;             // after every panel exists: its requests to the workbench
    std::function<void(QWidget*)> clear;                              // drop the analysis shown (a background open; a hidden decision)
    std::function<void(QWidget*, const AnalysisPtr&)> showNow;        // stage 1, on the GUI thread, before any job
    std::function<void(QWidget*, const AnalysisPtr&, ViewJobs&)> load;  // stage 2: its jobs, in list order
    std::function<void(QWidget*, WorkbenchView&)> ready;              // every job landed and the start focus is set
    std::function<void(QWidget*, const PanelNotes&)> showNotes;
    // An exercise started (true: the decision is hidden, the learner marks lines) or ended or was revealed (false).
    std::function<void(QWidget*, bool hidden)> exercise;
    // Teach as a replay: show `a`, the result as known at replay point `at` (or the whole analysis again, step
    // -1), at once, keeping the focus (its ids stay valid). Panels without it show the whole result throughout;
    // a Side panel with it keeps the replay on when it is chosen after the Teach tab.
    std::function<void(QWidget*, const AnalysisPtr&, const ReplayPoint& at)> replay;
};

// Wraps a hook written for the panel's own type (the widget is always the one its create() made).
template <typename W, typename F>
auto as(F f)
{
    return [f](QWidget* w, auto&&... args) { return f(static_cast<W*>(w), std::forward<decltype(args)>(args)...); };
}

// Every panel, in the order their jobs run; within an area, also their tab order (panellist.h).
const std::vector<PanelSpec>& workbenchPanels();

// One function per panel, each in views/workbench/panels/<id>.cpp, named in panellist.h.
namespace panels {
#define FL_PANEL(id) PanelSpec id();
#include "views/workbench/panellist.h"
#undef FL_PANEL
} // namespace panels

// Widgets that read the result directly are built on the GUI thread, one per turn of the event loop, so the
// verdict is painted first: a ViewJobs job whose work is this.
inline bool onGuiThread(const std::atomic<bool>&)
{
    return true;
}

// A PanelSpec with its id, title and area set.
PanelSpec namedPanel(const QString& id, const QString& title, PanelArea area, QuizRole quiz = QuizRole::Neutral);

} // namespace fl

// SPDX-License-Identifier: MIT
// The workbench's panels as data: each says what it is (id, tab title, where
// it sits), how it is made (given the workbench's FocusState, which is how it
// follows the focus) and how it receives an analysis (cleared, shown at once,
// built by jobs) and the reviewer's notes. WorkbenchView's constructor and
// setAnalysis walk workbenchPanels(), so a new view is its own file (with its
// PanelSpec) and one line in that list (panels.cpp). An explicit list, not
// static self-registration: the views are a static library, and its linker
// drops an object file nothing refers to.
#pragma once

#include "engine/engine.h"
#include "views/common/focusstate.h"
#include "views/common/viewjobs.h"
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

// The notes as the panels show them, computed once per change by the workbench.
struct PanelNotes {
    QHash<QString, QString> evidence;     // evidence id -> note (followed to renumbered ids)
    QHash<QString, QString> lanes;        // lane key -> note
    QSet<QString> markedLines;            // EvidenceModel::lineKey of every bookmark
    std::vector<LineBookmark> bookmarks;  // every bookmark, by file and line
    std::optional<VerdictOverride> verdictOverride;
};

struct PanelSpec {
    QString id;     // stable, for lookups and --tab
    QString title;  // the tab's text
    PanelArea area = PanelArea::Centre;
    std::function<QWidget*(FocusState*)> create;
    // Each hook gets the widget create() made; any may be empty.
    std::function<void(QWidget*, WorkbenchView&)> attach;             // after every panel exists: its requests to the workbench
    std::function<void(QWidget*)> clear;                              // a background open: drop the previous analysis now
    std::function<void(QWidget*, const AnalysisPtr&)> showNow;        // stage 1, on the GUI thread, before any job
    std::function<void(QWidget*, const AnalysisPtr&, ViewJobs&)> load;  // stage 2: its jobs, in list order
    std::function<void(QWidget*, const PanelNotes&)> showNotes;
};

// Wraps a hook written for the panel's own type (the widget is always the one its create() made).
template <typename W, typename F>
auto as(F f)
{
    return [f](QWidget* w, auto&&... args) { return f(static_cast<W*>(w), std::forward<decltype(args)>(args)...); };
}

// Every panel, in the order their jobs run; within an area, also their tab order.
const std::vector<PanelSpec>& workbenchPanels();

} // namespace fl

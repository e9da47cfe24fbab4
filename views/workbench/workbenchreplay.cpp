// SPDX-License-Identifier: MIT
// WorkbenchView's Teach replay (issue #44 item 3): the panels with a PanelSpec::replay hook show the result as
// the engine knew it after the Teach step on show (exercise::knownAfter), so at step 1 nothing is red and roles
// and colours appear at the phase that sets them; a replay time leaves out what had not happened yet.
#include "views/workbench/workbenchview.h"

#include "exercise/replay.h"
#include "views/evidence/rawfilepanel.h"

namespace fl {

void WorkbenchView::replayStep(int index)
{
    if (index == m_replayStep)
        return;
    if (m_replayStep < 0 && index >= 0)
        dropStartSelection();
    m_replayStep = index;
    showReplay();
}

void WorkbenchView::dropStartSelection()
{
    // The selection made on open is the root's line: in a replay, whose first steps decide nothing yet, it would
    // point at the answer. A reader's own choice (a history step, or a state file's selection) stays.
    if (!m_analysis || m_focus->canGoBack())
        return;
    FocusSnapshot now = m_focus->current();
    FocusSnapshot start = now;
    selectStart(start);
    if (!now.evidence || now.evidence != start.evidence)
        return;
    now.evidence.reset();
    now.event.reset();
    std::vector<EventId> stepperRings = m_focus->highlight();  // a reset clears it; the stepper set it just now
    m_focus->reset(now);
    m_focus->setHighlight(std::move(stepperRings));
    raw()->view()->close();  // it showed that line; no reader opened a file since
}

void WorkbenchView::setReplayTime(int64_t atNs)
{
    if (atNs == m_replayAtNs)
        return;
    m_replayAtNs = atNs;
    if (m_replayStep >= 0)
        showReplay();
}

bool WorkbenchView::followsReplay(const QWidget* sideTab) const
{
    const auto& specs = workbenchPanels();
    for (size_t i = 0; i < specs.size(); ++i)
        if (m_panels[i] == sideTab)
            return specs[i].area == PanelArea::Side && specs[i].replay != nullptr;
    return false;
}

void WorkbenchView::showReplay()
{
    std::shared_ptr<const Analysis> shown = m_analysis;
    const PhaseSteps& steps = stepper()->steps();
    ReplayPoint at;
    if (m_analysis && m_replayStep >= 0 && m_replayStep < steps.count()) {
        // The trace as the stepper holds it: a service result's comes apart from the result (ServiceReview).
        std::vector<TraceStep> trace;
        for (int i = 0; i < steps.count(); ++i)
            for (const TraceStep* t : steps.step(i).items)
                trace.push_back(*t);
        const std::optional<Phase> through = phaseFromString(steps.step(m_replayStep).phase.toStdString());
        auto a = std::make_shared<Analysis>();
        a->bundle = m_analysis->bundle;  // the timeline's quiet nodes; nothing replayed reads the observations
        a->rules = m_analysis->rules;
        a->placement = m_analysis->placement;
        a->cancelled = m_analysis->cancelled;
        a->result = exercise::knownAfter(m_analysis->result, trace, through.value_or(Phase::Report), m_replayAtNs);
        // The rules fired so far (the Explanation tab's trace): the steps up to this one.
        for (int i = 0; i <= m_replayStep; ++i)
            for (const TraceStep* t : steps.step(i).items)
                a->trace.push_back(*t);
        shown = std::move(a);
        at.step = m_replayStep;
        at.steps = steps.count();
        at.phase = steps.step(m_replayStep).phase;
        at.decided = through.value_or(Phase::Report) >= Phase::Outcome;
        at.atNs = m_replayAtNs;
    }
    m_replayed = shown == m_analysis ? nullptr : shown;
    const auto& specs = workbenchPanels();
    const PanelNotes notes = panelNotes();
    for (size_t i = 0; i < specs.size(); ++i) {
        if (!specs[i].replay || !panelShown(specs[i]))
            continue;
        specs[i].replay(m_panels[i], shown, at);
        if (specs[i].showNotes)
            specs[i].showNotes(m_panels[i], notes);
    }
    emit replayShown(m_replayStep);
}

} // namespace fl

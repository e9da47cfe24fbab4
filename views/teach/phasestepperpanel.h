// SPDX-License-Identifier: MIT
// "Teach" tab: walks the engine's trace phase by phase with First / Prev /
// Next / Last, or a click on a phase in the list of every phase (a view on
// PhaseStepModel, which holds the steps), and says, for each phase (its rows a
// view on TraceStepModel), which
// events appeared, were decoded or rewritten, suppressed, linked and ranked. The events of the
// current step are highlighted on the timeline and the chain graph through
// FocusState::setHighlight.
#pragma once

#include "views/common/focusstate.h"
#include "views/teach/phasesteps.h"
#include "views/models/phasestepmodel.h"
#include "views/models/tracestepmodel.h"
#include "views/teach/replayclock.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QTextBrowser;
class QTreeView;

namespace fl {

class PhaseStepperPanel : public QWidget
{
    Q_OBJECT
public:
    explicit PhaseStepperPanel(FocusState* focus, QWidget* parent = nullptr);
    void setAnalysis(std::shared_ptr<const Analysis> analysis);

    const PhaseSteps& steps() const { return m_model->steps(); }
    PhaseStepModel* stepModel() const { return m_model; }
    QTreeView* phaseList() const { return m_phaseList; }
    int currentIndex() const { return m_index; }
    QString phaseText() const;      // "3 / 10 · filter"
    QString countsText() const;     // "appear 0 · decoded / rewritten 2 · …"
    QTreeView* items() const { return m_items; }  // the current phase's steps, a view on rowModel()
    TraceStepModel* rowModel() const { return m_rows; }
    QPushButton* firstButton() const { return m_first; }
    QPushButton* prevButton() const { return m_prev; }
    QPushButton* nextButton() const { return m_next; }
    QPushButton* lastButton() const { return m_last; }
    // "Why not the cause" of every event the current step set aside (at outcome: also those the choice passed
    // over), as known after the step (exercise::whyNotAt); hidden when there is none.
    QTextBrowser* whyNot() const { return m_whyNot; }
    static constexpr size_t kWhyNotShown = 40;  // per step; the rest are counted
    // The replay's clock over the incident's time axis (the workbench replays its moment).
    ReplayClock* replayClock() const { return m_clock; }
    // When off, the highlight is cleared (the tab is not shown); back on, restored.
    void setHighlighting(bool on);

public slots:
    void setStep(int index);
    void first() { setStep(0); }
    void previous() { setStep(m_index - 1); }
    void next() { setStep(m_index + 1); }
    void last() { setStep(steps().count() - 1); }

signals:
    void stepChanged(int index);

private:
    void show();
    void showWhyNot();

    FocusState* m_focus;
    std::shared_ptr<const Analysis> m_analysis;
    PhaseStepModel* m_model;  // the steps: one row a phase
    TraceStepModel* m_rows;   // the current step's trace rows
    int m_index = -1;
    bool m_highlighting = true;
    QTreeView* m_phaseList;
    QLabel* m_phase;
    QLabel* m_description;
    QLabel* m_counts;
    QTreeView* m_items;
    QTextBrowser* m_whyNot;
    QPushButton* m_first;
    QPushButton* m_prev;
    QPushButton* m_next;
    QPushButton* m_last;
    ReplayClock* m_clock;
};

} // namespace fl

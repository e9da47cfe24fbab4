// SPDX-License-Identifier: MIT
// Why this verdict: the candidates and why each lost, side by side when the
// result is ambiguous with what would decide between them, and the rules that
// fired in each phase with the trace.
#pragma once

#include "engine/engine.h"
#include "views/models/explanationmodel.h"
#include "views/common/focusstate.h"

#include <QWidget>

#include <memory>

class QHBoxLayout;
class QLabel;
class QTreeView;
class QWidget;

namespace fl {

class ExplanationPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ExplanationPanel(FocusState* focus, QWidget* parent = nullptr);
    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    // The rows of both trees, built on any thread (a wide result's trace has
    // thousands of steps); setPrepared shows them.
    struct Prepared {
        std::vector<ExplanationRow> candidates, trace;
    };
    static Prepared prepare(const Analysis* analysis);
    void setPrepared(const Analysis* analysis, Prepared prepared);

    QTreeView* candidates() const { return m_candidates; }
    QTreeView* rules() const { return m_rules; }
    ExplanationModel* candidateModel() const { return m_candidateModel; }
    ExplanationModel* ruleModel() const { return m_ruleModel; }
    int sideBySideCount() const { return m_sideCount; }
    // Ambiguous: what would order the tied candidates (Result::wouldDecide, in core/present's words); hidden
    // otherwise.
    QLabel* decideLabel() const { return m_decide; }

private:
    void fillSideBySide(const Result* result);
    void pick(const QModelIndex& index);
    // The candidate of the event selected anywhere is selected here (none: no selection).
    void followEvent(std::optional<EventId> event);

    FocusState* m_focus;
    ExplanationModel* m_candidateModel;
    ExplanationModel* m_ruleModel;
    QTreeView* m_candidates;
    QWidget* m_side;
    QHBoxLayout* m_sideLayout;
    QLabel* m_decide;
    QTreeView* m_rules;
    int m_sideCount = 0;
};

} // namespace fl

// SPDX-License-Identifier: MIT
// Why this verdict: the candidates and why each lost, side by side when the
// result is ambiguous, and the rules that fired in each phase with the trace.
#pragma once

#include "engine/engine.h"
#include "focusstate.h"

#include <QWidget>

#include <memory>

class QHBoxLayout;
class QTreeWidget;
class QWidget;

namespace fl {

class ExplanationPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ExplanationPanel(FocusState* focus, QWidget* parent = nullptr);
    void setAnalysis(std::shared_ptr<const Analysis> analysis);

    QTreeWidget* candidates() const { return m_candidates; }
    QTreeWidget* rules() const { return m_rules; }
    int sideBySideCount() const { return m_sideCount; }

private:
    void fillCandidates(const Result& r);
    void fillSideBySide(const Result& r);
    void fillRules(const Analysis& a);

    FocusState* m_focus;
    QTreeWidget* m_candidates;
    QWidget* m_side;
    QHBoxLayout* m_sideLayout;
    QTreeWidget* m_rules;
    int m_sideCount = 0;
};

} // namespace fl

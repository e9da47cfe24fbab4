// SPDX-License-Identifier: MIT
// Compare candidates (issue #45 item 1): the tied candidates of an ambiguous result side by side, labelled
// A, B … in distinct colours — corrected interval, raw lines, rules fired, symptoms explained — the setting
// that made the tie, what would decide it, and the clock-offset table behind the intervals. "Zoom timeline to
// candidates" sets the shared time window to their corrected intervals ± a margin. Built from
// present::compareCandidates, present::clockRows and present::wouldDecideLines: no words are made here.
#pragma once

#include "engine/engine.h"
#include "present/compare.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QTableView;

namespace fl {

class FocusState;
class CompareModel;
class ClockTableModel;

class ComparePanel : public QWidget
{
    Q_OBJECT
public:
    // How far the zoom window reaches beyond the candidates' intervals, each side.
    static constexpr int64_t kMarginNs = 2'000'000'000;

    explicit ComparePanel(FocusState* focus, QWidget* parent = nullptr);

    // Null: nothing shown (a hidden decision, a background open).
    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    const present::Comparison& comparison() const { return m_comparison; }

    CompareModel* candidateModel() const { return m_candidateModel; }
    ClockTableModel* clockModel() const { return m_clockModel; }
    QTableView* candidateTable() const { return m_candidates; }
    QTableView* clockTable() const { return m_clocks; }
    QPushButton* zoomButton() const { return m_zoom; }
    QLabel* decideLabel() const { return m_decide; }

public slots:
    // The timeline (every view sharing the focus) to the candidates' corrected intervals ± kMarginNs, the
    // candidates highlighted.
    void zoomToCandidates();

signals:
    // The columns shown changed (a new analysis, or none): the timeline labels them.
    void comparisonChanged();
    void zoomed();

private:
    FocusState* m_focus;
    std::shared_ptr<const Analysis> m_analysis;
    present::Comparison m_comparison;
    QLabel* m_tie;
    QLabel* m_decide;
    QPushButton* m_zoom;
    CompareModel* m_candidateModel;
    ClockTableModel* m_clockModel;
    QTableView* m_candidates;
    QTableView* m_clocks;
};

} // namespace fl

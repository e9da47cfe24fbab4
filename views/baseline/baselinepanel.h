// SPDX-License-Identifier: MIT
// Baseline tab: the open result against a healthy attempt of the same job (--baseline DIR, or a service result
// analysed with ?baseline=): what the comparison changed in the verdict, then what is new here (bold) and the
// noise the healthy attempt printed too (dimmed), as BaselineModel rows; below, both attempts on one time axis
// (AttemptAxisModel), aligned at their starts or at the first line of a chosen shared family, when the healthy
// attempt's own result is at hand (a local --baseline open, Compare with… of the service's session list).
#pragma once

#include "views/baseline/attemptaxismodel.h"
#include "views/baseline/baselinemodel.h"

#include <QWidget>

#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QTableView;

namespace fl {

struct Analysis;
struct BaselineAttempt;
class FocusState;

class BaselinePanel : public QWidget {
    Q_OBJECT
public:
    explicit BaselinePanel(FocusState* focus, QWidget* parent = nullptr);

    void setAnalysis(const std::shared_ptr<const Analysis>& analysis);
    void clear();
    // Where the healthy attempt's own result comes from (the workbench's; asked at each setAnalysis).
    void setAttemptSource(std::function<std::shared_ptr<const BaselineAttempt>()> source) { m_attemptSource = std::move(source); }

    // Aligns the time axis at the first line of axis row `row` in both attempts (-1: at their starts); false
    // when that row is not in both.
    [[nodiscard]] bool alignAt(int row);

    QLabel* headline() const { return m_headline; }
    QTableView* table() const { return m_table; }
    BaselineModel* model() const { return m_model; }
    QLabel* axisHeadline() const { return m_axisHeadline; }
    QComboBox* alignment() const { return m_align; }
    QTableView* axisTable() const { return m_axisTable; }
    AttemptAxisModel* axisModel() const { return m_axisModel; }

private:
    void showAxis(const Analysis& failed, const BaselineAttempt* healthy);
    void sayAlignment();
    QLabel* m_headline;
    QTableView* m_table;
    BaselineModel* m_model;
    QLabel* m_axisHeadline;
    QComboBox* m_align;
    QTableView* m_axisTable;
    AttemptAxisModel* m_axisModel;
    std::function<std::shared_ptr<const BaselineAttempt>()> m_attemptSource;
    QString m_axisSource;  // the healthy attempt's name
};

} // namespace fl

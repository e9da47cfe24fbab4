// SPDX-License-Identifier: MIT
// Baseline tab: the open result against a healthy attempt of the same job (--baseline DIR, or a service result
// analysed with ?baseline=): what the comparison changed in the verdict, then what is new here (bold) and the
// noise the healthy attempt printed too (dimmed), as BaselineModel rows.
#pragma once

#include "views/baseline/baselinemodel.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTableView;

namespace fl {

struct Analysis;
class FocusState;

class BaselinePanel : public QWidget {
    Q_OBJECT
public:
    explicit BaselinePanel(FocusState* focus, QWidget* parent = nullptr);

    void setAnalysis(const std::shared_ptr<const Analysis>& analysis);
    void clear();

    QLabel* headline() const { return m_headline; }
    QTableView* table() const { return m_table; }
    BaselineModel* model() const { return m_model; }

private:
    QLabel* m_headline;
    QTableView* m_table;
    BaselineModel* m_model;
};

} // namespace fl

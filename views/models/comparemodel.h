// SPDX-License-Identifier: MIT
// The compare view's two tables as item models (issue #45 item 1): CompareModel has one column per candidate
// (A, B … in the result's order, coloured by candidateColor, headed by letter and place) and one row per thing
// compared — the symptom, corrected
// interval, printed time, raw lines, rules fired, symptoms explained, why it tied; ClockTableModel has one row
// per node of present::clockRows. Both copy their rows, so they outlive the analysis they came from; the words
// are core/present's.
#pragma once

#include "present/clock_table.h"
#include "present/compare.h"

#include <QAbstractTableModel>
#include <QColor>

#include <vector>

namespace fl {

// The colour of candidate `index` (A, B …), the same wherever a candidate is labelled (table, timeline).
QColor candidateColor(size_t index);

class CompareModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Rows { SymptomRow, IntervalRow, PrintedRow, RawRow, RulesRow, ExplainsRow, VerdictRow, NUM_ROWS };
    enum Roles { EventRole = Qt::UserRole + 1 };  // a column's Result::events id (header data)

    explicit CompareModel(QObject* parent = nullptr);
    void setColumns(std::vector<present::CompareColumn> columns);
    const std::vector<present::CompareColumn>& columns() const { return m_columns; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<present::CompareColumn> m_columns;
};

class ClockTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { NodeColumn, OffsetColumn, ResidualColumn, MomentsColumn, FromColumn, NUM_COLUMNS };

    explicit ClockTableModel(QObject* parent = nullptr);
    void setRows(std::vector<present::ClockRow> rows);
    const std::vector<present::ClockRow>& rows() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<present::ClockRow> m_rows;
};

} // namespace fl

// SPDX-License-Identifier: MIT
// The open result against its healthy attempt (analyze --baseline, Result::baseline) as rows: the symptom
// families new in this attempt, those also in the baseline, the symptoms only the baseline has, and the new
// error/warning lines no rule knows. The words are core/present's (baselineText).
#pragma once

#include "baseline/comparison.h"

#include <QAbstractTableModel>

#include <vector>

namespace fl {

struct BaselineRow {
    enum class Kind { NewFamily, AlsoFamily, Gone, NewLine };
    Kind kind = Kind::NewFamily;
    QString label;   // the family, symptom or line template
    QString detail;  // "new: 3 lines", "also in the baseline: 12 lines there, 10 here (same rate)", ...
    QString place;   // "node-07 GPU 3 rank 25": two families of one title are told apart here
};

class BaselineModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { StatusColumn, LabelColumn, PlaceColumn, DetailColumn, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    // New families first (the root cause's first), then new unknown lines (most lines first), the shared
    // families, and what is gone; families and what is gone by title, then place: one order for one result.
    static std::vector<BaselineRow> rowsOf(const Result& result, const BaselineComparison& comparison);
    void setRows(std::vector<BaselineRow> rows);
    const BaselineRow& row(int r) const { return m_rows[static_cast<size_t>(r)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString statusText(BaselineRow::Kind kind);
    // What is new bold, what both attempts have (and what is gone) dimmed, not hidden: the font and foreground
    // roles of a row, for this table and the time axis below it.
    static QVariant rowStyle(bool isNew, int role);

private:
    std::vector<BaselineRow> m_rows;
};

} // namespace fl

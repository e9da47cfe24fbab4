// SPDX-License-Identifier: MIT
// The open job's places as a history database (collect --history) counts them: one row per cause at one GPU of
// one of the job's nodes, the root cause's place first.
#pragma once

#include "history/offenders.h"

#include <QAbstractTableModel>

#include <vector>

namespace fl {

struct PlaceHistoryRow {
    history::Offender place;  // jobs, results, first, last at that GPU (no rows listed)
    bool rootPlace = false;   // the open result's root-cause node and GPU
    bool rootCause = false;   // ... and the same cause
};

class HistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { PlaceColumn, CauseColumn, JobsColumn, ResultsColumn, FirstColumn, LastColumn, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    void setRows(std::vector<PlaceHistoryRow> rows);
    const PlaceHistoryRow& row(int r) const { return m_rows[static_cast<size_t>(r)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "node-07 GPU 3 (0000:91:00)", "node-07 0000:91:00", "node-07".
    static QString placeText(const history::Offender& place);

private:
    std::vector<PlaceHistoryRow> m_rows;
};

} // namespace fl

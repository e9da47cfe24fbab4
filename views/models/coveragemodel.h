// SPDX-License-Identifier: MIT
// What each bundle file contributed (Result::connectors) as a table model,
// and the proxy that sorts it and filters it by status and free text. A wide
// bundle has ~14,000 files: one model row each, no widget per cell.
#pragma once

#include "model.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <vector>

namespace fl {

class CoverageModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { FileColumn, KindColumn, StatusColumn, ObservationsColumn, NodeColumn, ReasonColumn, NUM_COLUMNS };
    enum Roles { StatusRole = Qt::UserRole + 1, SortRole };

    explicit CoverageModel(QObject* parent = nullptr);
    // A copy: the model owns its rows and may outlive the analysis it came from.
    void setReports(std::vector<ConnectorReport> reports);
    const ConnectorReport* report(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<ConnectorReport> m_reports;
};

class CoverageFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit CoverageFilterProxy(QObject* parent = nullptr);
    // -1: every status; else a FileStatus value.
    void setStatus(int status);
    // Case-insensitive substring of file, kind, node or reason.
    void setText(const QString& text);

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    int m_status = -1;
    QString m_text;
};

} // namespace fl

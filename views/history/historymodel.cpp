// SPDX-License-Identifier: MIT
#include "views/history/historymodel.h"

#include <QFont>
#include <QGuiApplication>
#include <QPalette>

namespace fl {

void HistoryModel::setRows(std::vector<PlaceHistoryRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int HistoryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int HistoryModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString HistoryModel::placeText(const history::Offender& p)
{
    QString s = QString::fromStdString(p.node);
    if (p.gpu >= 0)
        s += QObject::tr(" GPU %1").arg(p.gpu);
    if (!p.pciBus.empty())
        s += p.gpu >= 0 ? QStringLiteral(" (%1)").arg(QString::fromStdString(p.pciBus))
                        : QStringLiteral(" ") + QString::fromStdString(p.pciBus);
    return s;
}

QVariant HistoryModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const PlaceHistoryRow& r = m_rows[static_cast<size_t>(index.row())];
    const history::Offender& p = r.place;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case PlaceColumn: return placeText(p);
        case CauseColumn: return QString::fromStdString(p.fingerprint);
        case JobsColumn: return p.jobs;
        case ResultsColumn: return p.results;
        case FirstColumn: return QString::fromStdString(p.first);
        case LastColumn: return QString::fromStdString(p.last);
        default: return {};
        }
    case Qt::FontRole:
        if (r.rootCause) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::BackgroundRole:
        // The root cause's own place stands out; the same cause elsewhere in the job does not.
        if (r.rootPlace)
            return QGuiApplication::palette().color(QPalette::AlternateBase);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == JobsColumn || index.column() == ResultsColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        return QObject::tr("%1 at %2: jobs %3, results %4 in the history, %5 .. %6")
            .arg(QString::fromStdString(p.fingerprint), placeText(p))
            .arg(p.jobs)
            .arg(p.results)
            .arg(QString::fromStdString(p.first), QString::fromStdString(p.last));
    default:
        return {};
    }
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PlaceColumn: return tr("Place");
    case CauseColumn: return tr("Cause");
    case JobsColumn: return tr("Jobs");
    case ResultsColumn: return tr("Results");
    case FirstColumn: return tr("First");
    case LastColumn: return tr("Last");
    default: return {};
    }
}

} // namespace fl

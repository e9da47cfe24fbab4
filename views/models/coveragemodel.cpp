// SPDX-License-Identifier: MIT
#include "views/models/coveragemodel.h"

#include "views/common/viewstyle.h"

#include <QBrush>

namespace fl {

CoverageModel::CoverageModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void CoverageModel::setReports(std::vector<ConnectorReport> reports)
{
    beginResetModel();
    m_reports = std::move(reports);
    endResetModel();
}

const ConnectorReport* CoverageModel::report(int row) const
{
    return row >= 0 && row < rowCount() ? &m_reports[static_cast<size_t>(row)] : nullptr;
}

int CoverageModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_reports.size());
}

int CoverageModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant CoverageModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ConnectorReport& c = m_reports[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        switch (index.column()) {
        case FileColumn: return style::q(c.file);
        case KindColumn: return style::q(toString(c.kind));
        case StatusColumn: return style::q(toString(c.status));
        case ObservationsColumn: return static_cast<qulonglong>(c.observations);
        case NodeColumn: return style::q(c.node) + (c.rank >= 0 ? QStringLiteral(" r%1").arg(c.rank) : QString());
        case ReasonColumn: return style::q(c.reason.empty() ? c.kindReason : c.reason);
        default: return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == ReasonColumn)
            return style::q(c.kindReason) + QLatin1Char('\n') + style::q(c.reason);
        return {};
    case Qt::ForegroundRole:
        if (c.status == FileStatus::Error)
            return QBrush(QColor(0xb0, 0x00, 0x20));
        if (c.status != FileStatus::Ok)
            return QBrush(QColor(0x77, 0x77, 0x77));
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == ObservationsColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case StatusRole: return static_cast<int>(c.status);
    default: return {};
    }
}

QVariant CoverageModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case FileColumn: return tr("File");
    case KindColumn: return tr("Kind");
    case StatusColumn: return tr("Status");
    case ObservationsColumn: return tr("Obs.");
    case NodeColumn: return tr("Node");
    case ReasonColumn: return tr("Reason");
    default: return {};
    }
}

CoverageFilterProxy::CoverageFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(CoverageModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void CoverageFilterProxy::setStatus(int status)
{
    if (status == m_status)
        return;
    m_status = status;
    invalidateRowsFilter();
}

void CoverageFilterProxy::setText(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateRowsFilter();
}

bool CoverageFilterProxy::filterAcceptsRow(int row, const QModelIndex& parent) const
{
    const auto* m = static_cast<const CoverageModel*>(sourceModel());
    const ConnectorReport* c = m ? m->report(row) : nullptr;
    if (!c || parent.isValid())
        return false;
    if (m_status >= 0 && static_cast<int>(c->status) != m_status)
        return false;
    if (m_text.isEmpty())
        return true;
    for (const std::string* s : {&c->file, &c->node, &c->reason, &c->kindReason})
        if (style::q(*s).contains(m_text, Qt::CaseInsensitive))
            return true;
    return style::q(toString(c->kind)).contains(m_text, Qt::CaseInsensitive);
}

} // namespace fl

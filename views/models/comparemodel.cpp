// SPDX-License-Identifier: MIT
#include "views/models/comparemodel.h"

#include "views/common/viewstyle.h"

#include <QFont>
#include <QStringList>

namespace fl {

namespace {

QString joined(const std::vector<std::string>& lines)
{
    QStringList out;
    for (const auto& l : lines)
        out << style::q(l);
    return out.join(QLatin1Char('\n'));
}

} // namespace

QColor candidateColor(size_t index)
{
    // Hues far apart and none of them the red of a root or the grey of context: A and B are told apart,
    // neither reads as "the answer".
    static const QColor colours[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xe6, 0x8a, 0x00), QColor(0x2c, 0xa0, 0x2c),
                                     QColor(0x94, 0x67, 0xbd), QColor(0x17, 0xbe, 0xcf), QColor(0x8c, 0x56, 0x4b),
                                     QColor(0xbc, 0xbd, 0x22), QColor(0xe3, 0x77, 0xc2)};
    return colours[index % std::size(colours)];
}

CompareModel::CompareModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void CompareModel::setColumns(std::vector<present::CompareColumn> columns)
{
    beginResetModel();
    m_columns = std::move(columns);
    endResetModel();
}

int CompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || m_columns.empty() ? 0 : NUM_ROWS;
}

int CompareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_columns.size());
}

QVariant CompareModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& c = m_columns[static_cast<size_t>(index.column())];
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.row()) {
        case SymptomRow: return style::q(c.title);
        case IntervalRow: return style::q(c.intervalText);
        case PrintedRow: return style::q(c.printed);
        case RawRow: return joined(c.rawLines);
        case RulesRow: return joined(c.rules);
        case ExplainsRow: return joined(c.explains);
        case VerdictRow: return style::q(c.verdict);
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignTop));
    if (role == EventRole)
        return static_cast<qulonglong>(c.event.value);
    return {};
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Vertical) {
        if (role != Qt::DisplayRole || section < 0 || section >= NUM_ROWS)
            return {};
        static const char* const names[] = {QT_TR_NOOP("Symptom"), QT_TR_NOOP("Interval"), QT_TR_NOOP("Printed"), QT_TR_NOOP("Raw lines"),
                                            QT_TR_NOOP("Rules fired"), QT_TR_NOOP("Explains"), QT_TR_NOOP("Verdict")};
        return tr(names[section]);
    }
    if (section < 0 || static_cast<size_t>(section) >= m_columns.size())
        return {};
    const auto& c = m_columns[static_cast<size_t>(section)];
    switch (role) {
    case Qt::DisplayRole:  // short, so that two columns in a side tab still show it whole; the symptom is a row
        return QStringLiteral("%1 · %2").arg(style::q(c.label), style::q(c.place));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
    case Qt::ToolTipRole:
        return QStringLiteral("%1: %2 @ %3\n%4").arg(style::q(c.label), style::q(c.title), style::q(c.place),
                                                     style::q(c.intervalText));
    case Qt::ForegroundRole:
        return candidateColor(static_cast<size_t>(section));
    case Qt::FontRole: {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    case EventRole:
        return static_cast<qulonglong>(c.event.value);
    default:
        return {};
    }
}

ClockTableModel::ClockTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ClockTableModel::setRows(std::vector<present::ClockRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int ClockTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ClockTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant ClockTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& r = m_rows[static_cast<size_t>(index.row())];
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case NodeColumn: return style::q(r.node);
        case OffsetColumn: return style::q(r.offset);
        case ResidualColumn: return style::q(r.residual);
        case MomentsColumn: return QString::number(r.moments);
        case FromColumn: return style::q(r.from);
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != NodeColumn && index.column() != FromColumn)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    return {};
}

QVariant ClockTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= NUM_COLUMNS)
        return {};
    static const char* const names[] = {QT_TR_NOOP("Node"), QT_TR_NOOP("Offset"), QT_TR_NOOP("Residual"),
                                        QT_TR_NOOP("Shared moments"), QT_TR_NOOP("From")};
    return tr(names[section]);
}

} // namespace fl

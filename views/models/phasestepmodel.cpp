// SPDX-License-Identifier: MIT
#include "views/models/phasestepmodel.h"

namespace fl {

PhaseStepModel::PhaseStepModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void PhaseStepModel::setSteps(PhaseSteps steps)
{
    beginResetModel();
    m_steps = std::move(steps);
    m_rowOf.clear();
    for (int i = 0; i < m_steps.count(); ++i)
        m_rowOf.insert(m_steps.step(i).phase, i);
    endResetModel();
}

int PhaseStepModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_steps.count();
}

int PhaseStepModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(FirstChangeColumn) + int(PhaseSteps::ChangeCount);
}

QVariant PhaseStepModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const PhaseSteps::Step& s = m_steps.step(index.row());
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == PhaseColumn)
            return s.phase;
        if (index.column() == TouchedColumn)
            return static_cast<int>(s.touched.size());
        return static_cast<int>(s.events[static_cast<size_t>(index.column() - FirstChangeColumn)].size());
    case Qt::TextAlignmentRole:
        return index.column() == PhaseColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return index.column() == PhaseColumn ? PhaseSteps::phaseDescription(s.phase) : QVariant();
    case PhaseRole: return s.phase;
    case TouchedCountRole: return static_cast<int>(s.touched.size());
    default: return {};
    }
}

QVariant PhaseStepModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    if (section == PhaseColumn)
        return tr("Phase");
    if (section == TouchedColumn)
        return tr("Events touched");
    if (section >= FirstChangeColumn && section < int(FirstChangeColumn) + int(PhaseSteps::ChangeCount))
        return PhaseSteps::changeName(static_cast<PhaseSteps::Change>(section - FirstChangeColumn));
    return {};
}

} // namespace fl

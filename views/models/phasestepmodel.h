// SPDX-License-Identifier: MIT
// The Teach tab's steps as a table model: one row a phase of the engine, in
// the order it runs, with how many events it touched, then how many each kind
// of change touched (PhaseSteps::Change) in a column each. A phase's row is found by its name
// in O(1).
#pragma once

#include "views/teach/phasesteps.h"

#include <QAbstractTableModel>
#include <QHash>

namespace fl {

class PhaseStepModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { PhaseColumn, TouchedColumn, FirstChangeColumn };  // then one column a PhaseSteps::Change
    enum Roles {
        PhaseRole = Qt::UserRole + 1,  // QString: the phase's name
        TouchedCountRole,              // int: events the phase touched in any way
    };

    explicit PhaseStepModel(QObject* parent = nullptr);

    void setSteps(PhaseSteps steps);
    const PhaseSteps& steps() const { return m_steps; }
    int rowOfPhase(const QString& phase) const { return m_rowOf.value(phase, -1); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    PhaseSteps m_steps;
    QHash<QString, int> m_rowOf;
};

} // namespace fl

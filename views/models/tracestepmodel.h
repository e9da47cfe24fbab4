// SPDX-License-Identifier: MIT
// The Teach tab's rows for one phase as a table model: one row a trace step
// (what one rule did), in trace order, with the kind of change, the rule, the
// events it acted on (named through an EventIndex: a service result holds only
// some events) and what it did. Text is made when a view asks for a row, so a
// phase with thousands of steps costs nothing until it is scrolled to.
#pragma once

#include "views/common/eventindex.h"
#include "views/teach/phasesteps.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace fl {

class TraceStepModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { ChangeColumn, RuleColumn, EventsColumn, DetailColumn, NUM_COLUMNS };
    enum Roles {
        EventRole = Qt::UserRole + 1,  // uint: the first event the step acted on; invalid when it names none
        ChangeRole,                    // int: its PhaseSteps::Change
    };
    static constexpr size_t kMaxEventsShown = 6;  // per row; "+N more" says how many are left out

    explicit TraceStepModel(QObject* parent = nullptr);

    // The analysis whose trace the steps point into (kept alive here) and whose events they name.
    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    // One phase's steps (PhaseSteps::Step::items of that analysis); empty for none.
    void setSteps(std::vector<const TraceStep*> steps);
    const TraceStep* step(int row) const;
    // "gpu.xid.79 @ node-01 GPU 0 rank 3", or "#id" for an event this result does not hold.
    QString eventText(EventId event) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QStringList eventTexts(const TraceStep& t) const;

    std::shared_ptr<const Analysis> m_analysis;
    EventIndex m_events;
    std::vector<const TraceStep*> m_steps;
};

} // namespace fl

// SPDX-License-Identifier: MIT
#include "views/models/tracestepmodel.h"

#include "present/verdict.h"
#include "views/common/viewstyle.h"

#include <QBrush>

namespace fl {

TraceStepModel::TraceStepModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void TraceStepModel::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    beginResetModel();
    m_analysis = std::move(analysis);
    m_events = m_analysis ? EventIndex(m_analysis->result) : EventIndex();
    m_steps.clear();  // they pointed into the previous analysis's trace
    endResetModel();
}

void TraceStepModel::setSteps(std::vector<const TraceStep*> steps)
{
    beginResetModel();
    m_steps = std::move(steps);
    endResetModel();
}

const TraceStep* TraceStepModel::step(int row) const
{
    return row >= 0 && row < rowCount() ? m_steps[static_cast<size_t>(row)] : nullptr;
}

QString TraceStepModel::eventText(EventId event) const
{
    const SymptomEvent* e = m_events.find(event);
    if (!e)
        return QStringLiteral("#%1").arg(event.value);
    return style::q(e->symptom.str() + " @ " + present::place(e->node, e->gpuIndex, e->pciBus, e->rank));
}

QStringList TraceStepModel::eventTexts(const TraceStep& t) const
{
    QStringList evs;
    for (size_t i = 0; i < t.events.size() && i < kMaxEventsShown; ++i)
        evs << eventText(t.events[i]);
    if (t.events.size() > kMaxEventsShown)
        evs << tr("+%1 more").arg(t.events.size() - kMaxEventsShown);
    return evs;
}

int TraceStepModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_steps.size());
}

int TraceStepModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant TraceStepModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const TraceStep& t = *m_steps[static_cast<size_t>(index.row())];
    const PhaseSteps::Change change = PhaseSteps::classify(t.action);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:  // the panel is narrow: the rule id and events are cut, the tooltips hold them whole
        switch (index.column()) {
        case ChangeColumn: return role == Qt::DisplayRole ? PhaseSteps::changeName(change) : QVariant();
        case RuleColumn: return style::q(t.rule);
        case EventsColumn: return eventTexts(t).join(role == Qt::DisplayRole ? QStringLiteral(", ") : QStringLiteral("\n"));
        case DetailColumn:  // the rule first: the Teach panel shows this column alone, wrapped
            return style::q(t.rule) + QStringLiteral(": ") + style::q(present::traceAction(t)) +
                   (t.detail.empty() ? QString() : QStringLiteral(" — ") + style::q(t.detail));
        }
        return {};
    case Qt::ForegroundRole:
        if (index.column() != ChangeColumn)
            return {};
        if (change == PhaseSteps::Suppressed)
            return QBrush(style::levelColor(style::Suppressed));
        // Red is the root's colour: only the outcome's choice wears it (a role set by a filter is no root, and
        // the replay keeps red back until outcome).
        if (t.action == TraceAction::Chose)
            return QBrush(style::levelColor(style::Root));
        return {};
    case EventRole: return t.events.empty() ? QVariant() : QVariant(t.events.front().value);
    case ChangeRole: return static_cast<int>(change);
    default: return {};
    }
}

QVariant TraceStepModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ChangeColumn: return tr("Change");
    case RuleColumn: return tr("Rule");
    case EventsColumn: return tr("Events");
    case DetailColumn: return tr("Detail");
    }
    return {};
}

} // namespace fl

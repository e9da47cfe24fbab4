// SPDX-License-Identifier: MIT
#include "views/models/timelinelanemodel.h"

#include <QSet>

namespace fl {

namespace {
// internalId: the lane index + 1, so that 0 stays "no lane" (the invisible root).
quintptr idOf(int lane)
{
    return static_cast<quintptr>(lane) + 1;
}
int laneOf(const QModelIndex& index)
{
    return static_cast<int>(index.internalId()) - 1;
}
} // namespace

TimelineLaneModel::TimelineLaneModel(QObject* parent)
    : QAbstractItemModel(parent)
{
}

void TimelineLaneModel::setLanes(std::shared_ptr<const TimelineLanes> lanes)
{
    beginResetModel();
    m_lanes = std::move(lanes);
    m_top.clear();
    m_rowOf.clear();
    if (m_lanes) {
        m_rowOf.assign(static_cast<size_t>(m_lanes->laneCount()), -1);
        for (int i = 0; i < m_lanes->laneCount(); ++i) {
            const Lane& l = m_lanes->lane(i);
            if (l.parent >= 0)
                continue;
            m_rowOf[static_cast<size_t>(i)] = static_cast<int>(m_top.size());
            m_top.push_back(i);
            for (size_t c = 0; c < l.children.size(); ++c)
                m_rowOf[static_cast<size_t>(l.children[c])] = static_cast<int>(c);
        }
    }
    endResetModel();
}

QModelIndex TimelineLaneModel::indexOfLane(int lane, int column) const
{
    if (!m_lanes || lane < 0 || lane >= m_lanes->laneCount())
        return {};
    return createIndex(m_rowOf[static_cast<size_t>(lane)], column, idOf(lane));
}

void TimelineLaneModel::setLaneNotes(QHash<QString, QString> notes)
{
    QSet<QString> changed;
    for (auto it = m_notes.cbegin(); it != m_notes.cend(); ++it)
        if (notes.value(it.key()) != it.value())
            changed.insert(it.key());
    for (auto it = notes.cbegin(); it != notes.cend(); ++it)
        if (m_notes.value(it.key()) != it.value())
            changed.insert(it.key());
    m_notes = std::move(notes);
    for (const QString& key : changed)
        if (const QModelIndex i = indexOfKey(key); i.isValid())
            emit dataChanged(i, i.siblingAtColumn(EventsColumn), {NoteRole});
}

QModelIndex TimelineLaneModel::indexOfKey(const QString& key, int column) const
{
    return m_lanes ? indexOfLane(m_lanes->laneOfKey(key), column) : QModelIndex();
}

QModelIndex TimelineLaneModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, idOf(m_top[static_cast<size_t>(row)]));
    const Lane& p = m_lanes->lane(laneOf(parent));
    return createIndex(row, column, idOf(p.children[static_cast<size_t>(row)]));
}

QModelIndex TimelineLaneModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || !m_lanes)
        return {};
    const int parentLane = m_lanes->lane(laneOf(child)).parent;
    return parentLane < 0 ? QModelIndex() : indexOfLane(parentLane, LaneColumn);
}

int TimelineLaneModel::rowCount(const QModelIndex& parent) const
{
    if (!m_lanes)
        return 0;
    if (!parent.isValid())
        return static_cast<int>(m_top.size());
    if (parent.column() != LaneColumn)
        return 0;
    return static_cast<int>(m_lanes->lane(laneOf(parent)).children.size());
}

int TimelineLaneModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant TimelineLaneModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_lanes)
        return {};
    const int laneIndex = laneOf(index);
    const Lane& l = m_lanes->lane(laneIndex);
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == LaneColumn)
            return l.label;
        return QVariant::fromValue<qulonglong>(l.eventCount());
    case LaneIndexRole: return laneIndex;
    case LaneKeyRole: return l.key;
    case EventCountRole: return QVariant::fromValue<qulonglong>(l.eventCount());
    case FirstAnomalyRole: return l.firstAnomaly == kNoTime ? QVariant() : QVariant::fromValue<qlonglong>(l.firstAnomaly);
    case RootRole: return l.root;
    case NoteRole: return m_notes.value(l.key);
    case WorstLevelRole:
        for (int level = style::LevelCount - 1; level >= 0; --level)
            if (!l.times[static_cast<size_t>(level)].empty())
                return level;
        return {};
    default: return {};
    }
}

QVariant TimelineLaneModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    if (section == LaneColumn)
        return tr("Lane");
    if (section == EventsColumn)
        return tr("Events");
    return {};
}

} // namespace fl

// SPDX-License-Identifier: MIT
// The timeline's lanes as a tree model (Hotspot's EventModel under its
// TimeLineDelegate): node lanes at the top, their rank lanes as children;
// column 0 the lane's name, column 1 its events (the strip TimelineLaneDelegate
// paints, read through the roles). It serves the TimelineLanes the timeline
// already built, never copies them, and finds a lane's index by its index or
// key in O(1) (Wireshark's number_to_row_). The reviewer's lane notes are a role.
#pragma once

#include "views/timeline/timelinelanes.h"

#include <QAbstractItemModel>
#include <QHash>

#include <memory>
#include <vector>

namespace fl {

class TimelineLaneModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Columns { LaneColumn, EventsColumn, ColumnCount };
    enum Roles {
        LaneIndexRole = Qt::UserRole + 1,  // int: index into TimelineLanes
        LaneKeyRole,                       // QString: "node" or "node/rank", what FocusState::lane holds
        EventCountRole,                    // qulonglong
        FirstAnomalyRole,                  // qlonglong ns, invalid when the lane has none
        RootRole,                          // bool: holds the root-cause event
        WorstLevelRole,                    // int style::Level of the lane's worst event, invalid when none
        NoteRole,                          // QString: the reviewer's note on the lane, empty when none
    };

    explicit TimelineLaneModel(QObject* parent = nullptr);

    // Serves `lanes` (kept alive by the model); null empties it.
    void setLanes(std::shared_ptr<const TimelineLanes> lanes);
    const TimelineLanes* lanes() const { return m_lanes.get(); }
    QModelIndex indexOfKey(const QString& key, int column = LaneColumn) const;
    QModelIndex indexOfLane(int lane, int column = LaneColumn) const;
    // Notes by lane key; kept across setLanes (a key names the same lane in the next analysis).
    void setLaneNotes(QHash<QString, QString> notes);
    const QHash<QString, QString>& laneNotes() const { return m_notes; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QHash<QString, QString> m_notes;
    std::shared_ptr<const TimelineLanes> m_lanes;
    std::vector<int> m_top;    // node lanes, in lane order
    std::vector<int> m_rowOf;  // by lane: its row under its parent (or at the top)
};

} // namespace fl

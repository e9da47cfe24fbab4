// SPDX-License-Identifier: MIT
// Paints one timeline lane from its TimelineLaneModel index (Hotspot's
// TimeLineDelegate): LaneColumn is the label cell (disclosure triangle, name,
// counts, note marker), EventsColumn the strip (waits, uncertain times' whiskers,
// one mark per pixel column, worst level on top). The row's state comes in the
// style option (Selected, Alternate); the time window through setWindow. The
// per-pixel geometry is cached per lane for one window and width (Qt Creator's
// trackpainter), so scrolling and hovering replay it.
#pragma once

#include "views/common/timecoords.h"
#include "views/timeline/timelinelanes.h"

#include <QStyledItemDelegate>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace fl {

class TimelineLaneDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    // The window the strips show; a change of window or width drops the cached geometry.
    void setWindow(timecoords::Range range, int width);
    // The lanes were rebuilt: every cached lane is stale.
    void invalidate() { m_cache.clear(); }
    int cachedLanes() const { return static_cast<int>(m_cache.size()); }

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    struct Geometry {
        std::vector<uint8_t> marks, spans;  // TimelineLanes::marks / spanMarks
    };
    const Geometry& geometry(const TimelineLanes& lanes, int lane) const;
    void paintLabel(QPainter& p, const QStyleOptionViewItem& option, const QModelIndex& index) const;
    void paintStrip(QPainter& p, const QStyleOptionViewItem& option, const QModelIndex& index) const;

    timecoords::Range m_range;
    int m_width = -1;
    mutable std::unordered_map<int, Geometry> m_cache;  // by lane index
};

} // namespace fl

// SPDX-License-Identifier: MIT
// TimelineView's labelled marks (TimelineMark): kept by layer, drawn over the lanes as the interval each
// names, outlined in its colour, with its label beside it.
#include "views/timeline/timelineview.h"

#include "views/common/viewstyle.h"

#include <QPainter>

namespace fl {

void TimelineView::setMarks(const QString& layer, std::vector<TimelineMark> marks)
{
    if (marks.empty())
        m_marks.erase(layer);
    else
        m_marks[layer] = std::move(marks);
    update();
}

const std::vector<TimelineMark>& TimelineView::marks(const QString& layer) const
{
    static const std::vector<TimelineMark> none;
    const auto it = m_marks.find(layer);
    return it == m_marks.end() ? none : it->second;
}

void TimelineView::paintMarks(QPainter& p)
{
    m_lastPaintedMarks.clear();
    if (m_marks.empty() || !m_analysis)
        return;
    const int w = plotWidth();
    p.setClipRect(kLabelWidth, kAxisHeight, w, height() - kAxisHeight);
    p.setRenderHint(QPainter::Antialiasing, true);
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    const int first = firstVisibleRow();
    const int last = std::min(m_lanes.rowCount(), first + visibleRowCount() + 1);
    const QFontMetrics fm(bold);
    for (int row = first; row < last; ++row) {
        const Lane& lane = m_lanes.lane(m_lanes.laneAtRow(row));
        const double top = kAxisHeight + (row - first) * m_rowHeight;
        // Labels of one lane never cover each other ("B" and "reviewed root: alice" on one event): each goes
        // right of those already placed where they would meet.
        std::vector<QRectF> placed;
        for (const auto& [layer, marks] : m_marks) {
            for (const TimelineMark& m : marks) {
                const SymptomEvent* e = eventById(m.event);
                if (!e || e->node != lane.node || (lane.rank >= 0 && e->rank != lane.rank))
                    continue;
                // Without an interval of its own, the mark spans the event's (its corrected time), else its point.
                const bool own = m.fromNs != kNoTime && m.toNs != kNoTime;
                const TimeInterval iv = own ? TimeInterval{m.fromNs, m.toNs}
                                            : (e->time.interval.bounded() ? e->time.interval : TimeInterval{e->time.ns, e->time.ns});
                if (iv.earliestNs == kNoTime || iv.latestNs < m_range.start || iv.earliestNs > m_range.end)
                    continue;
                // At least 6 px wide: an interval of a millisecond on a minute's axis is still seen.
                double x0 = xOfTime(iv.earliestNs), x1 = xOfTime(iv.latestNs);
                if (x1 - x0 < 6) {
                    const double c = (x0 + x1) / 2;
                    x0 = c - 3;
                    x1 = c + 3;
                }
                const QRectF bar(x0, top + 3, x1 - x0, m_rowHeight - 6);
                QColor fill = m.colour;
                fill.setAlpha(60);
                p.fillRect(bar, fill);
                p.setPen(QPen(m.colour, 2));
                p.setBrush(Qt::NoBrush);
                p.drawRect(bar);
                // Inside the bar's left end when it fits there (clear of the root diamond at the printed time,
                // which sits at the right end), else past its right end and the diamond.
                const double labelWidth = fm.horizontalAdvance(m.label) + 6;
                QRectF label(x1 - x0 > labelWidth + 16 ? x0 + 3 : x1 + 10, top + 3, labelWidth, m_rowHeight - 6);
                for (const QRectF& other : placed)
                    if (label.intersects(other))
                        label.moveLeft(other.right() + 4);
                placed.push_back(label);
                p.fillRect(label, QColor(255, 255, 255, 220));
                p.setPen(m.colour.darker(130));
                p.drawText(label, Qt::AlignCenter, m.label);
                m_lastPaintedMarks << m.label;
            }
        }
    }
    p.setFont(font());
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setClipping(false);
}

} // namespace fl

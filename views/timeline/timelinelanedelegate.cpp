// SPDX-License-Identifier: MIT
#include "views/timeline/timelinelanedelegate.h"

#include "views/common/viewstyle.h"
#include "views/models/timelinelanemodel.h"

#include <QPainter>
#include <QPainterPath>

namespace fl {

using namespace timecoords;

void TimelineLaneDelegate::setWindow(Range range, int width)
{
    if (range == m_range && width == m_width)
        return;
    m_range = range;
    m_width = width;
    m_cache.clear();
}

const TimelineLaneDelegate::Geometry& TimelineLaneDelegate::geometry(const TimelineLanes& lanes, int lane) const
{
    auto it = m_cache.find(lane);
    if (it == m_cache.end()) {
        it = m_cache.emplace(lane, Geometry()).first;
        lanes.marks(lane, m_range.start, m_range.end, m_width, it->second.marks);
        lanes.spanMarks(lane, m_range.start, m_range.end, m_width, it->second.spans);
    }
    return it->second;
}

QSize TimelineLaneDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    return {index.column() == TimelineLaneModel::EventsColumn ? std::max(m_width, 1) : option.rect.width(),
            option.fontMetrics.height() + 8};
}

void TimelineLaneDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const auto* model = qobject_cast<const TimelineLaneModel*>(index.model());
    if (!model || !model->lanes())
        return;
    painter->save();
    // The row's background: alternating, the root cause's lane tinted.
    QColor bg = option.features & QStyleOptionViewItem::Alternate ? option.palette.alternateBase().color()
                                                                  : option.palette.base().color();
    if (index.data(TimelineLaneModel::RootRole).toBool())
        bg = QColor(0xfb, 0xe3, 0xe3);
    painter->fillRect(option.rect, bg);
    if (index.column() == TimelineLaneModel::LaneColumn)
        paintLabel(*painter, option, index);
    else
        paintStrip(*painter, option, index);
    painter->restore();
}

void TimelineLaneDelegate::paintLabel(QPainter& p, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const TimelineLanes& lanes = *static_cast<const TimelineLaneModel*>(index.model())->lanes();
    const int laneIndex = index.data(TimelineLaneModel::LaneIndexRole).toInt();
    const Lane& lane = lanes.lane(laneIndex);
    const QRect r = option.rect;
    if (option.state & QStyle::State_Selected)
        p.fillRect(r, option.palette.highlight().color().lighter(170));
    // Disclosure triangle for nodes with ranks, indented rank lanes.
    const int indent = lane.parent >= 0 ? 26 : 6;
    if (!lane.children.empty()) {
        QPainterPath tri;
        const QPointF c(r.left() + 12, r.top() + r.height() / 2.0);
        if (lanes.isExpanded(laneIndex)) {
            tri.moveTo(c + QPointF(-4, -2));
            tri.lineTo(c + QPointF(4, -2));
            tri.lineTo(c + QPointF(0, 3));
        } else {
            tri.moveTo(c + QPointF(-2, -4));
            tri.lineTo(c + QPointF(3, 0));
            tri.lineTo(c + QPointF(-2, 4));
        }
        p.fillPath(tri, option.palette.text());
    }
    QFont f = option.font;
    f.setBold(lane.root);
    p.setFont(f);
    p.setPen(option.palette.text().color());
    QString label = lane.label + (lane.children.empty() ? QString() : QStringLiteral("  (%1)").arg(lane.children.size()));
    // Events whose boot time is unknown are listed, not placed: say how many.
    if (lane.bootRelative > 0)
        label += QStringLiteral("  +%1 boot").arg(lane.bootRelative);
    // Counted only when nothing has a time: in a timed bundle, untimed NCCL INFO lines on every
    // node would crowd out the node names.
    if (lane.untimed > 0 && lanes.minTime() == kNoTime)
        label += tr("  %1 untimed").arg(lane.untimed);
    const int textX = r.left() + indent + (lane.children.empty() ? 0 : 12);
    const int textW = r.width() - indent - 14;
    p.drawText(QRect(textX, r.top(), textW, r.height()), Qt::AlignVCenter | Qt::AlignLeft,
               p.fontMetrics().elidedText(label, Qt::ElideMiddle, textW));
    if (!index.data(TimelineLaneModel::NoteRole).toString().isEmpty()) {
        // A folded-corner note marker at the end of the label.
        const QRect mark(r.right() - 13, r.top() + 5, 10, r.height() - 10);
        p.fillRect(mark, QColor(0xff, 0xd5, 0x4f));
        p.setPen(QColor(0xa0, 0x7c, 0x00));
        p.drawRect(mark.adjusted(0, 0, -1, -1));
    }
    p.setPen(option.palette.mid().color());
    p.drawLine(r.right(), r.top(), r.right(), r.bottom() + 1);
}

void TimelineLaneDelegate::paintStrip(QPainter& p, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const TimelineLanes& lanes = *static_cast<const TimelineLaneModel*>(index.model())->lanes();
    const Lane& lane = lanes.lane(index.data(TimelineLaneModel::LaneIndexRole).toInt());
    const QRect r = option.rect;
    const int h = r.height(), y = r.top(), x0 = r.left();
    const auto xOf = [&](int64_t t) { return x0 + timeToPixel(t, m_range.start, m_range.end, m_width); };
    p.setClipRect(r);
    const int barH = 2, tickH = 8;
    // Waiting symptoms: a faint bar back to where what they waited for began, with a tick there.
    for (const auto& [onset, fire] : lane.waits) {
        if (fire < m_range.start || onset > m_range.end)
            continue;
        const double a = std::max(xOf(onset), double(x0)), b = std::min(xOf(fire), double(x0 + m_width));
        QColor c = style::levelColor(style::Symptom);
        c.setAlpha(45);
        p.fillRect(QRectF(a, y + h / 2.0 - 3, b - a, 6), c);
        c.setAlpha(110);
        if (onset >= m_range.start)
            p.fillRect(QRectF(xOf(onset), y + (h - tickH) / 2.0, 1, tickH), c);
    }
    // Uncertain times under the marks: a thin faint whisker from the mark towards [earliest, latest], capped
    // (TimelineLanes::spanMarks), with a tick where the interval really ends. One rectangle per run of equal
    // level. The selected event's whole interval is a band (TimelineView's overlays).
    const Geometry& geo = geometry(lanes, index.data(TimelineLaneModel::LaneIndexRole).toInt());
    const auto& spans = geo.spans;
    const int n = static_cast<int>(spans.size());
    for (int x = 0; x < n;) {
        const uint8_t v = spans[static_cast<size_t>(x)] & TimelineLanes::kSpanLevel;
        int x1 = x + 1;
        while (x1 < n && (spans[static_cast<size_t>(x1)] & TimelineLanes::kSpanLevel) == v)
            ++x1;
        if (v > 0) {
            QColor c = style::levelColor(static_cast<style::Level>(v - 1));
            c.setAlpha(120);
            p.fillRect(QRect(x0 + x, y + (h - barH) / 2, x1 - x, barH), c);
            for (int t = x; t < x1; ++t)
                if (spans[static_cast<size_t>(t)] & TimelineLanes::kSpanEnd)
                    p.fillRect(QRect(x0 + t, y + (h - tickH) / 2, 1, tickH), c);
        }
        x = x1;
    }
    // Marks: low levels first so the worst colour ends on top where they touch.
    const auto& marks = geo.marks;
    for (int lv = style::Suppressed; lv < style::LevelCount; ++lv) {
        const QColor c = style::levelColor(static_cast<style::Level>(lv));
        const int mh = lv == style::Suppressed ? h / 3 : std::min(h, 26) - 8;  // a tall lane keeps marks short
        for (int x = 0; x < static_cast<int>(marks.size()); ++x)
            if (marks[static_cast<size_t>(x)] == lv + 1)
                p.fillRect(QRect(x0 + x - 2, y + (h - mh) / 2, 5, mh), c);
    }
    p.setClipping(false);
}

} // namespace fl

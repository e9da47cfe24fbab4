// SPDX-License-Identifier: MIT
#include "views/timeline/timelineview.h"

#include "views/timeline/onsetlabel.h"

#include "present/verdict.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QStyleOptionViewItem>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <set>

namespace fl {

using namespace timecoords;

TimelineView::TimelineView(FocusState* focus, QWidget* parent)
    : QWidget(parent)
    , m_focus(focus)
    , m_model(new TimelineLaneModel(this))
    , m_delegate(new TimelineLaneDelegate(this))
    , m_vbar(new QScrollBar(Qt::Vertical, this))
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumHeight(kAxisHeight + 3 * kMinRowHeight);
    connect(m_vbar, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    connect(m_focus, &FocusState::timeWindowChanged, this, &TimelineView::onTimeWindow);
    connect(m_focus, &FocusState::eventSelected, this, &TimelineView::onEventSelected);
    connect(m_focus, &FocusState::laneFilterChanged, this, &TimelineView::onLaneFilter);
    connect(m_focus, &FocusState::laneSelected, this, [this] { update(); });
    connect(m_focus, &FocusState::cursorMoved, this, [this] { update(); });
    connect(m_focus, &FocusState::highlightChanged, this, &TimelineView::onHighlight);
}

void TimelineView::setLaneNotes(QHash<QString, QString> notes)
{
    m_model->setLaneNotes(std::move(notes));
    update();
}

void TimelineView::onHighlight()
{
    // Resolved once per step, not per paint: a step can touch thousands of events.
    m_highlightTimes.clear();
    if (m_analysis) {
        for (EventId id : m_focus->highlight()) {
            const SymptomEvent* e = eventById(id);
            if (!e || !e->time.known())
                continue;
            const QString node = style::q(e->node);
            m_highlightTimes[node].push_back(e->time.ns);
            if (e->rank >= 0)
                m_highlightTimes[node + QLatin1Char('/') + QString::number(e->rank)].push_back(e->time.ns);
        }
        for (auto& v : m_highlightTimes)
            std::sort(v.begin(), v.end());
    }
    update();
}

int TimelineView::laneAtPos(QPoint pos) const
{
    return pos.y() < kAxisHeight ? -1 : m_lanes.laneAtRow(rowAtY(pos.y()));
}

void TimelineView::contextMenuEvent(QContextMenuEvent* e)
{
    // Only over the labels (or from the keyboard): in the plot, the right
    // button drags out a range to zoom to.
    int lane = -1;
    if (e->reason() == QContextMenuEvent::Keyboard)
        lane = m_lanes.laneOfKey(m_focus->current().lane);
    else if (e->pos().x() < kLabelWidth)
        lane = laneAtPos(e->pos());
    if (lane < 0) {
        e->ignore();
        return;
    }
    const QString key = m_lanes.lane(lane).key;
    QMenu menu(this);
    menu.addAction(laneNotes().contains(key) ? tr("Edit note on %1…").arg(key) : tr("Add note on %1…").arg(key), this,
                   [this, key] { emit laneNoteRequested(key); });
    menu.exec(e->globalPos());
}

QSize TimelineView::sizeHint() const
{
    return {900, kAxisHeight + kMinRowHeight * std::clamp(m_lanes.rowCount(), 4, 14) + 4};
}

void TimelineView::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    Prepared p = prepare(analysis.get());
    setPrepared(std::move(analysis), std::move(p));
}

TimelineView::Prepared TimelineView::prepare(const Analysis* analysis)
{
    Prepared out;
    if (!analysis)
        return out;
    out.events = EventIndex(analysis->result);
    // Nodes that produced files but no event still get a (quiet) lane.
    std::set<std::string> nodes;
    for (const auto& f : analysis->bundle.files)
        if (!f.node.empty())
            nodes.insert(f.node);
    out.lanes.build(analysis->result, {nodes.begin(), nodes.end()});
    return out;
}

void TimelineView::setPrepared(std::shared_ptr<const Analysis> analysis, Prepared prepared)
{
    m_analysis = std::move(analysis);
    m_events = std::move(prepared.events);
    setLanes(std::move(prepared.lanes));
    onHighlight();
}

void TimelineView::setLanes(TimelineLanes lanes)
{
    const bool sort = m_lanes.sortByFirstAnomaly();
    m_lanes = std::move(lanes);
    // The model serves the lanes this view owns: an owner-less shared_ptr (the model lives no longer than the view).
    m_model->setLanes(std::shared_ptr<const TimelineLanes>(std::shared_ptr<const TimelineLanes>(), &m_lanes));
    m_lanes.setSortByFirstAnomaly(sort);
    m_lanes.setFilter(m_focus->current().laneFilter);
    // The root-cause node opens on its ranks: that is where a reader looks first.
    if (m_lanes.rootLane() >= 0)
        m_lanes.setExpanded(m_lanes.rootLane(), true);
    const auto& cur = m_focus->current();
    m_range = cur.startNs != kNoTime && cur.endNs > cur.startNs ? Range{cur.startNs, cur.endNs}
                                                                 : Range{m_lanes.incidentStart(), m_lanes.incidentEnd()};
    if (m_range.start == kNoTime)
        m_range = {0, 1'000'000'000};
    rowsChanged();
}

int TimelineView::plotWidth() const
{
    return std::max(1, width() - kLabelWidth - m_vbar->sizeHint().width());
}

int TimelineView::firstVisibleRow() const
{
    return m_vbar->value();
}

int TimelineView::visibleRowCount() const
{
    return std::max(1, (height() - kAxisHeight) / m_rowHeight);
}

void TimelineView::rowsChanged()
{
    m_delegate->invalidate();
    updateScrollBar();
    update();
    emit lanesChanged();
}

void TimelineView::fitRowHeight()
{
    // A few lanes share the panel's height (up to kMaxRowHeight each) instead
    // of sitting in a strip above an empty panel; many lanes keep the minimum and scroll.
    const int rows = std::max(1, m_lanes.rowCount());
    m_rowHeight = std::clamp((height() - kAxisHeight) / rows, int(kMinRowHeight), int(kMaxRowHeight));
}

void TimelineView::updateScrollBar()
{
    fitRowHeight();
    const int sw = m_vbar->sizeHint().width();
    m_vbar->setGeometry(width() - sw, kAxisHeight, sw, height() - kAxisHeight);
    m_vbar->setRange(0, std::max(0, m_lanes.rowCount() - visibleRowCount()));
    m_vbar->setPageStep(visibleRowCount());
}

void TimelineView::resizeEvent(QResizeEvent*)
{
    updateScrollBar();
}

Range TimelineView::limit() const
{
    // Allow looking a little around the data, never into unbounded space.
    if (m_lanes.minTime() == kNoTime)
        return {};
    const int64_t span = std::max<int64_t>(m_lanes.maxTime() - m_lanes.minTime(), 1'000'000'000);
    return {m_lanes.minTime() - span, m_lanes.maxTime() + span};
}

void TimelineView::setRange(Range r, FocusState::History mode)
{
    if (r.end <= r.start)
        return;
    m_focus->setTimeWindow(r.start, r.end, mode);
}

void TimelineView::onTimeWindow(qint64 start, qint64 end)
{
    if (start == kNoTime || end <= start)
        return;
    m_range = {start, end};
    update();
}

void TimelineView::onEventSelected(std::optional<EventId> event)
{
    if (event) {
        const int64_t t = m_lanes.eventTime(*event);
        // Bring the event into view without changing the zoom the reader chose.
        if (t != kNoTime && (t < m_range.start || t >= m_range.end)) {
            const int64_t span = m_range.end - m_range.start;
            m_range = {t - span / 2, t - span / 2 + span};
        }
    }
    update();
}

void TimelineView::onLaneFilter(const QString& text)
{
    m_lanes.setFilter(text);
    rowsChanged();
}

void TimelineView::fitToIncident()
{
    if (m_lanes.incidentStart() != kNoTime)
        setRange({m_lanes.incidentStart(), m_lanes.incidentEnd()}, FocusState::History::Push);
}

void TimelineView::fitAll()
{
    if (m_lanes.minTime() == kNoTime)
        return;
    const int64_t margin = std::max<int64_t>((m_lanes.maxTime() - m_lanes.minTime()) / 20, 1'000'000'000);
    setRange({m_lanes.minTime() - margin, m_lanes.maxTime() + margin}, FocusState::History::Push);
}

void TimelineView::zoomBy(double factor)
{
    const int64_t centre = m_range.start + (m_range.end - m_range.start) / 2;
    setRange(zoomAround(m_range, centre, factor, limit()), FocusState::History::Coalesce);
}

void TimelineView::setSortByFirstAnomaly(bool on)
{
    m_lanes.setSortByFirstAnomaly(on);
    rowsChanged();
}

void TimelineView::setAllExpanded(bool on)
{
    m_lanes.setAllExpanded(on);
    rowsChanged();
}

void TimelineView::scrollToLane(const QString& key)
{
    int lane = m_lanes.laneOfKey(key);
    if (lane < 0)
        return;
    const int parent = m_lanes.lane(lane).parent;
    if (parent >= 0 && !m_lanes.isExpanded(parent)) {
        m_lanes.setExpanded(parent, true);
        rowsChanged();
    }
    const int row = m_lanes.rowOfLane(lane);
    if (row >= 0 && (row < firstVisibleRow() || row >= firstVisibleRow() + visibleRowCount()))
        m_vbar->setValue(row - visibleRowCount() / 2);
}

int TimelineView::rowAtY(int y) const
{
    if (y < kAxisHeight)
        return -1;
    return rowAt(y - kAxisHeight, double(firstVisibleRow()) * m_rowHeight, m_rowHeight, m_lanes.rowCount());
}

int64_t TimelineView::timeAtX(double x) const
{
    return pixelToTime(x - kLabelWidth, m_range.start, m_range.end, plotWidth());
}

double TimelineView::xOfTime(int64_t t) const
{
    return kLabelWidth + timeToPixel(t, m_range.start, m_range.end, plotWidth());
}

std::optional<EventId> TimelineView::eventAt(QPoint pos) const
{
    const int lane = m_lanes.laneAtRow(rowAtY(pos.y()));
    if (lane < 0 || pos.x() < kLabelWidth)
        return std::nullopt;
    // Marks are 5 px wide: accept a hit 3 px either side.
    return m_lanes.eventNear(lane, timeAtX(pos.x() - 3), timeAtX(pos.x() + 3));
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    paintLanes(p);
    paintAxis(p);
    paintOverlays(p);
    paintHighlights(p);
    paintMarks(p);
}

void TimelineView::paintHighlights(QPainter& p)
{
    m_lastPaintedHighlights = 0;
    if (m_highlightTimes.isEmpty())
        return;
    p.setClipRect(kLabelWidth, kAxisHeight, plotWidth(), height() - kAxisHeight);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(QColor(0x6a, 0x1b, 0x9a), 2));
    p.setBrush(Qt::NoBrush);
    const int first = firstVisibleRow();
    const int last = std::min(m_lanes.rowCount(), first + visibleRowCount() + 1);
    for (int row = first; row < last; ++row) {
        const auto it = m_highlightTimes.constFind(m_lanes.lane(m_lanes.laneAtRow(row)).key);
        if (it == m_highlightTimes.cend())
            continue;
        const double cy = kAxisHeight + (row - first) * m_rowHeight + m_rowHeight / 2.0;
        // One ring per pixel column is enough to see; bounded per lane.
        double lastX = -1e9;
        auto t = std::lower_bound(it->begin(), it->end(), m_range.start);
        for (int n = 0; t != it->end() && *t < m_range.end && n < 256; ++t) {
            const double x = xOfTime(*t);
            if (x - lastX < 3)
                continue;
            lastX = x;
            p.drawEllipse(QPointF(x, cy), 7, 7);
            ++n;
            ++m_lastPaintedHighlights;
        }
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setClipping(false);
}

QString TimelineView::axisTitle() const
{
    // No event has a time (or nothing is open): an axis would be 1970-01-01, a date nothing happened on.
    if (m_lanes.minTime() == kNoTime)
        return m_lanes.laneCount() == 0 ? QString() : tr("no timestamps");
    return m_lanes.bootAxis() ? tr("since each boot") : style::utc(m_range.start).left(10) + QStringLiteral(" UTC");
}

void TimelineView::paintAxis(QPainter& p)
{
    const QRect axis(0, 0, width(), kAxisHeight);
    p.fillRect(axis, palette().window());
    p.setPen(palette().mid().color());
    p.drawLine(0, kAxisHeight - 1, width(), kAxisHeight - 1);
    p.setPen(palette().text().color());
    QFont f = font();
    f.setBold(true);
    p.setFont(f);
    p.drawText(QRect(6, 0, kLabelWidth - 8, kAxisHeight), Qt::AlignVCenter | Qt::AlignLeft, axisTitle());
    p.setFont(font());
    if (m_lanes.minTime() == kNoTime)
        return;  // no ticks either
    const int w = plotWidth();
    const int64_t step = tickStep(m_range.end - m_range.start, w, 110);
    p.setClipRect(kLabelWidth, 0, w, height());
    for (int64_t t = firstTick(m_range.start, step); t < m_range.end; t += step) {
        const double x = xOfTime(t);
        p.setPen(palette().mid().color());
        p.drawLine(QPointF(x, kAxisHeight - 6), QPointF(x, kAxisHeight - 1));
        p.setPen(palette().text().color());
        const QString label = m_lanes.bootAxis() ? style::bootTickLabel(t, step) : style::tickLabel(t, step);
        // A label cut by the right edge reads as a different time: leave it out.
        if (x + 3 + p.fontMetrics().horizontalAdvance(label) <= kLabelWidth + w)
            p.drawText(QRectF(x + 3, 0, 150, kAxisHeight - 4), Qt::AlignVCenter | Qt::AlignLeft, label);
        if (t > m_range.end - step)
            break;  // guards the loop against t + step overflowing at the int64 edge
    }
    p.setClipping(false);
}

void TimelineView::paintLanes(QPainter& p)
{
    m_lastPaintedLanes = 0;
    const int first = firstVisibleRow();
    const int last = std::min(m_lanes.rowCount(), first + visibleRowCount() + 1);
    // Only visible lanes are painted: 10,000 lanes cost as much as 30.
    const int w = plotWidth();
    m_delegate->setWindow(m_range, w);
    QStyleOptionViewItem opt;
    opt.palette = palette();
    opt.font = font();
    opt.fontMetrics = fontMetrics();
    for (int row = first; row < last; ++row) {
        const int lane = m_lanes.laneAtRow(row);
        const int y = kAxisHeight + (row - first) * m_rowHeight;
        opt.state = QStyle::State_Enabled;
        if (m_focus->current().lane == m_lanes.lane(lane).key)
            opt.state |= QStyle::State_Selected;
        opt.features = row % 2 ? QStyleOptionViewItem::Alternate : QStyleOptionViewItem::None;
        opt.rect = QRect(0, y, kLabelWidth, m_rowHeight);
        m_delegate->paint(&p, opt, m_model->indexOfLane(lane, TimelineLaneModel::LaneColumn));
        opt.rect = QRect(kLabelWidth, y, w, m_rowHeight);
        m_delegate->paint(&p, opt, m_model->indexOfLane(lane, TimelineLaneModel::EventsColumn));
        ++m_lastPaintedLanes;
    }
    if (m_lanes.rowCount() == 0) {
        p.setPen(palette().placeholderText().color());
        p.drawText(rect().adjusted(0, kAxisHeight, 0, 0), Qt::AlignCenter,
                   m_lanes.laneCount() == 0 ? tr("No events to show") : tr("No lane matches the filter"));
    } else if (m_lanes.minTime() == kNoTime) {
        // Lanes, each with its count of untimed events, and no invented axis: the
        // order of such lines is only their order in each file (the evidence table).
        const QRect plot(kLabelWidth, kAxisHeight, plotWidth(), height() - kAxisHeight);
        p.setPen(palette().text().color());
        p.drawText(plot.adjusted(16, 0, -16, 0), Qt::AlignCenter | Qt::TextWordWrap, untimedMessage());
    }
}

QString TimelineView::untimedMessage() const
{
    uint32_t untimed = 0, boot = 0;
    for (int i = 0; i < m_lanes.laneCount(); ++i)
        if (m_lanes.lane(i).parent < 0) {
            untimed += m_lanes.lane(i).untimed;
            boot += m_lanes.lane(i).bootRelative;
        }
    QString s = tr("No timestamps in this bundle: nothing can be placed on a time axis.");
    if (untimed + boot > 0)
        s += QLatin1Char('\n') + (untimed + boot == 1 ? tr("Its one event is counted beside its lane's name")
                                                    : tr("Its %1 events are counted beside their lanes' names").arg(untimed + boot))
            + tr(" and listed in the evidence table, in the order of their lines.");
    return s;
}

void TimelineView::paintOverlays(QPainter& p)
{
    const int w = plotWidth();
    const int bottom = kAxisHeight + std::min(m_lanes.rowCount() - firstVisibleRow(), visibleRowCount() + 1) * m_rowHeight;
    p.setClipRect(kLabelWidth, 0, w, height());
    p.setRenderHint(QPainter::Antialiasing, true);

    // Root cause (or each ambiguous contender): red outlined diamond on its
    // lanes, drawn over the per-pixel marks so aggregation never hides it.
    const int first = firstVisibleRow();
    const int last = std::min(m_lanes.rowCount(), first + visibleRowCount() + 1);
    for (int row = first; row < last; ++row) {
        const Lane& lane = m_lanes.lane(m_lanes.laneAtRow(row));
        if (!lane.root)
            continue;
        const auto& times = lane.times[style::Root];
        auto it = std::lower_bound(times.begin(), times.end(), m_range.start);
        for (int n = 0; it != times.end() && *it < m_range.end && n < 64; ++it, ++n) {
            const QPointF c(xOfTime(*it), kAxisHeight + (row - first) * m_rowHeight + m_rowHeight / 2.0);
            QPainterPath d;
            d.moveTo(c + QPointF(0, -8));
            d.lineTo(c + QPointF(8, 0));
            d.lineTo(c + QPointF(0, 8));
            d.lineTo(c + QPointF(-8, 0));
            d.closeSubpath();
            p.fillPath(d, QColor(255, 255, 255, 200));
            p.setPen(QPen(style::levelColor(style::Root), 2));
            p.drawPath(d);
        }
    }
    // The job's onset window (every waiting rank was waiting: the overlap of the waits) is shaded, and
    // when the hang began is a dotted line: "everything stopped here".
    if (const TimeInterval ow = m_lanes.onsetWindow(); ow.bounded() && ow.latestNs > ow.earliestNs &&
                                                       ow.latestNs >= m_range.start && ow.earliestNs <= m_range.end) {
        const double x0 = std::max<double>(xOfTime(ow.earliestNs), kLabelWidth - 1);
        const double x1 = std::min<double>(xOfTime(ow.latestNs), kLabelWidth + w + 1);
        p.fillRect(QRectF(x0, kAxisHeight, x1 - x0, bottom - kAxisHeight), QColor(120, 120, 120, 28));
    }
    if (const int64_t t = m_lanes.onsetEstimate(); t != kNoTime && t >= m_range.start && t <= m_range.end) {
        p.setPen(QPen(QColor(90, 90, 90, 200), 1, Qt::DotLine));
        p.drawLine(QPointF(xOfTime(t), kAxisHeight), QPointF(xOfTime(t), bottom));
        const QString text = tr("hang began");
        const QRectF at = onsetLabelRect(m_lanes, first, last, kAxisHeight, m_rowHeight, xOfTime(t),
                                         QSizeF(p.fontMetrics().horizontalAdvance(text) + 2, p.fontMetrics().height()));
        p.fillRect(at, QColor(255, 255, 255, 170));
        p.setPen(QColor(70, 70, 70));
        p.drawText(at, Qt::AlignLeft | Qt::AlignVCenter, text);
    }
    // Selected event: a line through every lane; an uncertain time also gets
    // its whole [earliest, latest] as a faint band, so it can be compared
    // with every other lane's marks.
    if (const auto sel = m_focus->current().event) {
        const int64_t t = m_lanes.eventTime(*sel);
        if (const TimeInterval iv = m_lanes.eventInterval(*sel); t != kNoTime && iv.bounded()) {
            const double x0 = std::max<double>(xOfTime(iv.earliestNs), kLabelWidth - 1);
            const double x1 = std::min<double>(xOfTime(iv.latestNs), kLabelWidth + w + 1);
            QColor band = palette().highlight().color();
            band.setAlpha(28);
            p.fillRect(QRectF(x0, kAxisHeight, x1 - x0, bottom - kAxisHeight), band);
            band.setAlpha(140);
            p.setPen(QPen(band, 1));
            p.drawLine(QPointF(x0, kAxisHeight), QPointF(x0, bottom));
            p.drawLine(QPointF(x1, kAxisHeight), QPointF(x1, bottom));
        }
        if (t != kNoTime) {
            p.setPen(QPen(palette().highlight().color(), 1.5, Qt::DashLine));
            p.drawLine(QPointF(xOfTime(t), kAxisHeight), QPointF(xOfTime(t), bottom));
        }
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    if (m_focus->cursorNs() != kNoTime) {
        p.setPen(QPen(QColor(0, 0, 0, 90), 1));
        const double x = xOfTime(m_focus->cursorNs());
        p.drawLine(QPointF(x, kAxisHeight), QPointF(x, bottom));
    }
    if (m_drag == Drag::Select && m_dragged) {
        const int x0 = std::min(m_pressPos.x(), m_dragX), x1 = std::max(m_pressPos.x(), m_dragX);
        p.fillRect(QRect(x0, kAxisHeight, x1 - x0, height()), QColor(42, 111, 219, 50));
    }
    p.setClipping(false);
}

void TimelineView::wheelEvent(QWheelEvent* e)
{
    const QPointF pos = e->position();
    if (pos.x() < kLabelWidth || (e->modifiers() & Qt::ShiftModifier)) {
        m_vbar->setValue(m_vbar->value() - e->angleDelta().y() / 40);
        return;
    }
    const int steps = e->angleDelta().y();
    if (steps == 0)
        return;
    const double factor = std::pow(0.85, steps / 120.0);
    setRange(zoomAround(m_range, timeAtX(pos.x()), factor, limit()), FocusState::History::Coalesce);
    e->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* e)
{
    m_pressPos = e->pos();
    m_pressRange = m_range;
    m_dragX = e->pos().x();
    m_dragged = false;
    if (e->pos().x() >= kLabelWidth && e->pos().y() >= kAxisHeight) {
        const bool select = e->button() == Qt::RightButton
            || (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier));
        m_drag = select ? Drag::Select : (e->button() == Qt::LeftButton ? Drag::Pan : Drag::None);
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent* e)
{
    if (e->pos().x() >= kLabelWidth && m_lanes.minTime() != kNoTime)  // no axis: no time under the mouse
        m_focus->setCursor(timeAtX(e->pos().x()));
    if (m_drag == Drag::None)
        return;
    if ((e->pos() - m_pressPos).manhattanLength() > 3)
        m_dragged = true;
    m_dragX = e->pos().x();
    if (m_drag == Drag::Pan && m_dragged) {
        const int64_t dt = pixelToTime(m_pressPos.x() - e->pos().x(), 0, m_pressRange.end - m_pressRange.start, plotWidth());
        setRange(panBy(m_pressRange, dt, limit()), FocusState::History::Coalesce);
    }
    update();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e)
{
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (drag == Drag::Select && m_dragged) {
        const int64_t a = timeAtX(std::min(m_pressPos.x(), e->pos().x()));
        const int64_t b = timeAtX(std::max(m_pressPos.x(), e->pos().x()));
        if (b - a >= kMinSpanNs)
            setRange({a, b}, FocusState::History::Push);
        update();
        return;
    }
    if (m_dragged || e->button() != Qt::LeftButton)
        return;
    // A click: toggle a node's ranks from its label, select a lane or an event.
    const int row = rowAtY(e->pos().y());
    const int lane = m_lanes.laneAtRow(row);
    if (lane < 0)
        return;
    if (e->pos().x() < 24 && !m_lanes.lane(lane).children.empty()) {
        m_lanes.setExpanded(lane, !m_lanes.isExpanded(lane));
        rowsChanged();
        return;
    }
    if (const auto ev = eventAt(e->pos()))
        m_focus->selectEvent(*ev, m_lanes.lane(lane).key);
    else
        m_focus->selectLane(m_lanes.lane(lane).key);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* e)
{
    const int lane = m_lanes.laneAtRow(rowAtY(e->pos().y()));
    if (lane >= 0 && e->pos().x() < kLabelWidth && !m_lanes.lane(lane).children.empty()) {
        m_lanes.setExpanded(lane, !m_lanes.isExpanded(lane));
        rowsChanged();
    }
}

void TimelineView::keyPressEvent(QKeyEvent* e)
{
    const int64_t span = m_range.end - m_range.start;
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(0.8);
        return;
    case Qt::Key_Minus:
        zoomBy(1.25);
        return;
    case Qt::Key_Left:
        setRange(panBy(m_range, -span / 10, limit()), FocusState::History::Coalesce);
        return;
    case Qt::Key_Right:
        setRange(panBy(m_range, span / 10, limit()), FocusState::History::Coalesce);
        return;
    case Qt::Key_Up:
    case Qt::Key_Down: {
        int row = m_lanes.rowOfKey(m_focus->current().lane);
        row = std::clamp(row + (e->key() == Qt::Key_Up ? -1 : 1), 0, m_lanes.rowCount() - 1);
        if (const int lane = m_lanes.laneAtRow(row); lane >= 0) {
            m_focus->selectLane(m_lanes.lane(lane).key);
            scrollToLane(m_lanes.lane(lane).key);
        }
        return;
    }
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space: {
        const int lane = m_lanes.laneOfKey(m_focus->current().lane);
        if (lane >= 0 && !m_lanes.lane(lane).children.empty()) {
            m_lanes.setExpanded(lane, !m_lanes.isExpanded(lane));
            rowsChanged();
        }
        return;
    }
    default:
        QWidget::keyPressEvent(e);
    }
}

void TimelineView::leaveEvent(QEvent*)
{
    m_focus->setCursor(kNoTime);
}

bool TimelineView::event(QEvent* e)
{
    if (e->type() != QEvent::ToolTip)
        return QWidget::event(e);
    auto* he = static_cast<QHelpEvent*>(e);
    if (he->pos().x() < kLabelWidth) {
        const int lane = laneAtPos(he->pos());
        const QString key = lane >= 0 ? m_lanes.lane(lane).key : QString();
        if (laneNotes().contains(key))
            QToolTip::showText(he->globalPos(), QStringLiteral("<b>%1</b><br>%2").arg(key.toHtmlEscaped(),
                               laneNotes().value(key).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))), this);
        else
            QToolTip::hideText();
        return true;
    }
    const auto event = eventAt(he->pos());
    const QString tip = event ? toolTipOf(*event) : QString();
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(he->globalPos(), tip, this);
    return true;
}

QString TimelineView::toolTipOf(EventId event) const
{
    const SymptomEvent* found = eventById(event);
    if (!found)
        return {};
    const SymptomEvent& se = *found;
    const auto level = m_lanes.levelOfEvent(se.id);
    QString tip = QStringLiteral("<b>%1</b><br>%2 · %3<br>%4")
                      .arg(style::q(se.symptom).toHtmlEscaped(), style::levelName(level), style::timeText(se.time),
                           style::q(present::place(se.node, se.gpuIndex, se.pciBus, se.rank)).toHtmlEscaped());
    if (const QString iv = style::intervalText(se.time); !iv.isEmpty())
        tip += QStringLiteral("<br>between %1 (%2)").arg(iv.toHtmlEscaped(), style::q(toString(se.time.basis)));
    if (se.count > 1)
        tip += QStringLiteral("<br>×%1 merged").arg(se.count);
    if (se.suppressed)
        tip += QStringLiteral("<br>suppressed by %1").arg(style::q(se.suppressedBy).toHtmlEscaped());
    return tip;
}

} // namespace fl

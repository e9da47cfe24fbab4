// SPDX-License-Identifier: MIT
#include "chaingraphview.h"

#include "chainlayout.h"
#include "viewstyle.h"

#include <QFontMetrics>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPainter>
#include <QWheelEvent>

namespace fl {

namespace {
constexpr int kEventData = 0;

QString nodeText(const SymptomEvent& e)
{
    QString where = style::q(e.node);
    if (e.rank >= 0)
        where += QStringLiteral(" · r%1").arg(e.rank);
    if (e.gpuIndex >= 0)
        where += QStringLiteral(" · GPU %1").arg(e.gpuIndex);
    return style::q(e.symptom) + QLatin1Char('\n') + where + QLatin1Char('\n') + style::utc(e.timeNs, false);
}
} // namespace

ChainGraphView::ChainGraphView(FocusState* focus, QWidget* parent)
    : QGraphicsView(parent)
    , m_focus(focus)
{
    setScene(new QGraphicsScene(this));
    setRenderHint(QPainter::Antialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    connect(scene(), &QGraphicsScene::selectionChanged, this, &ChainGraphView::onSceneSelection);
    connect(focus, &FocusState::eventSelected, this, &ChainGraphView::onEventSelected);
    connect(focus, &FocusState::highlightChanged, this, &ChainGraphView::onHighlight);
}

void ChainGraphView::onHighlight()
{
    // With a highlight, the step's events get a thick purple ring and the
    // rest fade, so the eye finds what this phase did.
    const bool any = !m_focus->highlight().empty();
    for (const auto& [id, item] : m_items) {
        auto* box = static_cast<QGraphicsRectItem*>(item);
        const bool on = m_focus->isHighlighted(id);
        box->setPen(on ? QPen(QColor(0x6a, 0x1b, 0x9a), 4) : m_basePens[id]);
        box->setOpacity(any && !on ? 0.35 : 1.0);
    }
}

int ChainGraphView::highlightedItemCount() const
{
    int n = 0;
    for (const auto& [id, item] : m_items)
        n += m_focus->isHighlighted(id) && item->opacity() == 1.0 ? 1 : 0;
    return n;
}

QGraphicsItem* ChainGraphView::itemForEvent(uint32_t event) const
{
    auto it = m_items.find(event);
    return it == m_items.end() ? nullptr : it->second;
}

void ChainGraphView::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    const QSignalBlocker block(scene());
    scene()->clear();
    m_items.clear();
    m_basePens.clear();
    m_error.clear();
    m_userZoomed = false;
    m_analysis = std::move(analysis);
    if (!m_analysis)
        return;
    const Result& r = m_analysis->result;
    std::map<uint32_t, const SymptomEvent*> byId;
    for (const auto& e : r.events)
        byId[e.id] = &e;

    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    const QFontMetrics fm(f);
    const std::vector<uint32_t> ids = chainEvents(r);
    std::vector<QSizeF> sizes;
    for (uint32_t id : ids) {
        auto it = byId.find(id);
        const QRect br = fm.boundingRect(QRect(0, 0, 400, 200), Qt::AlignLeft, it == byId.end() ? QString() : nodeText(*it->second));
        sizes.emplace_back(br.width() + 16, br.height() + 10);
    }
    const ChainLayout layout = layoutChain(r, sizes);
    const style::EventLevels levels(r);
    m_error = layout.error;
    if (ids.empty() || !layout.error.isEmpty()) {
        auto* t = scene()->addSimpleText(layout.error.isEmpty() ? tr("No symptom chain in this result") : layout.error);
        t->setBrush(palette().placeholderText());
        return;
    }

    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    for (const auto& e : layout.edges) {
        if (e.spline.size() < 4)
            continue;
        QPainterPath path(e.spline[0]);
        size_t i = 1;
        for (; i + 2 < e.spline.size(); i += 3)
            path.cubicTo(e.spline[i], e.spline[i + 1], e.spline[i + 2]);
        // Arrow tip, when Graphviz gave one past the last control point.
        const QPointF end = e.spline.back();
        const QPointF from = e.spline[i - 1];
        path.lineTo(end);
        auto* item = scene()->addPath(path, QPen(QColor(0x70, 0x70, 0x70), 1.2));
        item->setZValue(-1);
        QLineF dir(end, from);
        dir.setLength(8);
        QPolygonF head;
        head << end << dir.p2() + QPointF(dir.dy() * 0.5, -dir.dx() * 0.5) << dir.p2() - QPointF(dir.dy() * 0.5, -dir.dx() * 0.5);
        scene()->addPolygon(head, Qt::NoPen, QColor(0x70, 0x70, 0x70))->setZValue(-1);
        auto* label = scene()->addSimpleText(e.rule, small);
        label->setBrush(QColor(0x55, 0x55, 0x55));
        label->setPos(e.labelPos + QPointF(-label->boundingRect().width() - 4, -label->boundingRect().height()));
        label->setZValue(-0.5);
    }
    for (const auto& n : layout.nodes) {
        auto it = byId.find(n.event);
        const style::Level level = it == byId.end() ? style::Interesting : levels(*it->second);
        const QColor c = style::levelColor(level);
        const QRectF rect(n.centre.x() - n.size.width() / 2, n.centre.y() - n.size.height() / 2, n.size.width(), n.size.height());
        auto* box = scene()->addRect(rect, QPen(c.darker(130), level == style::Root ? 3 : 1.5), c.lighter(level == style::Suppressed ? 130 : 175));
        box->setFlag(QGraphicsItem::ItemIsSelectable);
        box->setData(kEventData, static_cast<qint64>(n.event));
        box->setToolTip(it == byId.end() ? QString() : nodeText(*it->second));
        auto* text = new QGraphicsSimpleTextItem(it == byId.end() ? QString::number(n.event) : nodeText(*it->second), box);
        text->setFont(f);
        text->setPos(rect.topLeft() + QPointF(8, 5));
        m_items[n.event] = box;
        m_basePens[n.event] = box->pen();
    }
    scene()->setSceneRect(scene()->itemsBoundingRect().adjusted(-20, -20, 20, 20));
    if (layout.truncated)
        scene()->addSimpleText(tr("Chain truncated to %1 events").arg(kMaxChainNodes))->setPos(scene()->sceneRect().bottomLeft());
    onEventSelected(m_focus->current().event);
    onHighlight();
    fitScene();
}

void ChainGraphView::fitScene()
{
    // Fit when that keeps text readable; otherwise stay at 1:1 on the root.
    resetTransform();
    const QRectF r = scene()->sceneRect();
    if (r.isEmpty() || viewport()->width() <= 0)
        return;
    const double s = std::min(viewport()->width() / r.width(), viewport()->height() / r.height());
    if (s < 1) {
        const double k = std::max(s, 0.7);
        scale(k, k);
    }
    if (m_analysis && m_analysis->result.rootCause)
        if (QGraphicsItem* root = itemForEvent(m_analysis->result.rootCause->event))
            centerOn(root->sceneBoundingRect().center() + QPointF(r.width() / 3, 0));
}

void ChainGraphView::resizeEvent(QResizeEvent* e)
{
    QGraphicsView::resizeEvent(e);
    if (!m_userZoomed)
        fitScene();
}

void ChainGraphView::onSceneSelection()
{
    if (m_syncing)
        return;
    const auto sel = scene()->selectedItems();
    if (sel.size() == 1)
        m_focus->selectEvent(sel.front()->data(kEventData).toLongLong());
}

void ChainGraphView::onEventSelected(qint64 event)
{
    m_syncing = true;
    scene()->clearSelection();
    if (event >= 0 && event <= UINT32_MAX) {
        if (QGraphicsItem* it = itemForEvent(static_cast<uint32_t>(event))) {
            it->setSelected(true);
            ensureVisible(it);
        }
    }
    m_syncing = false;
}

void ChainGraphView::wheelEvent(QWheelEvent* e)
{
    m_userZoomed = true;
    const double f = std::pow(1.15, e->angleDelta().y() / 120.0);
    scale(f, f);
}

} // namespace fl

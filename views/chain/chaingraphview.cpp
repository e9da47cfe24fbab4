// SPDX-License-Identifier: MIT
#include "views/chain/chaingraphview.h"

#include "views/common/eventindex.h"
#include "present/verdict.h"
#include "views/common/viewstyle.h"

#include <QFontMetrics>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace fl {

namespace {
constexpr int kBoxData = 0;  // index into m_plan.boxes

QString eventText(const SymptomEvent& e)
{
    return style::q(e.symptom) + QLatin1Char('\n') + style::q(present::place(e.node, e.gpuIndex, e.pciBus, e.rank)) +
           QLatin1Char('\n') + style::timeText(e.time, false);
}

QString familyText(const ChainFamily& c, size_t shownElsewhere)
{
    const SymptomFamily& f = *c.family;
    QString head = familyTitle(f);
    if (shownElsewhere > 0)
        head = QStringLiteral("+%1 more %2").arg(f.count - shownElsewhere).arg(style::q(f.symptom));
    QString when = style::timeText(f.first, false);
    if (f.last.ns != f.first.ns)
        when += QStringLiteral(" – ") + style::timeText(f.last, false);
    return head + QLatin1Char('\n') + familyPlace(f, 2) + QLatin1Char('\n') + when;
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

// The scene is a child, deleted by ~QWidget after this object is no longer a
// ChainGraphView; clearing its items there emits selectionChanged into
// onSceneSelection of a destroyed object (UBSan: "downcast of address ... not
// an object of type ChainGraphView"). Cut the connection first.
ChainGraphView::~ChainGraphView()
{
    scene()->disconnect(this);
}

void ChainGraphView::onHighlight()
{
    // With a highlight, the step's events get a thick purple ring and the
    // rest fade, so the eye finds what this phase did. A family box rings
    // when any of its events is highlighted.
    const bool any = !m_focus->highlight().empty();
    for (size_t i = 0; i < m_drawn.size(); ++i) {
        auto* box = static_cast<QGraphicsRectItem*>(m_drawn[i].item);
        const auto& events = m_plan.boxes[i].events;
        const bool on = std::any_of(events.begin(), events.end(), [this](EventId id) { return m_focus->isHighlighted(id); });
        box->setPen(on ? QPen(QColor(0x6a, 0x1b, 0x9a), 4) : m_drawn[i].basePen);
        box->setOpacity(any && !on ? 0.35 : 1.0);
    }
}

int ChainGraphView::highlightedItemCount() const
{
    int n = 0;
    for (size_t i = 0; i < m_drawn.size(); ++i) {
        const auto& events = m_plan.boxes[i].events;
        n += m_drawn[i].item->opacity() == 1.0 &&
                     std::any_of(events.begin(), events.end(), [this](EventId id) { return m_focus->isHighlighted(id); })
                 ? 1 : 0;
    }
    return n;
}

QGraphicsItem* ChainGraphView::itemForEvent(EventId event) const
{
    auto it = m_plan.boxOfEvent.find(event);
    return it == m_plan.boxOfEvent.end() || it->second >= m_drawn.size() ? nullptr : m_drawn[it->second].item;
}

void ChainGraphView::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    show(plan(std::move(analysis), font()));
}

ChainGraphView::Plan ChainGraphView::plan(std::shared_ptr<const Analysis> analysis, const QFont& font)
{
    ChainFamilies families = analysis ? chainFamilies(analysis->result) : ChainFamilies();
    std::set<size_t> expanded;
    size_t events = 0;
    for (const ChainFamily& f : families.families)
        events += f.family->count;
    if (events <= kExpandAllUpTo)
        for (size_t i = 0; i < families.families.size(); ++i)
            if (families.families[i].complete())
                expanded.insert(i);
    return plan(std::move(analysis), std::move(families), std::move(expanded), font);
}

void ChainGraphView::setExpanded(size_t family, bool on)
{
    // A compact result knows a family's representatives, not all its events: it stays folded.
    if (family >= m_plan.families.families.size() || isExpanded(family) == on || (on && !m_plan.families.families[family].complete()))
        return;
    std::set<size_t> expanded = m_plan.expanded;
    if (on)
        expanded.insert(family);
    else
        expanded.erase(family);
    const bool zoomed = m_userZoomed;
    show(plan(m_plan.analysis, m_plan.families, std::move(expanded), font()));
    m_userZoomed = zoomed;
}

ChainGraphView::Plan ChainGraphView::plan(std::shared_ptr<const Analysis> analysis, ChainFamilies families,
                                          std::set<size_t> expanded, const QFont& font)
{
    Plan out;
    out.analysis = std::move(analysis);
    out.families = std::move(families);
    out.expanded = std::move(expanded);
    if (!out.analysis)
        return out;
    const Result& r = out.analysis->result;
    const EventIndex byId(r);  // a compact result holds only some events: ids are not positions

    QFont f = font;
    f.setPointSizeF(f.pointSizeF() * 0.9);
    const QFontMetrics fm(f);
    const style::EventLevels levels(r);
    // Boxes in family order (root family first), so the cap never drops the root.
    auto addBox = [&](std::vector<EventId> events, size_t family, bool collapsed, QString text, style::Level level) {
        for (EventId id : events)
            out.boxOfEvent[id] = out.boxes.size();
        out.boxes.push_back({std::move(events), family, collapsed, std::move(text), level});
    };
    for (size_t fi = 0; fi < out.families.families.size(); ++fi) {
        if (out.boxes.size() >= kMaxChainNodes) {
            out.truncated = true;
            break;
        }
        const ChainFamily& fam = out.families.families[fi];
        if (fam.family->count > 1 && !out.expanded.count(fi)) {
            addBox(fam.events, fi, true, familyText(fam, 0), fam.level);
            continue;
        }
        std::vector<EventId> members = fam.events;
        auto timeOf = [&](EventId id) {
            const SymptomEvent* e = byId.find(id);
            return !e || !e->time.known() ? INT64_MAX : e->time.ns;
        };
        std::stable_sort(members.begin(), members.end(), [&](EventId a, EventId b) { return timeOf(a) < timeOf(b); });
        const size_t shown = std::min(members.size(), kMaxExpanded);
        for (size_t i = 0; i < shown; ++i) {
            const SymptomEvent* e = byId.find(members[i]);
            // A compact result holds no events: its one-event family names its place itself.
            addBox({members[i]}, fi, false, !e ? familyText(fam, 0) : eventText(*e), !e ? fam.level : levels(*e));
        }
        if (shown < members.size())
            addBox(std::vector<EventId>(members.begin() + static_cast<std::ptrdiff_t>(shown), members.end()), fi, true,
                   familyText(fam, shown), fam.level);
    }

    std::vector<QSizeF> sizes;
    for (const PlannedBox& p : out.boxes) {
        const QRect br = fm.boundingRect(QRect(0, 0, 400, 200), Qt::AlignLeft, p.text);
        sizes.emplace_back(br.width() + 16, br.height() + 10);
    }
    // Event links folded onto boxes: one arrow per (box, box, rule), with its
    // count. A compact result has no event links: its family edges join the
    // (folded) family boxes.
    std::map<std::tuple<size_t, size_t, std::string>, uint32_t> folded;
    for (const auto& e : r.edges) {
        auto a = out.boxOfEvent.find(e.from), b = out.boxOfEvent.find(e.to);
        if (a != out.boxOfEvent.end() && b != out.boxOfEvent.end() && a->second != b->second)
            ++folded[{a->second, b->second, e.rule}];
    }
    if (r.edges.empty()) {
        std::vector<size_t> boxOfFamily(out.families.families.size(), SIZE_MAX);
        for (size_t b = 0; b < out.boxes.size(); ++b)
            if (boxOfFamily[out.boxes[b].family] == SIZE_MAX)
                boxOfFamily[out.boxes[b].family] = b;
        for (const ChainFamilyEdge& e : out.families.edges)
            if (boxOfFamily[e.from] != SIZE_MAX && boxOfFamily[e.to] != SIZE_MAX)
                folded[{boxOfFamily[e.from], boxOfFamily[e.to], e.rule}] += e.count;
    }
    // An arrow says what the link means in the rule's words ("follows", "peer
    // of a failed node"), its id only when the rule gives none. When every arrow
    // would say the same, one caption says it instead of a label on each.
    std::map<std::string, QString> meaning;
    for (const auto& e : r.edges)
        if (!meaning.count(e.rule))
            meaning[e.rule] = style::q(e.label.empty() ? e.rule.str() : e.label.str());
    auto meaningOf = [&meaning](const std::string& rule) {
        const auto it = meaning.find(rule);
        return it == meaning.end() ? style::q(rule) : it->second;
    };
    std::set<QString> said;
    for (const auto& kv : folded)
        said.insert(meaningOf(std::get<2>(kv.first)));
    const bool uniform = said.size() == 1;
    if (uniform) {
        const std::string& rule = std::get<2>(folded.begin()->first);
        const QString m = meaningOf(rule);
        out.edgeCaption = m == style::q(rule) ? QObject::tr("Every arrow: %1").arg(m)
                                               : QObject::tr("Every arrow: %1 (rule %2)").arg(m, style::q(rule));
    }
    std::vector<GraphEdge> edges;
    for (const auto& [k, n] : folded) {
        QString label = (uniform ? QString() : meaningOf(std::get<2>(k))) + (n > 1 ? QStringLiteral(" ×%1").arg(n) : QString());
        label = label.trimmed();
        const QSizeF size = label.isEmpty() ? QSizeF() : QSizeF(fm.horizontalAdvance(label) + 6, fm.height() + 2);
        edges.push_back({std::get<0>(k), std::get<1>(k), std::move(label), size});
    }
    out.layout = layoutGraph(sizes, edges);
    return out;
}

void ChainGraphView::show(Plan plan)
{
    const QSignalBlocker block(scene());
    scene()->clear();
    m_caption = nullptr;
    m_reviewTag = nullptr;
    m_drawn.clear();
    m_plan = std::move(plan);
    m_userZoomed = false;
    if (!m_plan.analysis)
        return;
    const ChainLayout& layout = m_plan.layout;
    if (m_plan.boxes.empty() || !layout.error.isEmpty()) {
        auto* t = scene()->addSimpleText(layout.error.isEmpty() ? tr("No symptom chain in this result") : layout.error);
        t->setBrush(palette().placeholderText());
        return;
    }

    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
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
        // Centred on the room dot made for it (GraphEdge::labelSize); the same size as the boxes' text.
        if (!e.rule.isEmpty()) {
            auto* label = scene()->addSimpleText(e.rule, f);
            label->setBrush(QColor(0x55, 0x55, 0x55));
            label->setPos(e.labelPos - label->boundingRect().center());
            label->setZValue(-0.5);
        }
    }
    m_drawn.resize(m_plan.boxes.size());
    for (const auto& n : layout.nodes) {
        Drawn& b = m_drawn[n.event];
        const PlannedBox& p = m_plan.boxes[n.event];
        const QColor c = style::levelColor(p.level);
        const QRectF rect(n.centre.x() - n.size.width() / 2, n.centre.y() - n.size.height() / 2, n.size.width(), n.size.height());
        auto* box = scene()->addRect(rect, QPen(c.darker(130), p.level == style::Root ? 3 : 1.5), c.lighter(p.level == style::Suppressed ? 130 : 175));
        box->setFlag(QGraphicsItem::ItemIsSelectable);
        box->setData(kBoxData, static_cast<qulonglong>(n.event));
        const ChainFamily& bf = m_plan.families.families[p.family];
        box->setToolTip(p.text + (p.collapsed ? (bf.complete() ? tr("\nDouble-click to show its events") : QString())
                                              : bf.family->count > 1
                                                                                          ? tr("\nDouble-click to fold its family")
                                                                                          : QString()));
        if (p.collapsed)  // a stack of cards: this box stands for many
            scene()->addRect(rect.translated(4, 4), QPen(c.darker(130), 1), c.lighter(190))->setZValue(-0.2);
        auto* text = new QGraphicsSimpleTextItem(p.text, box);
        text->setFont(f);
        text->setPos(rect.topLeft() + QPointF(8, 5));
        b.item = box;
        b.basePen = box->pen();
    }
    // Notes under the graph, inside the scene rect so that fitting keeps them in view.
    QRectF bounds = scene()->itemsBoundingRect();
    QStringList notes;
    if (!m_plan.edgeCaption.isEmpty())
        notes << m_plan.edgeCaption;
    if (m_plan.truncated)
        notes << tr("Chain truncated to %1 boxes; the root cause's family is always shown").arg(kMaxChainNodes);
    if (!notes.isEmpty()) {
        auto* caption = scene()->addSimpleText(notes.join(QLatin1Char('\n')), f);
        caption->setBrush(QColor(0x55, 0x55, 0x55));
        caption->setPos(bounds.left(), bounds.bottom() + 12);
        m_caption = caption;
        bounds = bounds.united(caption->sceneBoundingRect());
    }
    scene()->setSceneRect(bounds.adjusted(-20, -20, 20, 20));
    onEventSelected(m_focus->current().event);
    onHighlight();
    showReviewed();
    fitScene();
}

double ChainGraphView::minimumScale() const
{
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    const double px = QFontMetricsF(f).height();
    return px > 0 ? std::min(1.0, kMinTextPx / px) : 1.0;
}

void ChainGraphView::fitScene()
{
    // The whole graph when its text stays at least kMinTextPx tall (never
    // enlarged); else that smallest readable size, scrolled to the root cause.
    resetTransform();
    const QRectF r = scene()->sceneRect();
    if (r.isEmpty() || viewport()->width() <= 0 || viewport()->height() <= 0)
        return;
    const double fit = std::min(viewport()->width() / r.width(), viewport()->height() / r.height());
    const double k = std::clamp(fit, minimumScale(), 1.0);
    scale(k, k);
    centerOn(r.center());
    if (k <= fit)
        return;
    if (m_plan.analysis && m_plan.analysis->result.rootCause)
        if (QGraphicsItem* root = itemForEvent(m_plan.analysis->result.rootCause->event))
            ensureVisible(root, 40, 40);
}

void ChainGraphView::resizeEvent(QResizeEvent* e)
{
    QGraphicsView::resizeEvent(e);
    if (!m_userZoomed)
        fitScene();
}

void ChainGraphView::showEvent(QShowEvent* e)
{
    QGraphicsView::showEvent(e);
    if (!m_userZoomed)
        fitScene();  // laid out while hidden (another tab): the viewport had no size of its own then
}

void ChainGraphView::onSceneSelection()
{
    if (m_syncing)
        return;
    const auto sel = scene()->selectedItems();
    if (sel.size() != 1)
        return;
    const size_t b = sel.front()->data(kBoxData).toULongLong();
    if (b >= m_plan.boxes.size() || m_plan.boxes[b].events.empty())
        return;
    // A family box selects its earliest event, or keeps the selection when it
    // is already one of the family's.
    const std::optional<EventId> current = m_focus->current().event;
    const auto& ev = m_plan.boxes[b].events;
    if (current && std::find(ev.begin(), ev.end(), *current) != ev.end())
        return;
    const ChainFamily& fam = m_plan.families.families[m_plan.boxes[b].family];
    const bool repHere = std::find(ev.begin(), ev.end(), fam.representative) != ev.end();
    m_focus->selectEvent(repHere ? fam.representative : ev.front());
}

void ChainGraphView::onEventSelected(std::optional<EventId> event)
{
    m_syncing = true;
    scene()->clearSelection();
    if (event) {
        if (QGraphicsItem* it = itemForEvent(*event)) {
            it->setSelected(true);
            ensureVisible(it);
        }
    }
    m_syncing = false;
}

void ChainGraphView::mouseDoubleClickEvent(QMouseEvent* e)
{
    for (QGraphicsItem* it = itemAt(e->pos()); it; it = it->parentItem()) {
        const QVariant v = it->data(kBoxData);
        if (!v.isValid())
            continue;
        const size_t b = v.toULongLong();
        if (b < m_plan.boxes.size()) {
            const size_t family = m_plan.boxes[b].family;
            setExpanded(family, !isExpanded(family));
            e->accept();
            return;
        }
    }
    QGraphicsView::mouseDoubleClickEvent(e);
}

void ChainGraphView::wheelEvent(QWheelEvent* e)
{
    m_userZoomed = true;
    const double f = std::pow(1.15, e->angleDelta().y() / 120.0);
    scale(f, f);
}

} // namespace fl

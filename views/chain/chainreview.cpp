// SPDX-License-Identifier: MIT
// The reviewed root on the chain graph: the box of the reviewer's chosen (or confirmed) root event gets an
// outer ring in the review colour and a tag naming the reviewer, so the chain says what the review decided
// beside the engine's own colours.
#include "views/chain/chaingraphview.h"

#include "views/review/reviewrecord.h"

#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QPen>

namespace fl {

void ChainGraphView::setReviewedRoot(std::optional<EventId> event, const QString& tag)
{
    m_reviewed = event;
    m_reviewTagText = tag;
    showReviewed();
}

void ChainGraphView::showReviewed()
{
    delete m_reviewTag;  // a child of its box: removed from the scene with it
    m_reviewTag = nullptr;
    if (!m_reviewed)
        return;
    auto* box = dynamic_cast<QGraphicsRectItem*>(itemForEvent(*m_reviewed));
    if (!box)
        return;
    const QRectF r = box->rect().adjusted(-5, -5, 5, 5);
    auto* ring = new QGraphicsRectItem(r, box);
    ring->setPen(QPen(reviewColour(), 3, Qt::DashLine));
    ring->setBrush(Qt::NoBrush);
    ring->setAcceptedMouseButtons(Qt::NoButton);
    auto* text = new QGraphicsSimpleTextItem(m_reviewTagText, ring);
    QFont f = font();
    f.setBold(true);
    text->setFont(f);
    text->setBrush(reviewColour());
    // Left of the box: the chain runs from causes on the left, so a root's left is free, while above and
    // below it other boxes sit close.
    const QRectF t = text->boundingRect();
    text->setPos(r.left() - t.width() - 6, r.center().y() - t.height() / 2);
    m_reviewTag = ring;
    scene()->setSceneRect(scene()->sceneRect().united(text->sceneBoundingRect().adjusted(-12, -4, 0, 4)));
}

} // namespace fl

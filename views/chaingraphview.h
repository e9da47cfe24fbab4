// SPDX-License-Identifier: MIT
// The symptom chain as a layered graph (Graphviz dot layout, QGraphicsView
// drawing). Nodes are coloured by role, edges labelled with their rule.
// Selection goes both ways through FocusState.
#pragma once

#include "engine/engine.h"
#include "focusstate.h"

#include <QGraphicsView>

#include <map>
#include <memory>

namespace fl {

class ChainGraphView : public QGraphicsView
{
    Q_OBJECT
public:
    explicit ChainGraphView(FocusState* focus, QWidget* parent = nullptr);
    void setAnalysis(std::shared_ptr<const Analysis> analysis);

    int nodeItemCount() const { return static_cast<int>(m_items.size()); }
    QGraphicsItem* itemForEvent(uint32_t event) const;
    QString layoutError() const { return m_error; }
    // Boxes of the phase stepper's current events, drawn with a thick ring.
    int highlightedItemCount() const;

protected:
    void wheelEvent(QWheelEvent*) override;
    void resizeEvent(QResizeEvent*) override;

private:
    void onSceneSelection();
    void onEventSelected(qint64 event);
    void fitScene();
    void onHighlight();

    FocusState* m_focus;
    std::shared_ptr<const Analysis> m_analysis;
    std::map<uint32_t, QGraphicsItem*> m_items;
    std::map<uint32_t, QPen> m_basePens;
    QString m_error;
    bool m_syncing = false;
    bool m_userZoomed = false;
};

} // namespace fl

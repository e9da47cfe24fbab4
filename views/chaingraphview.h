// SPDX-License-Identifier: MIT
// The symptom chain as a layered graph (Graphviz dot layout, QGraphicsView
// drawing). One box per symptom family (chainfamilies.h), expanded into its
// events on double-click; small chains start expanded. Boxes are coloured by
// role, edges labelled with their rule and how many event links they fold.
// Selection goes both ways through FocusState.
#pragma once

#include "chainfamilies.h"
#include "engine/engine.h"
#include "focusstate.h"

#include <QGraphicsView>

#include <map>
#include <memory>
#include <set>

namespace fl {

class ChainGraphView : public QGraphicsView
{
    Q_OBJECT
public:
    explicit ChainGraphView(FocusState* focus, QWidget* parent = nullptr);
    ~ChainGraphView() override;
    void setAnalysis(std::shared_ptr<const Analysis> analysis);

    // Chains with at most this many events start with every family expanded.
    static constexpr size_t kExpandAllUpTo = 24;
    // An expanded family shows at most this many of its events, then "+N more".
    static constexpr size_t kMaxExpanded = 60;

    int nodeItemCount() const { return static_cast<int>(m_boxes.size()); }
    // The box that shows the event: its own, or its collapsed family's.
    QGraphicsItem* itemForEvent(uint32_t event) const;
    const ChainFamilies& families() const { return m_families; }
    bool isExpanded(size_t family) const { return m_expanded.count(family) > 0; }
    void setExpanded(size_t family, bool on);
    bool truncated() const { return m_truncated; }
    QString layoutError() const { return m_error; }
    // Boxes of the phase stepper's current events, drawn with a thick ring.
    int highlightedItemCount() const;

protected:
    void wheelEvent(QWheelEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void resizeEvent(QResizeEvent*) override;

private:
    struct Box {
        QGraphicsItem* item = nullptr;
        std::vector<uint32_t> events;  // what it stands for
        size_t family = 0;
        bool collapsed = false;        // a whole family, or the "+N more" of an expanded one
        QPen basePen;
    };
    void rebuild();
    void onSceneSelection();
    void onEventSelected(qint64 event);
    void fitScene();
    void onHighlight();

    FocusState* m_focus;
    std::shared_ptr<const Analysis> m_analysis;
    ChainFamilies m_families;
    std::set<size_t> m_expanded;
    std::vector<Box> m_boxes;
    std::map<uint32_t, size_t> m_boxOfEvent;
    QString m_error;
    bool m_truncated = false;
    bool m_syncing = false;
    bool m_userZoomed = false;
};

} // namespace fl

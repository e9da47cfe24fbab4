// SPDX-License-Identifier: MIT
// The symptom chain as a layered graph (Graphviz dot layout, QGraphicsView
// drawing). One box per symptom family (chainfamilies.h), expanded into its
// events on double-click; small chains start expanded. Boxes are coloured by
// role, edges labelled with their rule and how many event links they fold.
// Selection goes both ways through FocusState.
#pragma once

#include "views/chain/chainfamilies.h"
#include "views/chain/chainlayout.h"
#include "engine/engine.h"
#include "views/common/viewstyle.h"
#include "views/common/focusstate.h"

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

    // What the scene is made of, with dot's layout: built by plan() on any
    // thread (the workbench's background job), shown by show() on the GUI's.
    struct PlannedBox {
        std::vector<EventId> events;   // what it stands for
        size_t family = 0;
        bool collapsed = false;        // a whole family, or the "+N more" of an expanded one
        QString text;
        style::Level level = style::Suppressed;
    };
    struct Plan {
        std::shared_ptr<const Analysis> analysis;
        ChainFamilies families;
        std::set<size_t> expanded;
        std::vector<PlannedBox> boxes;
        std::map<EventId, size_t> boxOfEvent;
        ChainLayout layout;
        bool truncated = false;
        QString edgeCaption;  // "Every arrow: follows (rule …)" when every arrow means the same; else empty
    };
    // Families of the analysis, small chains expanded.
    static Plan plan(std::shared_ptr<const Analysis> analysis, const QFont& font);
    // The same families with `expanded` opened.
    static Plan plan(std::shared_ptr<const Analysis> analysis, ChainFamilies families, std::set<size_t> expanded,
                     const QFont& font);
    void show(Plan plan);

    // Text is never drawn smaller than this (pixels): a graph that cannot fit at that size scrolls.
    static constexpr double kMinTextPx = 11;
    // The zoom fitScene() chose or the reader set (1: 1:1).
    double zoom() const { return transform().m11(); }
    // The scale at which the boxes' text is kMinTextPx tall (at most 1).
    double minimumScale() const;
    // The caption under the graph (what every arrow means, truncation); null when none.
    QGraphicsItem* caption() const { return m_caption; }

    // Chains with at most this many events start with every family expanded.
    static constexpr size_t kExpandAllUpTo = 24;
    // An expanded family shows at most this many of its events, then "+N more".
    static constexpr size_t kMaxExpanded = 60;

    int nodeItemCount() const { return static_cast<int>(m_drawn.size()); }
    // The box that shows the event: its own, or its collapsed family's.
    QGraphicsItem* itemForEvent(EventId event) const;
    const ChainFamilies& families() const { return m_plan.families; }
    const std::vector<PlannedBox>& boxes() const { return m_plan.boxes; }  // as drawn, with their levels
    bool isExpanded(size_t family) const { return m_plan.expanded.count(family) > 0; }
    void setExpanded(size_t family, bool on);
    bool truncated() const { return m_plan.truncated; }
    // Boxes of the phase stepper's current events, drawn with a thick ring.
    int highlightedItemCount() const;
    // The reviewer's root (the latest review decision's event): its box is ringed in the review colour and
    // tagged with `tag` ("reviewed root: alice"). nullopt: none. Kept across re-layouts (chainreview.cpp).
    void setReviewedRoot(std::optional<EventId> event, const QString& tag);
    // The tag drawn (a child of the reviewed event's box), null when none is.
    QGraphicsItem* reviewedTag() const { return m_reviewTag; }

protected:
    void wheelEvent(QWheelEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void showEvent(QShowEvent*) override;

private:
    struct Drawn {  // parallel to m_plan.boxes
        QGraphicsItem* item = nullptr;
        QPen basePen;
    };
    void onSceneSelection();
    void onEventSelected(std::optional<EventId> event);
    void fitScene();
    void onHighlight();
    void showReviewed();

    FocusState* m_focus;
    Plan m_plan;  // what is shown
    std::vector<Drawn> m_drawn;
    bool m_syncing = false;
    bool m_userZoomed = false;
    QGraphicsItem* m_caption = nullptr;  // owned by the scene
    std::optional<EventId> m_reviewed;
    QString m_reviewTagText;
    QGraphicsItem* m_reviewTag = nullptr;  // owned by the scene (a child of the reviewed box)
};

} // namespace fl

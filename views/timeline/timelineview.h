// SPDX-License-Identifier: MIT
// The lane timeline: label column, UTC axis, one row per visible lane. Each
// lane is painted by TimelineLaneDelegate from its TimelineLaneModel index
// (Hotspot's TimeLineDelegate over its EventModel); this widget keeps the rows
// (filter, sort, expansion), the axis, the overlays that cross lanes and the
// interaction (zoom, pan, select).
#pragma once

#include "engine/engine.h"
#include "views/common/eventindex.h"
#include "views/common/focusstate.h"
#include "views/common/timecoords.h"
#include "views/timeline/timelinelanes.h"
#include "views/timeline/timelinelanedelegate.h"
#include "views/models/timelinelanemodel.h"

#include <QColor>
#include <QHash>
#include <QStringList>
#include <QWidget>

#include <map>
#include <memory>
#include <unordered_map>

class QScrollBar;

namespace fl {

// A labelled mark over lanes, drawn above the events: a compared candidate (A, B …) over its corrected
// interval, or the reviewer's chosen root. Panels set them by layer (setMarks), each layer its own.
struct TimelineMark {
    EventId event;
    QString label;                          // drawn beside the interval: "A", "reviewed: alice"
    QColor colour;
    int64_t fromNs = kNoTime, toNs = kNoTime;  // the interval drawn; kNoTime: the event's (corrected) interval
};

class TimelineView : public QWidget
{
    Q_OBJECT
public:
    // Lanes are at least kMinRowHeight tall, and grow up to kMaxRowHeight to fill the panel.
    static constexpr int kMinRowHeight = 22, kMaxRowHeight = 34;
    static constexpr int kAxisHeight = 26;
    static constexpr int kLabelWidth = 180;

    TimelineView(FocusState* focus, QWidget* parent = nullptr);

    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    // The lanes and the event lookup of an analysis, built on any thread (the
    // workbench's background job) and shown by setPrepared on the GUI's.
    struct Prepared {
        TimelineLanes lanes;
        EventIndex events;  // event id -> its place in result.events
    };
    static Prepared prepare(const Analysis* analysis);
    void setPrepared(std::shared_ptr<const Analysis> analysis, Prepared prepared);
    // For synthetic loads (benchmarks, tests): lanes built elsewhere.
    void setLanes(TimelineLanes lanes);
    const TimelineLanes& lanes() const { return m_lanes; }
    TimelineLanes& lanes() { return m_lanes; }

    timecoords::Range range() const { return m_range; }
    int plotWidth() const;
    int rowHeight() const { return m_rowHeight; }
    int firstVisibleRow() const;
    int visibleRowCount() const;
    // How many lanes the last paint visited; tests check culling with it.
    int lastPaintedLanes() const { return m_lastPaintedLanes; }

    QSize sizeHint() const override;

    // Reviewer notes per lane key; a marker in the label column, the text in its tooltip.
    void setLaneNotes(QHash<QString, QString> notes);
    const QHash<QString, QString>& laneNotes() const { return m_model->laneNotes(); }
    // What the lanes are painted from and with: every lane of m_lanes, and the delegate that paints one.
    TimelineLaneModel* laneModel() const { return m_model; }
    TimelineLaneDelegate* laneDelegate() const { return m_delegate; }
    // The marks of `layer` ("compare", "review" …), replacing that layer's; an empty list removes it.
    void setMarks(const QString& layer, std::vector<TimelineMark> marks);
    const std::vector<TimelineMark>& marks(const QString& layer) const;
    // Marks the last paint drew (visible lanes only), with their labels.
    const QStringList& lastPaintedMarks() const { return m_lastPaintedMarks; }
    // Rings the last paint drew around highlighted (phase stepper) events.
    int lastPaintedHighlights() const { return m_lastPaintedHighlights; }
    int laneAtPos(QPoint pos) const;
    // The hover text of an event (rich text); empty when the id is not in the result.
    QString toolTipOf(EventId event) const;
    // The axis's heading: the date of the window ("2024-05-01 UTC"), "since each boot", or "no timestamps".
    QString axisTitle() const;
    // What the plot says when no event has a time ("No timestamps in this bundle…").
    QString untimedMessage() const;

public slots:
    void fitToIncident();
    void fitAll();
    void zoomBy(double factor);
    void setSortByFirstAnomaly(bool on);
    void setAllExpanded(bool on);
    void scrollToLane(const QString& key);

signals:
    void lanesChanged();
    // Context menu on a lane label: the workbench asks for the note text.
    void laneNoteRequested(const QString& laneKey);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void contextMenuEvent(QContextMenuEvent*) override;
    void leaveEvent(QEvent*) override;
    bool event(QEvent*) override;

private:
    void onTimeWindow(qint64 start, qint64 end);
    void onEventSelected(std::optional<EventId> event);
    void onLaneFilter(const QString& text);
    void rowsChanged();
    void updateScrollBar();
    void fitRowHeight();
    void setRange(timecoords::Range r, FocusState::History mode);
    timecoords::Range limit() const;
    int rowAtY(int y) const;
    int64_t timeAtX(double x) const;
    double xOfTime(int64_t t) const;
    [[nodiscard]] std::optional<EventId> eventAt(QPoint pos) const;
    void paintAxis(QPainter& p);
    void paintLanes(QPainter& p);
    void paintOverlays(QPainter& p);
    void paintHighlights(QPainter& p);
    void onHighlight();
    void paintMarks(QPainter& p);  // timelinemarks.cpp

    const SymptomEvent* eventById(EventId id) const { return m_events.find(id); }

    FocusState* m_focus;
    std::shared_ptr<const Analysis> m_analysis;
    EventIndex m_events;  // event id -> its place in result.events (a service result holds only some)
    TimelineLanes m_lanes;
    TimelineLaneModel* m_model;  // serves m_lanes (without owning it)
    TimelineLaneDelegate* m_delegate;
    QScrollBar* m_vbar;
    timecoords::Range m_range;
    int m_rowHeight = kMinRowHeight;

    enum class Drag { None, Pan, Select } m_drag = Drag::None;
    QPoint m_pressPos;
    timecoords::Range m_pressRange;
    int m_dragX = -1;
    bool m_dragged = false;
    int m_lastPaintedLanes = 0;
    int m_lastPaintedHighlights = 0;
    QHash<QString, std::vector<int64_t>> m_highlightTimes;  // lane key -> sorted times
    std::map<QString, std::vector<TimelineMark>> m_marks;   // by layer
    QStringList m_lastPaintedMarks;
};

} // namespace fl

// SPDX-License-Identifier: MIT
// The one interaction state every view of one analysis listens to (Hotspot's
// FilterAndZoomStack): time window, selected event / evidence / lane and the
// lane filter, with back/forward history. Views never talk to each other.
// A state belongs to one analysis (AnalysisId): two analyses open side by side
// have one each, and a snapshot of one is refused by the other.
#pragma once

#include "model.h"
#include "views/common/focusids.h"

#include <QObject>
#include <QString>

#include <optional>
#include <vector>

namespace fl {

struct FocusSnapshot {
    AnalysisId analysis;        // whose ids these are; none before an analysis is shown
    int64_t startNs = kNoTime;  // visible time window; kNoTime: not set yet
    int64_t endNs = kNoTime;
    std::optional<EventId> event;  // the selected Result::events id, if any
    std::optional<EvidenceId> evidence;  // the selected EvidenceItem::id, if any
    QString lane;               // "node" or "node/rank" (TimelineLanes::laneKey)
    QString laneFilter;
    friend bool operator==(const FocusSnapshot&, const FocusSnapshot&) = default;
};

class FocusState : public QObject
{
    Q_OBJECT
public:
    // Push: the previous state becomes a back step. Coalesce: a run of
    // coalescing changes (wheel zoom, drag pan) makes a single back step.
    enum class History { Push, Coalesce };

    explicit FocusState(QObject* parent = nullptr);

    const FocusSnapshot& current() const { return m_current; }
    AnalysisId analysis() const { return m_current.analysis; }
    int64_t cursorNs() const { return m_cursor; }

    // Refused (false, nothing changes) when `next` belongs to another analysis.
    bool navigate(const FocusSnapshot& next, History mode = History::Push);
    void setTimeWindow(int64_t startNs, int64_t endNs, History mode = History::Push);
    void selectEvent(EventId event, const QString& lane = {});
    void selectEvidence(EvidenceId evidence, std::optional<EventId> event = std::nullopt, const QString& lane = {});
    void selectLane(const QString& lane);
    void setLaneFilter(const QString& text);
    // Hover position shared by timeline and metrics; not part of history.
    void setCursor(int64_t timeNs);
    // Events a teaching step points at (sorted ids); views mark them and dim
    // the rest. Not part of history: it follows the stepper, not the reader.
    void setHighlight(std::vector<EventId> events);
    const std::vector<EventId>& highlight() const { return m_highlight; }
    bool isHighlighted(EventId event) const;
    // Forgets everything and starts on `initial`, for this state's analysis
    // (refused, false, when `initial` names another one) ...
    bool reset(const FocusSnapshot& initial = {});
    // ... or for a new analysis: every id from now on is that analysis's.
    void reset(AnalysisId analysis, FocusSnapshot initial = {});

    bool canGoBack() const { return !m_back.empty(); }
    bool canGoForward() const { return !m_forward.empty(); }
    int backDepth() const { return static_cast<int>(m_back.size()); }

public slots:
    void back();
    void forward();

signals:
    void timeWindowChanged(qint64 startNs, qint64 endNs);
    void eventSelected(std::optional<fl::EventId> event);
    void evidenceSelected(std::optional<fl::EvidenceId> evidence);
    void laneSelected(const QString& lane);
    void laneFilterChanged(const QString& text);
    void cursorMoved(qint64 timeNs);
    void historyChanged();
    void highlightChanged();

private:
    void apply(const FocusSnapshot& next);

    FocusSnapshot m_current;
    std::vector<FocusSnapshot> m_back;
    std::vector<FocusSnapshot> m_forward;
    bool m_coalescing = false;
    int64_t m_cursor = kNoTime;
    std::vector<EventId> m_highlight;
};

} // namespace fl

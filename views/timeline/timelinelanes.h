// SPDX-License-Identifier: MIT
// Lane model of the timeline: one lane per node, expandable into rank
// sub-lanes, each holding its event times sorted per level so that painting
// binary-searches the visible range instead of walking every event.
// Plain data: no widgets, tested on its own.
#pragma once

#include "model.h"
#include "views/common/viewstyle.h"

#include <QHash>
#include <QString>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace fl {

struct Lane {
    QString key;              // "node" or "node/rank"; what FocusState::lane holds
    QString label;
    std::string node;
    int rank = -1;            // -1: node lane
    int parent = -1;          // node lane index for rank lanes
    std::vector<int> children;
    bool root = false;        // holds the root-cause event
    bool pinned = false;      // holds the root cause or a candidate: listed first, whatever the sort
    int64_t firstAnomaly = kNoTime;  // earliest symptom or root event (informational marks do not count)
    std::array<std::vector<int64_t>, style::LevelCount> times;   // sorted
    std::array<std::vector<EventId>, style::LevelCount> events;  // parallel to times
    // Uncertain times ([earliest, latest] wider than a point) with the best
    // estimate the mark sits at, sorted by start: drawn as whiskers so that a
    // line that only lies "between 10:00:01 and 10:03:40" does not look like
    // a precise moment.
    struct Span {
        int64_t earliest = 0, latest = 0, point = 0;
        friend bool operator<(const Span& a, const Span& b) { return a.earliest < b.earliest; }
    };
    std::array<std::vector<Span>, style::LevelCount> spans;
    int64_t widestSpan = 0;
    // Waiting symptoms (SymptomEvent::waited) on this lane: [onset as printed, fire], sorted. Drawn as a
    // faint bar back to where what they waited for began.
    std::vector<std::pair<int64_t, int64_t>> waits;
    uint32_t bootRelative = 0; // events kept off the wall-clock axis (boot time unknown)
    uint32_t untimed = 0;      // events whose line has no time at all: listed, not placed
    size_t eventCount() const;
};

class TimelineLanes {
public:
    static constexpr int64_t kMaxTimeNs = 3'000'000'000'000'000'000;  // ~2065

    // Lanes for every node named by the events, plus `quietNodes` (nodes with
    // files but no event), so a healthy node is visibly healthy.
    void build(const Result& result, const std::vector<std::string>& quietNodes = {});
    // Adds one event; for synthetic loads (tests, benchmarks). Call finish() after.
    // The time's interval (when wider than a point) is drawn as a bar. A boot-relative
    // time is put on the axis only when the whole timeline is boot-relative.
    void add(const std::string& node, int rank, const Timestamp& time, style::Level level, EventId event);
    void finish();

    void setFilter(const QString& text);
    void setSortByFirstAnomaly(bool on);
    void setExpanded(int lane, bool expanded);
    void setAllExpanded(bool expanded);
    bool isExpanded(int lane) const;
    QString filter() const { return m_filter; }
    bool sortByFirstAnomaly() const { return m_sortByAnomaly; }

    // Visible rows after filter, sort and expansion.
    int rowCount() const { return static_cast<int>(m_rows.size()); }
    int laneAtRow(int row) const;
    int rowOfLane(int lane) const;
    int rowOfKey(const QString& key) const;
    int laneOfKey(const QString& key) const;
    const Lane& lane(int index) const { return m_lanes[static_cast<size_t>(index)]; }
    int laneCount() const { return static_cast<int>(m_lanes.size()); }
    int rootLane() const { return m_rootLane; }
    uint64_t rowsVersion() const { return m_rowsVersion; }

    // kNoTime when no event has a place on the axis (a bundle without timestamps).
    int64_t minTime() const { return m_min; }
    int64_t maxTime() const { return m_max; }
    // Root cause and the non-suppressed events around it, for "fit to incident".
    int64_t incidentStart() const { return m_incidentStart; }
    // The job's onset (Result::onset): the overlap of every wait, shaded, and when the hang began.
    TimeInterval onsetWindow() const { return m_onsetWindow; }
    int64_t onsetEstimate() const { return m_onsetEstimate; }
    int64_t incidentEnd() const { return m_incidentEnd; }
    style::Level levelOfEvent(EventId event) const;

    // Per-pixel aggregation: out[x] = 1 + worst level of the lane's events in
    // pixel column x of [start, end) over `width` pixels, 0 for none. Costs
    // O(min(events in range, width * log events)) per level.
    void marks(int lane, int64_t start, int64_t end, int width, std::vector<uint8_t>& out) const;
    // The same for the uncertain times' whiskers: out[x] & kSpanLevel = 1 +
    // worst level of the whiskers over pixel column x; kSpanEnd marks a column
    // where an interval really ends (drawn as a tick). A whisker reaches at
    // most `capPx` either side of its best estimate: an interval that spans
    // the window on every lane of a wide job would otherwise paint every lane
    // solid; a capped side has no end tick, which says "goes on". Intervals
    // under kMinSpanPx are left to the mark.
    static constexpr uint8_t kSpanLevel = 0x7f, kSpanEnd = 0x80;
    static constexpr int kMinSpanPx = 3, kSpanCapPx = 24;
    void spanMarks(int lane, int64_t start, int64_t end, int width, std::vector<uint8_t>& out,
                   int capPx = kSpanCapPx) const;
    // The interval an event's mark stands for, unbounded when its time is a
    // point (or has no place on the axis): what the view draws in full for
    // the selected event.
    TimeInterval eventInterval(EventId event) const;
    // True when every timed event is boot-relative (no boot time known): the
    // axis is then seconds since each node's own boot.
    bool bootAxis() const { return m_bootAxis; }
    // Worst (then earliest) event of the lane within [t0, t1], if any.
    [[nodiscard]] std::optional<EventId> eventNear(int lane, int64_t t0, int64_t t1) const;
    int64_t eventTime(EventId event) const;

private:
    int laneFor(const std::string& node, int rank);
    void rebuildRows();

    std::vector<Lane> m_lanes;
    QHash<QString, int> m_index;  // key -> lane; linear lookups would make 10k lanes quadratic
    std::vector<int> m_rows;
    std::vector<bool> m_expanded;
    std::vector<int64_t> m_eventTime;           // by EventId::value
    std::vector<uint8_t> m_eventLevel;          // by EventId::value
    std::vector<TimeInterval> m_eventInterval;  // by EventId::value; unbounded unless drawn as a whisker
    QString m_filter;
    bool m_sortByAnomaly = true;
    int m_rootLane = -1;
    bool m_bootAxis = false;
    std::optional<EventId> m_rootEvent;
    uint64_t m_rowsVersion = 0;
    int64_t m_min = kNoTime, m_max = kNoTime;
    int64_t m_incidentStart = kNoTime, m_incidentEnd = kNoTime;
    TimeInterval m_onsetWindow;
    int64_t m_onsetEstimate = kNoTime;
};

} // namespace fl

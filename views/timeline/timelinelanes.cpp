// SPDX-License-Identifier: MIT
#include "views/timeline/timelinelanes.h"

#include "views/common/timecoords.h"

#include <algorithm>
#include <cmath>

namespace fl {

using style::Level;

size_t Lane::eventCount() const
{
    size_t n = 0;
    for (const auto& t : times)
        n += t.size();
    return n;
}


int TimelineLanes::laneFor(const std::string& node, int rank)
{
    const QString nodeKey = node.empty() ? QStringLiteral("(unknown node)") : style::q(node);
    int nodeLane = laneOfKey(nodeKey);
    if (nodeLane < 0) {
        Lane l;
        l.key = nodeKey;
        l.label = nodeKey;
        l.node = node;
        m_lanes.push_back(std::move(l));
        nodeLane = static_cast<int>(m_lanes.size()) - 1;
        m_index.insert(nodeKey, nodeLane);
        m_expanded.push_back(false);
    }
    if (rank < 0)
        return nodeLane;
    const QString key = nodeKey + QLatin1Char('/') + QString::number(rank);
    int rankLane = laneOfKey(key);
    if (rankLane < 0) {
        Lane l;
        l.key = key;
        l.label = QStringLiteral("rank %1").arg(rank);
        l.node = node;
        l.rank = rank;
        l.parent = nodeLane;
        m_lanes.push_back(std::move(l));
        rankLane = static_cast<int>(m_lanes.size()) - 1;
        m_index.insert(key, rankLane);
        m_lanes[static_cast<size_t>(nodeLane)].children.push_back(rankLane);
        m_expanded.push_back(false);
    }
    return rankLane;
}

int TimelineLanes::laneOfKey(const QString& key) const
{
    return m_index.value(key, -1);
}

void TimelineLanes::add(const std::string& node, int rank, const Timestamp& time, Level level, EventId id)
{
    int64_t timeNs = time.ns;
    const TimeInterval& interval = time.interval;
    const uint32_t event = id.value;
    const int rankLane = laneFor(node, rank);
    const int parent = m_lanes[static_cast<size_t>(rankLane)].parent;
    const int nodeLane = parent < 0 ? rankLane : parent;
    if (event >= m_eventTime.size()) {
        m_eventTime.resize(event + 1, kNoTime);
        m_eventLevel.resize(event + 1, style::Suppressed);
        m_eventInterval.resize(event + 1);
    }
    // Times outside [1970, ~2065] are garbage from a hostile or broken line;
    // keeping them out bounds every span so time arithmetic cannot overflow.
    if (timeNs < 0 || timeNs > kMaxTimeNs)
        timeNs = kNoTime;
    if (timeNs == kNoTime) {
        ++m_lanes[static_cast<size_t>(rankLane)].untimed;
        if (nodeLane != rankLane)
            ++m_lanes[static_cast<size_t>(nodeLane)].untimed;
    }
    // Seconds since an unknown boot are not dates: on a wall-clock axis they
    // would sit in January 1970 and stretch "show all" over decades.
    const bool offAxis = timeNs != kNoTime && time.basis == TimeBasis::BootRelative && !m_bootAxis;
    if (offAxis) {
        timeNs = kNoTime;
        ++m_lanes[static_cast<size_t>(rankLane)].bootRelative;
        if (nodeLane != rankLane)
            ++m_lanes[static_cast<size_t>(nodeLane)].bootRelative;
    }
    const bool uncertain = timeNs != kNoTime && interval.bounded() && interval.latestNs > interval.earliestNs
        && interval.earliestNs >= 0 && interval.latestNs <= kMaxTimeNs;
    m_eventTime[event] = timeNs;
    m_eventLevel[event] = level;
    m_eventInterval[event] = uncertain ? interval : TimeInterval{};
    if (level == style::Root && (!m_rootEvent || id < *m_rootEvent))
        m_rootEvent = id;
    if (timeNs == kNoTime)
        return;  // kept for selection and lists, but has no place on a time axis
    for (int l : {nodeLane, rankLane}) {
        Lane& lane = m_lanes[static_cast<size_t>(l)];
        lane.times[level].push_back(timeNs);
        lane.events[level].push_back(id);
        if (uncertain) {
            lane.spans[level].push_back({interval.earliestNs, interval.latestNs, std::clamp(timeNs, interval.earliestNs, interval.latestNs)});
            lane.widestSpan = std::max(lane.widestSpan, interval.latestNs - interval.earliestNs);
        }
        // An informational mark (an old Xid 63, a start-up warning) is on
        // every node of a wide job: counting it would sort by start-up time.
        if (level >= style::Symptom && (lane.firstAnomaly == kNoTime || timeNs < lane.firstAnomaly))
            lane.firstAnomaly = timeNs;
        if (level == style::Root)
            lane.root = true;
        if (l == rankLane)
            break;
    }
    m_min = m_min == kNoTime ? timeNs : std::min(m_min, timeNs);
    m_max = m_max == kNoTime ? timeNs : std::max(m_max, timeNs);
}

void TimelineLanes::build(const Result& result, const std::vector<std::string>& quietNodes)
{
    *this = TimelineLanes();
    for (const auto& n : quietNodes)
        laneFor(n, -1);
    const style::EventLevels levels(result);
    bool anyWall = false, anyBoot = false;
    for (const auto& e : result.events) {
        if (!e.time.known())
            continue;
        (e.time.basis == TimeBasis::BootRelative ? anyBoot : anyWall) = true;
    }
    m_bootAxis = anyBoot && !anyWall;
    for (const auto& e : result.events) {
        add(e.node, e.rank, e.time, levels(e), e.id);
        if (!e.waited || e.suppressed || m_bootAxis || e.time.basis == TimeBasis::BootRelative ||
            m_eventTime[e.id.value] == kNoTime || e.time.ns - e.waited->minNs < 0)
            continue;
        const int rankLane = laneFor(e.node, e.rank), parent = m_lanes[static_cast<size_t>(rankLane)].parent;
        for (int l : {parent < 0 ? rankLane : parent, rankLane}) {
            m_lanes[static_cast<size_t>(l)].waits.emplace_back(e.time.ns - e.waited->minNs, e.time.ns);
            if (parent < 0)
                break;
        }
    }
    if (result.onset && !m_bootAxis) {
        m_onsetWindow = result.onset->allWaiting;
        m_onsetEstimate = result.onset->estimateNs;
    }
    // The lanes a reader came for stay on top: the root cause's and every candidate's.
    auto pin = [this](const std::string& node, int rank) {
        const QString nodeKey = node.empty() ? QStringLiteral("(unknown node)") : style::q(node);
        for (const QString& key : {nodeKey, nodeKey + QLatin1Char('/') + QString::number(rank)})
            if (const int l = laneOfKey(key); l >= 0)
                m_lanes[static_cast<size_t>(l)].pinned = true;
    };
    if (result.rootCause)
        pin(result.rootCause->node, result.rootCause->rank);
    for (const Candidate& c : result.candidates)
        pin(c.node, c.rank);
    if (!m_bootAxis && result.windowStartNs != kNoTime && result.windowEndNs > result.windowStartNs) {
        m_min = m_min == kNoTime ? result.windowStartNs : std::min(m_min, result.windowStartNs);
        m_max = m_max == kNoTime ? result.windowEndNs : std::max(m_max, result.windowEndNs);
    }
    finish();
}

void TimelineLanes::finish()
{
    for (Lane& lane : m_lanes) {
        for (auto& s : lane.spans)
            std::stable_sort(s.begin(), s.end());
        std::sort(lane.waits.begin(), lane.waits.end());
        for (size_t lv = 0; lv < style::LevelCount; ++lv) {
            auto& t = lane.times[lv];
            auto& ev = lane.events[lv];
            if (std::is_sorted(t.begin(), t.end()))
                continue;
            std::vector<size_t> order(t.size());
            for (size_t i = 0; i < order.size(); ++i)
                order[i] = i;
            std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return t[a] < t[b]; });
            std::vector<int64_t> t2(t.size());
            std::vector<EventId> e2(t.size());
            for (size_t i = 0; i < order.size(); ++i) {
                t2[i] = t[order[i]];
                e2[i] = ev[order[i]];
            }
            t.swap(t2);
            ev.swap(e2);
        }
    }
    for (int i = 0; i < laneCount(); ++i)
        if (m_lanes[static_cast<size_t>(i)].root && m_lanes[static_cast<size_t>(i)].parent < 0
            && (m_rootLane < 0 || m_lanes[static_cast<size_t>(i)].firstAnomaly < m_lanes[static_cast<size_t>(m_rootLane)].firstAnomaly))
            m_rootLane = i;

    // Incident: the root cause and its symptoms. Interesting events can be
    // hours away (an old Xid 63) and would shrink the incident to a sliver;
    // they count only when there is no root cause.
    const bool haveRoot = m_rootEvent.has_value();
    int64_t lo = kNoTime, hi = kNoTime;
    for (size_t id = 0; id < m_eventTime.size(); ++id) {
        const int64_t t = m_eventTime[id];
        const uint8_t lv = m_eventLevel[id];
        if (t == kNoTime || lv == style::Suppressed || (haveRoot && lv == style::Interesting))
            continue;
        lo = lo == kNoTime ? t : std::min(lo, t);
        hi = hi == kNoTime ? t : std::max(hi, t);
    }
    if (lo == kNoTime) {
        lo = m_min;
        hi = m_max;
    }
    if (lo != kNoTime) {
        // 10% margin on both sides, at least 30 s: a lone root cause is shown
        // with what happened just around it, and marks are never on the edge.
        const int64_t margin = std::max<int64_t>((hi - lo) / 10, 30'000'000'000);
        m_incidentStart = lo - margin;
        m_incidentEnd = hi + margin;
    }
    rebuildRows();
}

void TimelineLanes::setFilter(const QString& text)
{
    if (text == m_filter)
        return;
    m_filter = text;
    rebuildRows();
}

void TimelineLanes::setSortByFirstAnomaly(bool on)
{
    if (on == m_sortByAnomaly)
        return;
    m_sortByAnomaly = on;
    rebuildRows();
}

void TimelineLanes::setExpanded(int lane, bool expanded)
{
    if (lane < 0 || lane >= laneCount() || m_expanded[static_cast<size_t>(lane)] == expanded)
        return;
    m_expanded[static_cast<size_t>(lane)] = expanded;
    rebuildRows();
}

void TimelineLanes::setAllExpanded(bool expanded)
{
    std::fill(m_expanded.begin(), m_expanded.end(), expanded);
    rebuildRows();
}

bool TimelineLanes::isExpanded(int lane) const
{
    return lane >= 0 && lane < laneCount() && m_expanded[static_cast<size_t>(lane)];
}

void TimelineLanes::rebuildRows()
{
    auto before = [this](int a, int b) {
        const Lane& la = m_lanes[static_cast<size_t>(a)];
        const Lane& lb = m_lanes[static_cast<size_t>(b)];
        if (la.pinned != lb.pinned)
            return la.pinned;
        if (la.root != lb.root)
            return la.root;
        if (m_sortByAnomaly && la.firstAnomaly != lb.firstAnomaly) {
            if (la.firstAnomaly == kNoTime || lb.firstAnomaly == kNoTime)
                return lb.firstAnomaly == kNoTime;  // quiet lanes last
            return la.firstAnomaly < lb.firstAnomaly;
        }
        if (la.rank != lb.rank)
            return la.rank < lb.rank;
        return la.key < lb.key;
    };
    auto matches = [this](const Lane& l) { return m_filter.isEmpty() || l.key.contains(m_filter, Qt::CaseInsensitive); };

    std::vector<int> nodes;
    for (int i = 0; i < laneCount(); ++i)
        if (m_lanes[static_cast<size_t>(i)].parent < 0)
            nodes.push_back(i);
    std::sort(nodes.begin(), nodes.end(), before);
    m_rows.clear();
    for (int n : nodes) {
        const Lane& node = m_lanes[static_cast<size_t>(n)];
        const bool nodeMatches = matches(node);
        std::vector<int> kids;
        for (int c : node.children)
            if (nodeMatches || matches(m_lanes[static_cast<size_t>(c)]))
                kids.push_back(c);
        if (!nodeMatches && kids.empty())
            continue;
        m_rows.push_back(n);
        if (!m_expanded[static_cast<size_t>(n)])
            continue;
        std::sort(kids.begin(), kids.end(), before);
        m_rows.insert(m_rows.end(), kids.begin(), kids.end());
    }
    ++m_rowsVersion;
}

int TimelineLanes::laneAtRow(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[static_cast<size_t>(row)] : -1;
}

int TimelineLanes::rowOfLane(int lane) const
{
    auto it = std::find(m_rows.begin(), m_rows.end(), lane);
    return it == m_rows.end() ? -1 : static_cast<int>(it - m_rows.begin());
}

int TimelineLanes::rowOfKey(const QString& key) const
{
    return rowOfLane(laneOfKey(key));
}

style::Level TimelineLanes::levelOfEvent(EventId event) const
{
    return event.value < m_eventLevel.size() ? static_cast<Level>(m_eventLevel[event.value]) : style::Suppressed;
}

int64_t TimelineLanes::eventTime(EventId event) const
{
    return event.value < m_eventTime.size() ? m_eventTime[event.value] : kNoTime;
}

void TimelineLanes::marks(int laneIndex, int64_t start, int64_t end, int width, std::vector<uint8_t>& out) const
{
    out.assign(static_cast<size_t>(std::max(width, 0)), 0);
    if (laneIndex < 0 || laneIndex >= laneCount() || width <= 0 || end <= start)
        return;
    const Lane& lane = m_lanes[static_cast<size_t>(laneIndex)];
    const long double nsPerPixel = (static_cast<long double>(end) - start) / width;
    for (int lv = style::LevelCount - 1; lv >= 0; --lv) {
        const auto& t = lane.times[static_cast<size_t>(lv)];
        auto it = std::lower_bound(t.begin(), t.end(), start);
        while (it != t.end() && *it < end) {
            const auto x = static_cast<size_t>(
                std::clamp<long double>(std::floor((*it - static_cast<long double>(start)) / nsPerPixel), 0, width - 1));
            if (out[x] < lv + 1)
                out[x] = static_cast<uint8_t>(lv + 1);
            // Jump to the first event of the next pixel column: one mark per
            // pixel, so dense lanes cost log(n) per column, not n.
            const long double nextPixelStart = start + (x + 1) * nsPerPixel;
            if (nextPixelStart >= end)
                break;
            const auto next = static_cast<int64_t>(std::ceil(nextPixelStart));
            it = std::lower_bound(it + 1, t.end(), next);
        }
    }
}

void TimelineLanes::spanMarks(int laneIndex, int64_t start, int64_t end, int width, std::vector<uint8_t>& out, int capPx) const
{
    out.assign(static_cast<size_t>(std::max(width, 0)), 0);
    if (laneIndex < 0 || laneIndex >= laneCount() || width <= 0 || end <= start)
        return;
    const Lane& lane = m_lanes[static_cast<size_t>(laneIndex)];
    const long double nsPerPixel = (static_cast<long double>(end) - start) / width;
    auto px = [&](int64_t t) { return std::floor((t - static_cast<long double>(start)) / nsPerPixel); };
    const long double cap = std::max(capPx, 0);
    auto put = [&](long double x, uint8_t level, bool tick) {
        uint8_t& v = out[static_cast<size_t>(x)];
        v = static_cast<uint8_t>(std::max<uint8_t>(v & kSpanLevel, level) | (v & kSpanEnd) | (tick ? kSpanEnd : 0));
    };
    for (size_t lv = 0; lv < style::LevelCount; ++lv) {
        const auto& s = lane.spans[lv];
        // Sorted by start: nothing that starts before start - widestSpan can reach the window.
        auto it = std::lower_bound(s.begin(), s.end(), Lane::Span{start - lane.widestSpan, 0, 0});
        for (; it != s.end() && it->earliest < end; ++it) {
            if (it->latest < start)
                continue;
            long double x0 = px(it->earliest), x1 = px(it->latest);
            if (x1 - x0 < kMinSpanPx)
                continue;
            const long double xp = px(it->point);
            bool closed0 = true, closed1 = true;
            if (xp - x0 > cap) {
                x0 = xp - cap;
                closed0 = false;
            }
            if (x1 - xp > cap) {
                x1 = xp + cap;
                closed1 = false;
            }
            if (x1 < 0 || x0 > width - 1)
                continue;
            // An end beyond the window's edge is not an end the reader sees.
            if (x0 < 0) {
                x0 = 0;
                closed0 = false;
            }
            if (x1 > width - 1) {
                x1 = width - 1;
                closed1 = false;
            }
            const auto level = static_cast<uint8_t>(lv + 1);
            for (long double x = x0; x <= x1; ++x)
                put(x, level, (x == x0 && closed0) || (x == x1 && closed1));
        }
    }
}

TimeInterval TimelineLanes::eventInterval(EventId event) const
{
    return event.value < m_eventInterval.size() ? m_eventInterval[event.value] : TimeInterval{};
}

std::optional<EventId> TimelineLanes::eventNear(int laneIndex, int64_t t0, int64_t t1) const
{
    if (laneIndex < 0 || laneIndex >= laneCount())
        return std::nullopt;
    const Lane& lane = m_lanes[static_cast<size_t>(laneIndex)];
    for (int lv = style::LevelCount - 1; lv >= 0; --lv) {
        const auto& t = lane.times[static_cast<size_t>(lv)];
        auto it = std::lower_bound(t.begin(), t.end(), t0);
        if (it != t.end() && *it <= t1)
            return lane.events[static_cast<size_t>(lv)][static_cast<size_t>(it - t.begin())];
    }
    return std::nullopt;
}

} // namespace fl

// SPDX-License-Identifier: MIT
#include "views/common/focusstate.h"

#include <algorithm>

namespace fl {

namespace {
constexpr size_t kMaxHistory = 500;  // a long session must not grow without bound
}

FocusState::FocusState(QObject* parent)
    : QObject(parent)
{
}

bool FocusState::navigate(const FocusSnapshot& next, History mode)
{
    if (next.analysis != m_current.analysis)
        return false;
    if (next == m_current)
        return true;
    const bool coalesce = mode == History::Coalesce && m_coalescing;
    if (!coalesce) {
        m_back.push_back(m_current);
        if (m_back.size() > kMaxHistory)
            m_back.erase(m_back.begin());
    }
    m_coalescing = mode == History::Coalesce;
    const bool hadForward = !m_forward.empty();
    m_forward.clear();
    apply(next);
    if (!coalesce || hadForward)
        emit historyChanged();
    return true;
}

void FocusState::setTimeWindow(int64_t startNs, int64_t endNs, History mode)
{
    FocusSnapshot next = m_current;
    next.startNs = startNs;
    next.endNs = endNs;
    navigate(next, mode);
}

void FocusState::selectEvent(EventId event, const QString& lane)
{
    FocusSnapshot next = m_current;
    next.event = event;
    if (!lane.isEmpty())
        next.lane = lane;
    navigate(next);
}

void FocusState::selectEvidence(EvidenceId evidence, std::optional<EventId> event, const QString& lane)
{
    FocusSnapshot next = m_current;
    next.evidence = evidence;
    if (event)
        next.event = event;
    if (!lane.isEmpty())
        next.lane = lane;
    navigate(next);
}

void FocusState::selectLane(const QString& lane)
{
    FocusSnapshot next = m_current;
    next.lane = lane;
    navigate(next);
}

void FocusState::setLaneFilter(const QString& text)
{
    // Typing a filter is one step back, not one per keystroke.
    FocusSnapshot next = m_current;
    next.laneFilter = text;
    navigate(next, History::Coalesce);
}

void FocusState::setCursor(int64_t timeNs)
{
    if (timeNs == m_cursor)
        return;
    m_cursor = timeNs;
    emit cursorMoved(timeNs);
}

bool FocusState::reset(const FocusSnapshot& initial)
{
    if (initial.analysis && initial.analysis != m_current.analysis)
        return false;
    FocusSnapshot start = initial;
    start.analysis = m_current.analysis;
    reset(start.analysis, start);
    return true;
}

void FocusState::reset(AnalysisId analysis, FocusSnapshot initial)
{
    initial.analysis = analysis;
    m_back.clear();
    m_forward.clear();
    m_coalescing = false;
    apply(initial);
    setHighlight({});
    emit historyChanged();
}

void FocusState::setHighlight(std::vector<EventId> events)
{
    std::sort(events.begin(), events.end());
    events.erase(std::unique(events.begin(), events.end()), events.end());
    if (events == m_highlight)
        return;
    m_highlight = std::move(events);
    emit highlightChanged();
}

bool FocusState::isHighlighted(EventId event) const
{
    return std::binary_search(m_highlight.begin(), m_highlight.end(), event);
}

void FocusState::back()
{
    if (m_back.empty())
        return;
    m_forward.push_back(m_current);
    FocusSnapshot prev = m_back.back();
    m_back.pop_back();
    m_coalescing = false;
    apply(prev);
    emit historyChanged();
}

void FocusState::forward()
{
    if (m_forward.empty())
        return;
    m_back.push_back(m_current);
    FocusSnapshot next = m_forward.back();
    m_forward.pop_back();
    m_coalescing = false;
    apply(next);
    emit historyChanged();
}

void FocusState::apply(const FocusSnapshot& next)
{
    const FocusSnapshot prev = m_current;
    m_current = next;
    // Signals go out after the whole state changed, so a listener reading
    // current() sees a consistent snapshot.
    if (prev.startNs != next.startNs || prev.endNs != next.endNs)
        emit timeWindowChanged(next.startNs, next.endNs);
    if (prev.laneFilter != next.laneFilter)
        emit laneFilterChanged(next.laneFilter);
    if (prev.lane != next.lane)
        emit laneSelected(next.lane);
    if (prev.event != next.event)
        emit eventSelected(next.event);
    if (prev.evidence != next.evidence)
        emit evidenceSelected(next.evidence);
}

} // namespace fl

// SPDX-License-Identifier: MIT
#include "views/common/eventindex.h"

namespace fl {

EventIndex::EventIndex(const Result& result)
    : m_events(&result.events)
{
    const auto& events = result.events;
    for (size_t i = 0; i < events.size() && m_dense; ++i)
        m_dense = events[i].id.value == i;
    if (m_dense)
        return; // a local analysis: ids are positions, at 10,000 ranks no million-entry hash
    m_row.reserve(events.size());
    for (size_t i = 0; i < events.size(); ++i)
        m_row.emplace(events[i].id, i);
}

const SymptomEvent* EventIndex::find(EventId id) const
{
    if (!m_events)
        return nullptr;
    if (m_dense)
        return id.value < m_events->size() ? &(*m_events)[id.value] : nullptr;
    auto it = m_row.find(id);
    return it == m_row.end() ? nullptr : &(*m_events)[it->second];
}

} // namespace fl

// SPDX-License-Identifier: MIT
// Where each event of a result sits in Result::events, by its id (Wireshark's
// packet list keeps number_to_row_ for the same reason). A local analysis
// numbers its events by position, but a result read back from a compact
// document (the service's) holds only the events its evidence backs, so a
// view must never index Result::events by an id: it asks this index.
#pragma once

#include "model.h"

#include <unordered_map>
#include <vector>

namespace fl {

class EventIndex {
public:
    EventIndex() = default;
    // `result` must outlive the index (views hold the Analysis that owns it).
    explicit EventIndex(const Result& result);

    // The event with this id; nullptr when the result does not hold it.
    const SymptomEvent* find(EventId id) const;
    bool dense() const { return m_dense; }

private:
    const std::vector<SymptomEvent>* m_events = nullptr;
    bool m_dense = true;                       // every id is its position: no hash needed
    std::unordered_map<EventId, size_t> m_row; // id -> position, only when not dense
};

} // namespace fl

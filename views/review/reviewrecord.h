// SPDX-License-Identifier: MIT
// A review decision (present::ReviewDecision, kept append-only in the notes file) as the views mark it: the
// event it names in the analysis shown, and the short tag drawn beside that event on the timeline and chain.
#pragma once

#include "model.h"
#include "present/report.h"

#include <QColor>
#include <QString>

#include <optional>

namespace fl {

// The event the decision names in `result`: the event of the evidence item it recorded (an id follows the
// item when rules renumber events), else its recorded event id when that is still an event of the result.
// nullopt: a confirm of a verdict without a root, or an item gone from the result.
std::optional<EventId> reviewedEvent(const Result& result, const present::ReviewDecision& decision);

// Where the timeline draws the reviewed event: a candidate's corrected interval (the one the tie was decided
// on), else the event's own interval; unbounded when neither is known.
TimeInterval reviewedInterval(const Result& result, EventId event);

// "reviewed root: alice" (a chosen candidate) or "confirmed: alice" (the engine's root confirmed).
QString reviewedTag(const present::ReviewDecision& decision);

// The review's colour on the timeline and the chain: teal, neither a role colour (red root, amber symptom,
// grey context), the stepper's purple nor a compared candidate's.
inline QColor reviewColour() { return QColor(0x00, 0x79, 0x6b); }

} // namespace fl

// SPDX-License-Identifier: MIT
#include "views/review/reviewrecord.h"

#include "views/common/viewstyle.h"

#include <QCoreApplication>

namespace fl {

std::optional<EventId> reviewedEvent(const Result& result, const present::ReviewDecision& decision)
{
    if (!decision.evidenceId.empty())
        for (const EvidenceItem& item : result.evidence)
            if (toString(item.id) == decision.evidenceId)
                return item.event;
    if (decision.event >= 0)
        for (const SymptomEvent& e : result.events)
            if (static_cast<int64_t>(e.id.value) == decision.event)
                return e.id;
    return std::nullopt;
}

TimeInterval reviewedInterval(const Result& result, EventId event)
{
    for (const Candidate& c : result.candidates)
        if (c.event == event && c.time.interval.bounded())
            return c.time.interval;
    for (const SymptomEvent& e : result.events)
        if (e.id == event)
            return e.time.interval;
    return {};
}

QString reviewedTag(const present::ReviewDecision& decision)
{
    return decision.choice == present::ReviewChoice::Choose
               ? QCoreApplication::translate("fl::review", "reviewed root: %1").arg(style::q(decision.reviewer))
               : QCoreApplication::translate("fl::review", "confirmed: %1").arg(style::q(decision.reviewer));
}

} // namespace fl

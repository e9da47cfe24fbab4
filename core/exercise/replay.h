// Teach as a replay of the investigation (issue #44 item 3): the result as the engine knew it after a phase,
// and as anyone could know it at a moment of the incident. Every view drawn from such a result follows the
// step: after extract nothing is a root and nothing is red, events carry their first symptom names;
// suppressions, links, role overrides and evidence roles appear at the phase whose trace step set them;
// the verdict, root cause and candidates at `outcome`. Qt-free: the workbench's Teach tab shows it.
#pragma once

#include "model.h"

#include <vector>

namespace fl::exercise {

// `full` (a finished result) with what phases after `through` did taken back, read from `trace` (the
// analysis's, in run order). A change the trace does not name (the engine's own bookkeeping) counts from
// `outcome` on. With `atNs` (not kNoTime), also only what had happened by then: events and evidence with a
// later time are left out, and a root cause or candidate among them is not named. Event and evidence ids are
// kept (a selection stays valid).
[[nodiscard]] Result knownAfter(const Result& full, const std::vector<TraceStep>& trace, Phase through,
                                int64_t atNs = kNoTime);

} // namespace fl::exercise

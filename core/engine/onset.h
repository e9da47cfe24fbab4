// When the hang began. A symptom that says how long it waited (a watchdog's
// "ran for 600021 milliseconds", a hung task "blocked for more than 120
// seconds": SymptomEvent::waited) puts what it waited for before itself. A
// fault that began clearly after that cannot have started the wait: it is a
// later consequence or an independent fault, and its causal links to the
// wait are not drawn (engine/phases.cpp) nor is it the root cause
// (engine/outcome.cpp). "Clearly": more than onset_slack_s later, the time a
// rank may wait in a collective for a slow peer.
#pragma once

#include "engine/internal.h"

#include <optional>
#include <vector>

namespace fl::detail {

// Whether `cause` began clearly after what `waiting` waited for began: the
// earliest moment of its interval lies more than the slack after the latest
// moment of the wait's onset, both on the consensus clock. False when
// `waiting` did not wait or either time cannot be placed. A cause that itself
// waited is taken at its own onset. `deltaNs`: how far after.
bool beganAfterWait(const ClockModel& clocks, const SymptomEvent& waiting, const SymptomEvent& cause,
                    int64_t* deltaNs = nullptr);

// The job's onset from its waiting symptoms: bad-node events of effective
// role symptom (what an initiator would explain; a waiting initiator is a
// candidate itself) that waited, carry their own stamp, and fired within
// [startNs, endNs] (kNoTime: unbounded). None when no such event has a bounded onset.
std::optional<HangOnset> hangOnset(const State& state, const std::vector<SymptomEvent>& events, int64_t startNs,
                                   int64_t endNs);

// Whether candidate `c` began clearly after every wait of `onset` it would
// explain had begun (those not over before it began; `events` holds them by
// id); `deltaNs`: how far after the last of those onsets. A candidate that
// itself waited is taken at its own onset.
bool afterOnset(const ClockModel& clocks, const std::vector<SymptomEvent>& events, const HangOnset& onset,
                const SymptomEvent& c, int64_t& deltaNs);

} // namespace fl::detail

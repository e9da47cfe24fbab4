// Teach as a replay of the investigation (issue #44 item 3): the result as the engine knew it after a phase,
// and as anyone could know it at a moment of the incident. Every view drawn from such a result follows the
// step: after extract nothing is a root and nothing is red, events carry their first symptom names;
// suppressions, links, role overrides and evidence roles appear at the phase whose trace step set them;
// the verdict, root cause and candidates at `outcome`. Qt-free: the workbench's Teach tab shows it.
#pragma once

#include "engine/engine.h"
#include "model.h"

#include <string>
#include <vector>

namespace fl::exercise {

// `full` (a finished result) with what phases after `through` did taken back, read from `trace` (the
// analysis's, in run order). A change the trace does not name (the engine's own bookkeeping) counts from
// `outcome` on. With `atNs` (not kNoTime), also only what had happened by then: events and evidence with a
// later time are left out, and a root cause or candidate among them is not named. Event and evidence ids are
// kept (a selection stays valid).
[[nodiscard]] Result knownAfter(const Result& full, const std::vector<TraceStep>& trace, Phase through,
                                int64_t atNs = kNoTime);

// One "why not" of the replay: an event and why it is not the cause, as known after a phase.
struct WhyNotLine {
    EventId event;
    std::string text;  // its place, then present::WhyNot's sentence
};
struct WhyNotLines {
    std::vector<WhyNotLine> lines;  // in time order (untimed last), at most the limit asked for
    size_t total = 0;               // how many there are
};

// The events `phase` set aside (suppressed, merged, linked as a consequence, counted as a symptom or context) and,
// at `outcome`, every other event that is not a root (the interesting events
// and red herrings the choice passed over), each with its "why not" as known after `phase`: the lesson of that
// step, said where the step happens. `full` and `trace` as for knownAfter.
[[nodiscard]] WhyNotLines whyNotAt(const Analysis& full, const std::vector<TraceStep>& trace, Phase phase,
                                   size_t limit);

// The event's catalogue title with its fields filled in, and its catalogue entry; the symptom id (and null) when
// the analysis has no rules at hand (a result read back from the service).
[[nodiscard]] std::string eventTitle(const Analysis& a, const SymptomEvent& e, const SymptomDef** def = nullptr);

} // namespace fl::exercise

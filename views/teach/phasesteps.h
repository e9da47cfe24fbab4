// SPDX-License-Identifier: MIT
// Analysis::trace regrouped for teaching: one step per engine phase, in the
// order the engine runs them (extract → filter.early … refine.final →
// outcome → post_outcome → report), each with what happened to which
// events. Phases that changed nothing are kept: seeing that a phase did
// nothing is part of the lesson. Plain data, no widgets.
#pragma once

#include "engine/engine.h"

#include <QString>

#include <array>
#include <vector>

namespace fl {

class PhaseSteps
{
public:
    // What a trace action did to its events.
    enum Change { Appeared, Rewritten, Suppressed, Linked, Ranked, Other, ChangeCount };
    static Change classify(TraceAction action);
    static QString changeName(Change c);
    static QString phaseDescription(const QString& phase);

    struct Step {
        QString phase;
        std::vector<const TraceStep*> items;                        // trace order
        std::array<std::vector<EventId>, ChangeCount> events;       // sorted, unique
        std::vector<EventId> touched;                               // union, sorted
    };

    void build(const Analysis& analysis);
    int count() const { return static_cast<int>(m_steps.size()); }
    const Step& step(int i) const { return m_steps[static_cast<size_t>(i)]; }
    int indexOf(const QString& phase) const;

private:
    std::vector<Step> m_steps;
};

} // namespace fl

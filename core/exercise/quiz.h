// What a learner may see of an analysis before answering: the evidence lines,
// the events' places and times on the timeline's lanes, and no decision — no
// status, domain, root, candidate, chain link, role, demotion, trace, nor the
// symptom names (a name is a classification whose prefix is a domain). The workbench's quiz mode shows this; the reveal shows the analysis.
#pragma once

#include "engine/engine.h"
#include "exercise/key.h"

namespace fl::exercise {

// A copy of `analysis` with every decision taken out (see above).
[[nodiscard]] Analysis quizAnalysis(const Analysis& analysis);

// The verdict taken out of `r`: status (unattributed), domain, root cause, candidates, what would decide, the
// hang's onset, the summary and what is missing. quizAnalysis takes more; a Teach replay before `outcome` this.
void clearVerdict(Result& r);

// The label an exercise has when no key comes with it: the engine's own verdict (its root's node, or the tied
// candidates' nodes), so the learner is scored against what the engine found.
[[nodiscard]] Label labelOfEngine(const Result& result);

} // namespace fl::exercise

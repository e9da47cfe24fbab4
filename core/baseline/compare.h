// analyze FAILED --baseline HEALTHY: what the failed attempt has that a healthy attempt of the same job did not.
// Events, families and candidates are matched by symptom (the rule's id for what the line is) and place; lines no
// rule recognises by their masked template (line_template.h). The verdict itself is not recomputed: a candidate
// the baseline also has at the same rate is ranked after the others and the change is said (verdict, change).
#pragma once

#include "baseline/comparison.h"
#include "engine/engine.h"

namespace fl::baseline {

// Compares `failed` with `healthy` (both analysed with the same rules). Reads the attempts' log files again for
// the lines no rule recognised; a file that cannot be read is skipped (it is already in the connector reports).
[[nodiscard]] BaselineComparison compare(const Analysis& failed, const Analysis& healthy);

} // namespace fl::baseline

// Human-readable renderings of an analysis for a terminal.
#pragma once

#include "engine/engine.h"
#include "rules/rule.h"

#include <string>

namespace fl::cli {

std::string formatDiagnosis(const Analysis& analysis);
std::string formatExplanation(const Analysis& analysis);
std::string formatInspection(const Analysis& analysis, bool asJson);

} // namespace fl::cli

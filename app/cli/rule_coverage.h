// What a rule set covers: its extract rules by the origin of their messages
// and by the domain of the symptoms their samples yield (validate-rules --coverage).
#pragma once

#include <string>

namespace fl {
class RuleSet;
}

namespace fl::cli {

// Warnings, one line each, for extract rules that carry no samples, no benign
// lines or no source.
std::string ruleSampleWarnings(const RuleSet& rules);

// The coverage report: families (origin of the message) and domains, with rule,
// sample and benign counts.
std::string ruleCoverage(const RuleSet& rules);

} // namespace fl::cli

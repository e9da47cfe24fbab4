// Error- and warning-level lines that no rule recognised, grouped by their masked template.
#pragma once

#include "baseline/comparison.h"
#include "engine/engine.h"

#include <map>
#include <string>
#include <vector>

namespace fl::baseline {

struct UnknownTemplate {
    Severity severity = Severity::Warning;   // the highest of its lines
    uint32_t count = 0;
    std::vector<std::string> nodes;          // sorted, distinct
    int64_t firstNs = kNoTime;
    TimeBasis basis = TimeBasis::None;
    std::string file;                        // the earliest line's (or, untimed, the first read) file and line
    uint32_t line = 0;
};

// At most this many templates per attempt; lines of further templates are counted in `overflowLines`.
inline constexpr size_t kMaxUnknownTemplates = 100'000;

struct UnknownLines {
    std::map<std::string, UnknownTemplate> templates;
    uint64_t overflowLines = 0;
};

// Lines of the application, kernel and fabric-manager logs whose level (or, for a line without one, a word:
// error, fatal, fail, exception, traceback / warn) says error or warning, and that no observation covers.
// Node names are masked with the attempt's own `nodes`.
[[nodiscard]] UnknownLines unknownLines(const Analysis& analysis, const std::vector<std::string>& nodes);

} // namespace fl::baseline

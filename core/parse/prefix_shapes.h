// The prefix shapes parseLine reads (core/parse/lineparse.cpp keeps them as one table), each with sample
// lines it must read; tests/parse checks every sample against its shape.
#pragma once

#include "parse/lineparse.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace fl {

// A line a prefix shape must read: the instant it gives (ISO 8601, UTC; empty: none) with a default year
// of 2024, no boot time and no zone, and the text its message starts with.
struct PrefixSample {
    std::string_view line;
    std::string_view instant;
    std::string_view message;
};

struct PrefixShapeSamples {
    std::string_view name;
    std::span<const PrefixSample> samples;
};

// In the order parseLine asks them.
std::vector<PrefixShapeSamples> prefixShapes();

// The shapes that read a prefix of `line` in parseLine (bit i: prefixShapes()[i]).
uint32_t shapesReading(std::string_view line, const TimeContext& ctx);

} // namespace fl

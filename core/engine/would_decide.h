// What would decide an ambiguous verdict (issue #45): for each pair of tied candidates, the sources, nodes,
// UTC window and stamp resolution or clock accuracy that would order them (Result::wouldDecide). Data only;
// the sentence is written by present/would_decide.h.
#pragma once

#include "engine/internal.h"

#include <vector>

namespace fl::detail {

// Per pair of tied candidates in `result.candidates` (Candidate::outcome.tied()), in candidate order; at most
// kMaxWouldDecidePairs pairs (the first candidates'): past a handful, "which of these" is not one comparison.
inline constexpr size_t kMaxWouldDecidePairs = 12;
std::vector<WouldDecide> wouldDecideOf(const State& state, const std::vector<SymptomEvent>& events,
                                       const Result& result);

} // namespace fl::detail

// The report's chain reduced to what a reader can take in (report.cpp and
// report_svg.cpp share it): the root cause (or, without one, the candidates)
// each as itself, and what they led to. From the symptom families (reached
// along the family edges); for a result without families (a document older
// than 2.0, read back), every event reachable from the focus merged by symptom.
#pragma once

#include "model.h"

#include <string>
#include <utility>
#include <vector>

namespace fl::present {

struct ChainNode {
    bool focus = false;   // a root cause or candidate, drawn as itself
    bool root = false;
    std::string symptom;
    std::string where;    // focus: place(); a family: placeOfMany(); per-event groups: empty
    std::string when;     // focus: its time as printed, "no time" without one
    size_t events = 0;
    size_t nodes = 0;
};
struct ChainSummary {
    std::vector<ChainNode> nodes;                  // focus first, then families in result order (or by symptom id)
    std::vector<std::pair<size_t, size_t>> edges;  // indexes into nodes, sorted, unique
    size_t symptomsLeftOut = 0;                    // groups beyond the cap
};
ChainSummary summariseChain(const Result& result, size_t maxFocus, size_t maxSymptoms);

// A time as the result document writes it; "no time" without one.
std::string timeText(const Timestamp& t);

} // namespace fl::present

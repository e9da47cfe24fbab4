// Compare candidates (issue #45 item 1): the tied candidates of an ambiguous result side by side — each
// labelled A, B … with its corrected interval, raw lines, the rules that fired on it and the symptoms it
// explains — the window that shows them all, and the setting that made the tie. The workbench's compare view
// draws this; the words are made here.
#pragma once

#include "model.h"

#include <string>
#include <vector>

namespace fl::present {

struct CompareColumn {
    std::string label;                   // "A", "B" … in the result's candidate order
    EventId event;
    std::string title;                   // the symptom's title
    std::string place;                   // "node-01 GPU 0 rank 0"
    std::string node;
    TimeInterval interval;               // the candidate's corrected interval, as the result holds it
    std::string printed;                 // its time as printed, on its node's clock
    std::string intervalText;            // "10:00:40.999–10:00:42.001 UTC (corrected)"
    std::vector<std::string> rawLines;   // "syslog-node-01.log:4  <the line>", one per evidence item
    std::vector<std::string> rules;      // rules that extracted, rewrote or linked it, distinct
    std::vector<std::string> explains;   // "nccl.watchdog_timeout × 6", downstream symptoms by count
    std::string verdict;                 // candidateVerdict(): why it tied, won or lost
};

// At most this many columns; the rest are counted in Comparison::omitted.
inline constexpr size_t kMaxColumns = 8;

struct Comparison {
    std::vector<CompareColumn> columns;  // the tied candidates; every candidate when none tied (kMaxColumns)
    size_t omitted = 0;                  // candidates beyond kMaxColumns, not shown
    TimeInterval zoom;                   // the columns' intervals' hull widened by the margin each side
    std::string tieSetting;              // what made the tie: the overlap and the clocks' widening
};

// `marginNs` widens the zoom window each side. Empty columns when the result has no candidate.
Comparison compareCandidates(const Result& result, int64_t marginNs);

// "A", "B" … "Z", then "#27" …
std::string candidateLabel(size_t index);

} // namespace fl::present

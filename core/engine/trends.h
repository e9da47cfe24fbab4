// TRENDS: evidence that no single line carries. Extract rules with a `series`
// turn numbers printed on step lines (step time, loss, memory) into points of
// their rank's series; `trend` rules judge the series (a straggling rank, a
// loss spike, memory growing into an OOM) and emit one derived event each,
// whose evidence is the raw lines that show it (first, onset, worst, last,
// and a peer's line at the same step). Docs: docs/rules.md, "Series and trends".
#pragma once

#include "model.h"
#include "rules/rule.h"

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fl::detail {

struct State;

// What a point's value measures, after its printed unit was applied.
enum class SeriesUnit : uint8_t { None, Seconds, Bytes };

// One number one line carried.
struct SeriesPoint {
    uint32_t observation = 0; // the line: its node, rank and time are the observation's (after placement)
    double step = std::numeric_limits<double>::quiet_NaN(); // printed step/iteration, NaN when none
    double value = 0;         // in seconds / bytes / as printed; NaN and Inf are points too (a NaN loss)
    SeriesUnit unit = SeriesUnit::None;
    int rank = -1;            // the rank the line names (SeriesCapture::rank), -1: where it was printed
};

// Points by series name, each in file then line order.
using SeriesStore = std::map<std::string, std::vector<SeriesPoint>>;

// `value` with `unit` ("ms", "GiB" ...) as a point value; false when `value` is
// not a number or the unit is unknown.
bool parseSeriesValue(std::string_view value, std::string_view unit, double& out, SeriesUnit& kind);

// A value for humans: "18.71 s", "412 ms", "30.12 GiB", "6.445".
std::string formatSeriesValue(double value, SeriesUnit unit);

// ---- the pure part (tests/engine/test_trends.cpp drives it directly)

// The points of one rank (or node, or file) in order.
struct TrendSeries {
    std::string node;
    int rank = -1;
    std::vector<SeriesPoint> points;
};

struct TrendFinding {
    size_t series = 0;                 // index into the input
    size_t onset = 0;                  // point index where the trend shows first: the event's time
    std::vector<size_t> evidence;      // point indices of `series`, ascending, onset among them
    std::optional<std::pair<size_t, size_t>> peer; // (series, point) of a peer at the worst step (straggler)
    FieldMap fields;                               // what it found, for titles and rules
};

// Findings of `trend` over `series`, in series order. Straggler series are
// compared with each other at equal steps (else at equal distance from their
// ends); spike and growth look at each series alone.
std::vector<TrendFinding> findTrends(const Trend& trend, const std::vector<TrendSeries>& series);

// The trend rule's events, appended to `events` (ids continue theirs). Returns how many.
uint32_t emitTrend(const State& state, const Rule& rule, std::vector<SymptomEvent>& events,
                   std::vector<TraceStep>* trace);

} // namespace fl::detail

// The workbench opens a bundle keeping its metric series without their samples:
// a 10,000-rank bundle holds 6.5 million samples (~200 MB, and most of its scan
// time) while the metric plots draw at most a few hundred series. The samples of
// the series a view draws are read again from their files, one parse per file.
#pragma once

#include "bundle/bundle.h"
#include "parse/structured.h"

#include <vector>

namespace fl {

// For each of `series`, in order: its samples as the file holds them now, sorted
// by time (empty when the file cannot be read any more or no longer has that series).
[[nodiscard]] std::vector<std::vector<MetricSample>> readSeriesSamples(const Bundle& bundle,
                                                                       const std::vector<const MetricSeries*>& series);

} // namespace fl

// SPDX-License-Identifier: MIT
// What the Metrics tab shows for a metric evidence item: its series at its
// sample, and its peers (the same metric on the job's other GPUs, nodes or
// ports) drawn behind it for comparison, as the peers rule compared them
// (docs/workbench.md "Metric evidence"). Built off the GUI thread; the peers'
// samples are read again from their files when the analysis did not keep them.
#pragma once

#include "engine/engine.h"

#include <QString>
#include <QVector>

#include <atomic>
#include <optional>
#include <vector>

namespace fl {

struct MetricFocusTarget {
    EvidenceId evidence;
    size_t series = 0;          // Analysis::metrics index of the item's series
    std::vector<size_t> peers;  // the same metric elsewhere: the item's node first, then by node, GPU, labels
    int64_t pointNs = kNoTime;  // the item's sample
    int64_t verdictNs = kNoTime;  // the root cause's time, when there is one
};

// The item's series and peers; none when the item is no metric's or its series is not in the analysis.
[[nodiscard]] std::optional<MetricFocusTarget> metricFocusTarget(const Analysis& analysis, const EvidenceItem& item);
// The metric evidence item that shows `event`: the one at the event's own time (a counter's increase also
// cites the sample before it), else the event's first metric item; null when the event has none.
[[nodiscard]] const EvidenceItem* metricEvidenceOf(const Result& result, EventId event);

struct FocusedLine {
    QString name;
    QVector<double> x, y;
};

struct FocusedPlot {
    MetricFocusTarget target;
    QString title;
    FocusedLine series;              // drawn bold, on top
    std::vector<FocusedLine> peers;  // drawn faintly: at most kMaxPeerLines, nearest first
    size_t peerCount = 0;            // every peer, drawn or not
    // Every peer's value at each of the series' sample times (its last sample at or before it):
    // the lowest, the median and the highest, so 9,999 peers read as one band.
    QVector<double> bandX, bandLo, bandMid, bandHi;
    double lo = 0, hi = 0;
    bool cancelled = false;
};

inline constexpr size_t kMaxPeerLines = 63;  // with the series, MetricsPanel::kMaxGraphsPerPlot

[[nodiscard]] FocusedPlot prepareFocusedPlot(const Analysis& analysis, const MetricFocusTarget& target,
                                             const std::atomic<bool>& cancelled);
// Whether prepareFocusedPlot must read samples from files (the workbench keeps none).
[[nodiscard]] bool focusNeedsFiles(const Analysis& analysis, const MetricFocusTarget& target);

} // namespace fl

// What a metric rule finds in metric series, as a pure function of the rule and
// the points: the engine runs it over a bundle's scrapes (engine/metric_rules.cpp)
// and the rule loader over each rule's sample values (rules/samples.cpp), so a
// sample is checked the way a bundle is judged. Docs: docs/rules.md, "Metric rules".
#pragma once

#include "field_map.h"
#include "parse/structured.h"
#include "rules/rule.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fl {

// The series in which a machine names itself (node-exporter's uname collector: node_uname_info{nodename=...}),
// read with the metric rules' series so a series named by its scrape address is put on its host
// (engine/metric_nodes.h) and fetched with them (collect --prometheus).
inline constexpr std::string_view kHostNameSeries = "node_uname_info";

// One sample of a series: a finite value at a known time (the caller leaves out NaN, Inf and untimed
// samples and says so in a note). A track's points are its series' parsed samples, kept as the parser
// stored them (offset, line and length say where each is: the caller's, not read here), so that a clean
// series becomes a track without a copy.
using MetricPoint = MetricSample;

// One series (a GPU's, a port's, a node's), its points in time order, one per time.
struct MetricTrack {
    std::vector<MetricPoint> points;
    // window_count: the times its node / GPU was scraped (another series of the name has a sample) without
    // it, ascending: no occurrence was in the window then, the count was 0.
    std::vector<int64_t> absentNs;
};

struct MetricFinding {
    size_t track = 0;
    size_t at = 0;                                  // the point that shows it: the event's time
    std::optional<size_t> previous;                 // the point before it: the interval's start
    std::vector<std::pair<size_t, size_t>> others;  // (track, point): more evidence (a peer at that scrape,
                                                    // the last series to drop)
    int64_t earliestNs = 0;                         // the interval the finding lies in
    int64_t latestNs = 0;
    // all_below / all_fall: (track, point) of the last moment every series was still low (the first series
    // to end): the finding is a wait seen there, which began in [earliestNs, latestNs].
    std::optional<std::pair<size_t, size_t>> until;
    FieldMap fields;                                // value, previous, increase, bit ... (docs/rules.md)
};

// The findings of `rule` over `tracks`. Single-series kinds judge each track alone, in order;
// `peers` compares the tracks scrape by scrape; `all_below` and `all_fall` yield at most one finding (the job).
[[nodiscard]] std::vector<MetricFinding> detectMetric(const MetricRule& rule, const std::vector<MetricTrack>& tracks);
// The same over tracks held elsewhere (the engine's, not copied per rule).
[[nodiscard]] std::vector<MetricFinding> detectMetric(const MetricRule& rule, const std::vector<const MetricTrack*>& tracks);

// A value as a field holds it: integers without a fraction ("79"), else up to 6 significant digits.
[[nodiscard]] std::string formatMetricValue(double v);

// The fields of a metric event: the finding's, the series name, its labels as written by Prometheus
// ("{gpu=\"3\",Hostname=\"n1\"}") and each label under its own name (node, rank, gpu and pci excepted: those
// are the event's place), then the rule's emit fields; `symptom` gets the emit template expanded.
[[nodiscard]] FieldMap metricEventFields(const Rule& rule, const MetricFinding& finding,
                                         const std::map<std::string, std::string>& labels, std::string& symptom);

// "{a=\"1\",b=\"x\"}" (empty labels: "").
[[nodiscard]] std::string promLabels(const std::map<std::string, std::string>& labels);

} // namespace fl

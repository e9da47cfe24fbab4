// METRIC RULES: extract rules that read metric series (DCGM, node-exporter,
// InfiniBand counters) instead of lines. The rule language and what each kind
// finds are in rules/metric_detect.h and docs/rules.md ("Metric rules"); here the
// bundle's scrapes become the points they judge and each finding an ordinary
// event: placed on the series' node / GPU (labels), dated by the scrape
// interval it lies in, its evidence the sample lines themselves.
#pragma once

#include "model.h"
#include "parse/structured.h"
#include "rules/metric_detect.h"
#include "rules/rule.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace fl {
class RuleSet;
}

namespace fl::detail {

// One series of a file as metric rules judge it: the file's series of one metric on one node / GPU /
// device / port, whatever other labels came and went, its finite timed samples in time order.
struct MetricTrackData {
    std::string name;
    std::string node;
    int gpu = -1;
    std::string pci;                               // from pci_bus_id, normalised
    std::map<std::string, std::string> labels;     // its last label set
    FileId file;                                   // where its samples are
    MetricTrack track;                             // its samples in time order, one per time
};

// The metric names the loaded rules read: each rule's series. `across`: only those of peers / all_below
// rules, whose series the scan keeps until every file is read.
[[nodiscard]] MetricNames metricRuleSeries(const RuleSet& rules, bool acrossOnly);

// A file's series of the names in `names` as tracks. Everything left out or reordered is said in `notes`
// ("<path>: ..."): NaN/Inf and untimed samples, samples out of time order, repeated times, counter resets,
// a label set that changed, so nothing is dropped silently.
// Whether the caller keeps the parsed series after their tracks are made: when it drops them (the CLI keeps no
// series), each track takes its series' name, node and labels instead of a copy.
enum class SeriesAfter { Kept, Dropped };

// A series whose samples are all timed, finite and in time and file order (the usual case) becomes its
// track as it is: its samples are moved (SeriesAfter::Dropped) or copied, never rebuilt point by point.
// A point's `length` is 0 (not measured) until an observation cites the sample or measureSampleLengths runs:
// few samples are ever cited, and measuring each where it is made was a search of every sample's text.
[[nodiscard]] std::vector<MetricTrackData> metricTracks(std::vector<MetricSeries>& series, SeriesAfter after, const MetricNames& names,
                                                        const MetricNames& counters, FileId file, const std::string& path,
                                                        std::vector<std::string>& notes);

// Measures the length of each of the track's samples in its file's `data`: for a track kept past the file.
void measureSampleLengths(MetricTrackData& track, std::string_view data);

// Runs the metric rules of `rules` over `tracks` (single-series kinds when !across, peers / all_below when
// across), appending an observation per evidence sample and an event per finding. Ids are `obsBase` + index
// in `observations` and `eventBase` + index in `events` (0: the vectors are the ids' own). `data`: the tracks'
// file, for the length of a cited sample not measured yet (empty: every length was measured).
void runMetricRules(const RuleSet& rules, bool across, const std::vector<const MetricTrackData*>& tracks, uint32_t obsBase,
                    std::vector<Observation>& observations, uint32_t eventBase, std::vector<SymptomEvent>& events,
                    std::string_view data = {});

} // namespace fl::detail

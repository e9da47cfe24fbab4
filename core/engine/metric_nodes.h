// The node of a metric series named by address. node-exporter's series carry only
// `instance`, the address Prometheus scraped ("10.0.0.4:9100"; the parser drops the
// port), while logs name the host ("gpu-b04"). The machine says its own name in
// node_uname_info{nodename=...} on the same instance; a bundle's host map (nslookup,
// /etc/hosts: rules/hostmap.jsonc) says it too. Metric events, their evidence and the
// series are moved onto that host, so they meet the host's log events.
#pragma once

#include "engine/metric_rules.h"
#include "model.h"
#include "parse/structured.h"

#include <string>
#include <vector>

namespace fl::detail {

// Moves what `metricEvents` (events on the metrics clock) and their metric observations name by a mapped
// address onto its host; `series` too. An address given two hosts stays as written, said in `warnings`.
void nameMetricNodes(const std::vector<MetricTrackData>& tracks, std::vector<SymptomEvent>& events,
                     std::vector<Observation>& observations, std::vector<MetricSeries>& series,
                     std::vector<std::string>& warnings);

} // namespace fl::detail

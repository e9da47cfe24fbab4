#include "engine/metric_samples.h"

#include "bundle/mapped_file.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace fl {

namespace {
auto key(const MetricSeries& s)
{
    return std::tie(s.name, s.node, s.gpu, s.labels);
}
} // namespace

std::vector<std::vector<MetricSample>> readSeriesSamples(const Bundle& bundle, const std::vector<const MetricSeries*>& series)
{
    std::vector<std::vector<MetricSample>> out(series.size());
    std::map<uint32_t, std::vector<size_t>> byFile;
    for (size_t i = 0; i < series.size(); ++i)
        if (series[i] && series[i]->file.value < bundle.files.size())
            byFile[series[i]->file.value].push_back(i);
    for (auto& [file, wanted] : byFile) {
        MappedFile map;
        std::string error;
        if (!openSource(map, bundle.files[file], &error))
            continue;
        // Only the wanted names keep their samples: a peer comparison asks for one metric's 10,000 series
        // of a 172 MB scrape that holds ~40 metrics.
        MetricNames names;
        for (size_t i : wanted)
            names.insert(series[i]->name);
        std::vector<MetricSeries> parsed;
        std::vector<ParseIssue> issues;
        MetricsTally tally;
        if (!parseMetrics(map.data(), FileId(file), MetricsKeep::SeriesOnly, parsed, tally, issues, &names))
            continue;
        // Matched by sorted keys, not one scan of the file's series per wanted series (10,000 × 80,000 compares).
        std::vector<MetricSeries*> byKey;
        for (MetricSeries& p : parsed)
            if (!p.samples.empty())
                byKey.push_back(&p);
        const auto less = [](const MetricSeries* a, const MetricSeries* b) { return key(*a) < key(*b); };
        std::stable_sort(byKey.begin(), byKey.end(), less);
        for (size_t i : wanted) {
            auto it = std::lower_bound(byKey.begin(), byKey.end(), series[i], less);
            if (it != byKey.end() && key(**it) == key(*series[i]))
                out[i] = (*it)->samples; // copied: two wanted entries may name one series
        }
    }
    return out;
}

} // namespace fl

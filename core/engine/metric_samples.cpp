#include "engine/metric_samples.h"

#include "bundle/mapped_file.h"

#include <map>
#include <tuple>

namespace fl {

std::vector<std::vector<MetricSample>> readSeriesSamples(const Bundle& bundle, const std::vector<const MetricSeries*>& series)
{
    std::vector<std::vector<MetricSample>> out(series.size());
    std::map<uint32_t, std::vector<size_t>> byFile;
    for (size_t i = 0; i < series.size(); ++i)
        if (series[i] && series[i]->file.value < bundle.files.size())
            byFile[series[i]->file.value].push_back(i);
    for (const auto& [file, wanted] : byFile) {
        MappedFile map;
        std::string error;
        if (!openSource(map, bundle.files[file], &error))
            continue;
        std::vector<MetricSeries> parsed;
        std::vector<ParseIssue> issues;
        MetricsTally tally;
        if (!parseMetrics(map.data(), FileId(file), MetricsKeep::Samples, parsed, tally, issues))
            continue;
        auto key = [](const MetricSeries& s) { return std::tie(s.name, s.node, s.gpu, s.labels); };
        for (size_t i : wanted)
            for (MetricSeries& p : parsed)
                if (key(p) == key(*series[i])) {
                    out[i] = std::move(p.samples);
                    break;
                }
    }
    return out;
}

} // namespace fl

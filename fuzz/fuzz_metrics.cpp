// Metrics: Prometheus query JSON, OpenMetrics text, CSV.
#include "fuzz_input.h"
#include "parse/structured.h"

#include <algorithm>

using namespace fl;

void fuzzOne(std::string_view data)
{
    std::vector<MetricSeries> out;
    std::vector<ParseIssue> issues;
    (void)parseMetrics(data, FileId(0), out, issues);
    for (const auto& s : out) {
        FUZZ_CHECK(std::is_sorted(s.samples.begin(), s.samples.end(),
                                  [](const MetricSample& a, const MetricSample& b) { return a.timeNs < b.timeNs; }));
        for (const auto& m : s.samples)
            FUZZ_CHECK(m.offset <= data.size());
    }
}

// Kubernetes events: kubectl get events -o json (EventList or a bare array).
#include "fuzz_input.h"
#include "parse/structured.h"

using namespace fl;

void fuzzOne(std::string_view data)
{
    std::vector<StructuredRecord> out;
    std::vector<ParseIssue> issues;
    (void)parseK8sEvents(data, out, issues);
    for (const auto& r : out)
        FUZZ_CHECK(r.offset + r.length <= data.size() && r.lineCount >= 1);
}

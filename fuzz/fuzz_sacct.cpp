// Slurm accounting: sacct --json and sacct -p/--parsable2 text.
#include "fuzz_input.h"
#include "parse/structured.h"

using namespace fl;

namespace {
void check(std::string_view data, const std::vector<StructuredRecord>& out)
{
    for (const auto& r : out)
        FUZZ_CHECK(r.offset + r.length <= data.size() && r.lineCount >= 1);
}
} // namespace

void fuzzOne(std::string_view data)
{
    std::vector<StructuredRecord> out;
    std::vector<ParseIssue> issues;
    (void)parseSacctJson(data, out, issues);
    check(data, out);
    out.clear();
    (void)parseSacctPipe(data, out, issues);
    check(data, out);
}

// The bundle manifest (workload.json): a bad one is a BundleError naming the
// file; anything else escaping is a finding.
#include "fuzz_input.h"
#include "bundle/bundle.h"

using namespace fl;

void fuzzOne(std::string_view data)
{
    try {
        const Manifest m = parseManifest(data, "workload.json");
        FUZZ_CHECK(m.windowStartNs == kNoTime || m.windowEndNs == kNoTime || m.windowStartNs <= m.windowEndNs);
    } catch (const BundleError& e) {
        FUZZ_CHECK(e.file == "workload.json");
    }
}

// Results a collect --history database kept at one place, to open again (the workbench's History tab): the
// document collect stored and the bundle it analysed.
#pragma once

#include "history/offenders.h"

#include <string>
#include <vector>

namespace fl::history {

struct PastResult {
    std::string id;          // the row's number
    std::string workloadId;
    std::string collectedAt; // ISO 8601 UTC
    std::string bundle;      // the folder or archive collect analysed; '' when it named none
    std::string resultJson;  // the result document as collect stored it
};

// The results with `place`'s cause at its node and GPU (PCI address and index as the summary keeps them), newest
// first, leaving out workload `ownWorkload` (the job open now; '' leaves out none); at most `limit`. Read-only.
// False and `error` naming the file when it cannot be read.
bool pastResultsInHistoryDb(const std::string& path, const Offender& place, const std::string& ownWorkload, int limit,
                            std::vector<PastResult>& out, std::string& error);

} // namespace fl::history

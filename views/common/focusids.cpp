// SPDX-License-Identifier: MIT
#include "views/common/focusids.h"

#include <atomic>

namespace fl {

AnalysisId AnalysisId::next()
{
    static std::atomic<uint64_t> counter{0};
    return AnalysisId{++counter};
}

} // namespace fl

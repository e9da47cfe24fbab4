// SPDX-License-Identifier: MIT
#include "views/baseline/baselineattempt.h"

#include <algorithm>

namespace fl {

int64_t attemptStartNs(const Result& r)
{
    if (r.windowStartNs != kNoTime)
        return r.windowStartNs;
    int64_t start = kNoTime;
    for (const auto& f : r.families)
        if (f.first.ns != kNoTime)
            start = start == kNoTime ? f.first.ns : std::min(start, f.first.ns);
    return start;
}

int64_t attemptStartNs(const Analysis& a)
{
    // The first line of the attempt, not its first symptom: two attempts of one job both begin with their
    // launch, while their first symptom may be a failure in one and start-up noise in the other.
    int64_t start = kNoTime;
    for (const auto& f : a.bundle.files)
        if (f.firstTimeNs != kNoTime)
            start = start == kNoTime ? f.firstTimeNs : std::min(start, f.firstTimeNs);
    return start != kNoTime ? start : attemptStartNs(a.result);
}

namespace {

std::shared_ptr<const BaselineAttempt> kept(Result healthy, int64_t startNs, std::shared_ptr<const BaselineComparison> comparison,
                                            const QString& source)
{
    auto k = std::make_shared<BaselineAttempt>();
    k->comparison = std::move(comparison);
    k->startNs = startNs;
    k->result = std::move(healthy);
    k->source = source;
    return k;
}

} // namespace

std::shared_ptr<const BaselineAttempt> keepBaselineAttempt(Analysis&& healthy,
                                                           std::shared_ptr<const BaselineComparison> comparison,
                                                           const QString& source)
{
    const int64_t start = attemptStartNs(healthy);
    return kept(std::move(healthy.result), start, std::move(comparison), source);
}

std::shared_ptr<const BaselineAttempt> keepBaselineAttempt(Result healthy, std::shared_ptr<const BaselineComparison> comparison,
                                                           const QString& source)
{
    const int64_t start = attemptStartNs(healthy);
    return kept(std::move(healthy), start, std::move(comparison), source);
}

} // namespace fl

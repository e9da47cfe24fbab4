// SPDX-License-Identifier: MIT
#include "views/common/timecoords.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace fl::timecoords {

namespace {
Range clampInto(Range r, Range limit)
{
    if (limit.end <= limit.start)
        return r;
    const long double span = static_cast<long double>(r.end) - r.start;
    const long double limitSpan = static_cast<long double>(limit.end) - limit.start;
    if (span >= limitSpan)
        return limit;
    if (r.start < limit.start)
        return {limit.start, static_cast<int64_t>(limit.start + span)};
    if (r.end > limit.end)
        return {static_cast<int64_t>(limit.end - span), limit.end};
    return r;
}
} // namespace

Range zoomAround(Range r, int64_t anchor, double factor, Range limit)
{
    if (!(factor > 0) || !std::isfinite(factor) || r.end <= r.start)
        return r;
    const long double span = static_cast<long double>(r.end) - r.start;
    long double newSpan = std::max<long double>(span * factor, kMinSpanNs);
    // Keep the anchor's fraction of the width: the point under the cursor stays put.
    long double frac = (static_cast<long double>(anchor) - r.start) / span;
    frac = std::clamp<long double>(frac, 0, 1);
    const long double start = anchor - frac * newSpan;
    if (limit.end > limit.start)
        newSpan = std::min<long double>(newSpan, static_cast<long double>(limit.end) - limit.start);
    Range out{static_cast<int64_t>(start), static_cast<int64_t>(start + newSpan)};
    return clampInto(out, limit);
}

Range panBy(Range r, int64_t delta, Range limit)
{
    const long double s = static_cast<long double>(r.start) + delta;
    const long double e = static_cast<long double>(r.end) + delta;
    constexpr long double lo = static_cast<long double>(std::numeric_limits<int64_t>::min());
    constexpr long double hi = static_cast<long double>(std::numeric_limits<int64_t>::max());
    if (s < lo || e > hi)
        return r;
    return clampInto({static_cast<int64_t>(s), static_cast<int64_t>(e)}, limit);
}

int64_t tickStep(int64_t spanNs, double width, double minPixels)
{
    static constexpr std::array<int64_t, 35> kSteps = {
        1, 2, 5, 10, 20, 50, 100, 200, 500,                                        // ns
        1'000, 2'000, 5'000, 10'000, 20'000, 50'000, 100'000, 200'000, 500'000,    // µs
        1'000'000, 2'000'000, 5'000'000, 10'000'000, 20'000'000, 50'000'000,       // ms
        100'000'000, 200'000'000, 500'000'000,
        1'000'000'000, 2'000'000'000, 5'000'000'000, 10'000'000'000, 15'000'000'000, // s
        30'000'000'000, 60'000'000'000, 120'000'000'000,
    };
    static constexpr std::array<int64_t, 9> kLong = {
        300'000'000'000, 600'000'000'000, 1'800'000'000'000, 3'600'000'000'000,    // min, h
        7'200'000'000'000, 21'600'000'000'000, 43'200'000'000'000, 86'400'000'000'000,
        604'800'000'000'000,
    };
    if (spanNs <= 0 || width <= 0)
        return kSteps.back();
    const long double wanted = static_cast<long double>(spanNs) * std::max(minPixels, 1.0) / width;
    for (int64_t s : kSteps)
        if (s >= wanted)
            return s;
    for (int64_t s : kLong)
        if (s >= wanted)
            return s;
    // Beyond a week per tick: whole weeks.
    const long double weeks = std::ceil(wanted / kLong.back());
    return weeks > 1e4L ? kLong.back() * 10'000 : static_cast<int64_t>(weeks) * kLong.back();
}

int64_t firstTick(int64_t start, int64_t step)
{
    if (step <= 0)
        return start;
    int64_t q = start / step;
    if (q * step < start)
        ++q;  // division truncates towards zero, so negatives are already rounded up
    const long double t = static_cast<long double>(q) * step;
    return t > static_cast<long double>(std::numeric_limits<int64_t>::max()) ? start : q * step;
}

} // namespace fl::timecoords

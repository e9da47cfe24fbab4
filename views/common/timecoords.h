// SPDX-License-Identifier: MIT
// Pure time <-> pixel arithmetic shared by the timeline, its axis and the
// metrics panel. Times are int64 nanoseconds since the epoch; spans are
// computed in long double so that epoch-sized values never overflow.
#pragma once

#include <cstdint>
#include <limits>

namespace fl::timecoords {

inline constexpr int64_t kMinSpanNs = 1000;  // zooming stops at 1 µs across the widget

// Degenerate range (end <= start) or non-positive width maps every time to x = 0.
// Not clamped: times outside the range give x < 0 or x > width, callers cull.
inline double timeToPixel(int64_t t, int64_t start, int64_t end, double width)
{
    if (end <= start || width <= 0)
        return 0;
    return double((static_cast<long double>(t) - start) * width / (static_cast<long double>(end) - start));
}

// Inverse of timeToPixel. Degenerate range or width returns `start`; the
// result saturates at the int64 limits instead of wrapping.
inline int64_t pixelToTime(double x, int64_t start, int64_t end, double width)
{
    if (end <= start || width <= 0)
        return start;
    const long double t = start + static_cast<long double>(x) * (static_cast<long double>(end) - start) / width;
    if (t >= static_cast<long double>(std::numeric_limits<int64_t>::max()))
        return std::numeric_limits<int64_t>::max();
    if (t <= static_cast<long double>(std::numeric_limits<int64_t>::min()))
        return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(t < 0 ? t - 0.5L : t + 0.5L);
}

// Row under y (0 at the top of the first row, scrolled by `offsetY` pixels).
// Returns -1 above the first row, at or below the last one, or for rowHeight <= 0.
inline int rowAt(double y, double offsetY, int rowHeight, int rowCount)
{
    if (rowHeight <= 0)
        return -1;
    const double pos = y + offsetY;
    if (pos < 0)
        return -1;
    const auto row = static_cast<long long>(pos / rowHeight);
    return row < rowCount ? static_cast<int>(row) : -1;
}

struct Range {
    int64_t start = 0;
    int64_t end = 0;
    friend bool operator==(const Range&, const Range&) = default;
};

// Scales the range by `factor` (< 1 zooms in) keeping `anchor` at the same
// pixel. The span never drops below kMinSpanNs nor grows past `limit`'s span;
// the result is shifted back inside `limit` when it would leave it.
Range zoomAround(Range r, int64_t anchor, double factor, Range limit);

// Moves the range by `delta` ns, kept inside `limit` (span preserved when it fits).
Range panBy(Range r, int64_t delta, Range limit);

// A "nice" tick step (1-2-5 sequence of ns..s, then minutes, hours, days)
// such that ticks are at least `minPixels` apart over `width` pixels.
int64_t tickStep(int64_t spanNs, double width, double minPixels);

// First tick at or after `start` for that step (aligned to multiples of step from the epoch).
int64_t firstTick(int64_t start, int64_t step);

} // namespace fl::timecoords

#include "calendar.h"

#include <limits>

namespace fl {

int64_t daysFromCivil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void civilFromDays(int64_t z, int& y, unsigned& m, unsigned& d)
{
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t yy = static_cast<int64_t>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    y = static_cast<int>(yy + (m <= 2));
}

int yearOfNs(int64_t ns)
{
    int64_t secs = ns / 1'000'000'000;
    if (ns < 0 && ns % 1'000'000'000 != 0)
        --secs;
    int64_t days = secs / 86400;
    if (secs < 0 && secs % 86400 != 0)
        --days;
    int y;
    unsigned m, d;
    civilFromDays(days, y, m, d);
    return y;
}

std::optional<int64_t> secondsToNsChecked(int64_t seconds, int64_t nanos)
{
    int64_t ns = 0;
    if (__builtin_mul_overflow(seconds, int64_t(1'000'000'000), &ns) || __builtin_add_overflow(ns, nanos, &ns)
        || ns == std::numeric_limits<int64_t>::min())
        return std::nullopt;
    return ns;
}

std::optional<int64_t> civilToNsChecked(int64_t year, unsigned month, unsigned day, int64_t hour, int64_t minute,
                                        int64_t second, int64_t nanos, int64_t offsetSec)
{
    // daysFromCivil itself stays exact far beyond this; the bound only keeps its
    // own products small. Anything outside is out of int64-ns range anyway.
    constexpr int64_t kMaxYear = 1'000'000;
    if (year < -kMaxYear || year > kMaxYear || month < 1 || month > 12)
        return std::nullopt;
    int64_t secs = 0;
    if (__builtin_mul_overflow(daysFromCivil(year, month, day), int64_t(86400), &secs)
        || __builtin_add_overflow(secs, hour * 3600 + minute * 60 + second, &secs)
        || __builtin_sub_overflow(secs, offsetSec, &secs))
        return std::nullopt;
    return secondsToNsChecked(secs, nanos);
}

} // namespace fl

#include "parse/lineparse.h"

namespace fl {

// Days from 1970-01-01 for a proleptic Gregorian date (H. Hinnant's
// days_from_civil): exact for every year, no time zone database involved.
int64_t civilToNs(int year, int month, int day, int hour, int minute, int second, int64_t nanos)
{
    const int64_t y = int64_t(year) - (month <= 2 ? 1 : 0);
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t mp = (month + 9) % 12;
    const int64_t doy = (153 * mp + 2) / 5 + day - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    const int64_t days = era * 146097 + doe - 719468;
    const int64_t secs = days * 86400 + int64_t(hour) * 3600 + int64_t(minute) * 60 + second;
    return secs * 1000000000LL + nanos;
}

} // namespace fl

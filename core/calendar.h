// Proleptic Gregorian calendar arithmetic (Howard Hinnant's days_from_civil /
// civil_from_days): exact for every year, no time zone database. The one copy
// every part of the engine uses.
#pragma once

#include <cstdint>
#include <optional>

namespace fl {

// Days since 1970-01-01.
int64_t daysFromCivil(int64_t year, unsigned month, unsigned day);
// Inverse of daysFromCivil.
void civilFromDays(int64_t days, int& year, unsigned& month, unsigned& day);
// UTC calendar year of a time in ns since the epoch (floor for times before 1970).
int yearOfNs(int64_t ns);

// A civil time `offsetSec` east of UTC to ns since the epoch, with checked
// arithmetic: nullopt when it does not fit int64 nanoseconds (about
// 1677-09-21 .. 2262-04-11) or would be INT64_MIN, which is kNoTime. Every
// parser of dates ends here, so hostile years cannot overflow (issue #13).
// Fields are not validated beyond that: callers check month/day/clock ranges.
[[nodiscard]] std::optional<int64_t> civilToNsChecked(int64_t year, unsigned month, unsigned day, int64_t hour, int64_t minute,
                                        int64_t second, int64_t nanos, int64_t offsetSec = 0);
// seconds + nanos to ns, checked the same way (dmesg uptimes, epoch columns).
[[nodiscard]] std::optional<int64_t> secondsToNsChecked(int64_t seconds, int64_t nanos);

} // namespace fl

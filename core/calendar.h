// Proleptic Gregorian calendar arithmetic (Howard Hinnant's days_from_civil /
// civil_from_days): exact for every year, no time zone database. The one copy
// every part of the engine uses.
#pragma once

#include <cstdint>

namespace fl {

// Days since 1970-01-01.
int64_t daysFromCivil(int64_t year, unsigned month, unsigned day);
// Inverse of daysFromCivil.
void civilFromDays(int64_t days, int& year, unsigned& month, unsigned& day);
// UTC calendar year of a time in ns since the epoch (floor for times before 1970).
int yearOfNs(int64_t ns);

} // namespace fl

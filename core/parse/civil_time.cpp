#include "calendar.h"
#include "parse/lineparse.h"

namespace fl {

int64_t civilToNs(int year, int month, int day, int hour, int minute, int second, int64_t nanos)
{
    const int64_t days = daysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
    const int64_t secs = days * 86400 + int64_t(hour) * 3600 + int64_t(minute) * 60 + second;
    return secs * 1000000000LL + nanos;
}

} // namespace fl

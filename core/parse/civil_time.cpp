#include "calendar.h"
#include "parse/lineparse.h"

namespace fl {

int64_t civilToNs(int year, int month, int day, int hour, int minute, int second, int64_t nanos)
{
    if (month < 1 || day < 1)
        return kNoTime;
    return civilToNsChecked(year, static_cast<unsigned>(month), static_cast<unsigned>(day), hour, minute, second, nanos)
        .value_or(kNoTime);
}

} // namespace fl

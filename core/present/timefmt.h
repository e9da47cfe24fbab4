#pragma once
#include "model.h"
#include <string>
namespace fl {
// "2026-03-14T10:00:41.123456789Z"; trailing zero groups of the fraction are
// dropped (…41Z, …41.123Z). kNoTime -> "".
std::string formatTimeUtc(int64_t ns);
// A timestamp in its basis: as above, except that a boot-relative time (dmesg
// seconds with no known boot time) is written "boot+6781741.548779s": it is not
// a date and must not look like one. Takes the Timestamp, not its parts, so that
// no caller can print a time without the basis it was read in.
std::string formatTime(const Timestamp& t);
}

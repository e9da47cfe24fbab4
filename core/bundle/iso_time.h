// The one reader of ISO 8601 / RFC 3339 date-times in core/: manifests, result
// documents, scheduler records, log line prefixes and synth's --start all go
// through scanIso8601, so a stamp means the same wherever it is written. What
// differs between callers is policy they state themselves (a log line needs
// seconds and a plausible year; a manifest field is the whole text).
#pragma once

#include "calendar.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace fl {

// A date-time as written, checked against the calendar but not yet placed on
// the time line.
struct IsoStamp {
    int year = 0, month = 0, day = 0, hour = 0, minute = 0;
    int second = 0;              // 60: a leap second (RFC 3339), read as the next minute's :00
    bool hasSeconds = false;     // "HH:MM" alone leaves them out
    int64_t nanos = 0;           // the fraction; digits past the ninth are read and dropped
    int fracDigits = 0;          // digits written after the seconds: the stamp's resolution
    std::optional<int> zoneSec;  // seconds east of UTC when a zone is written
    size_t end = 0;              // one past its last byte in the text
};

// Reads a date-time at the start of `text` and stops at the first byte that does
// not continue it; the caller decides whether anything may follow. Grammar:
//   YYYY-MM-DD ('T' | 't' | ' ' | '_') HH:MM [:SS [('.' | ',') digits]] [zone]
//   zone: 'Z' | 'z' | (+|-)HH[[:]MM] | " UTC"
// A zone that does not read (+25:00, +5) is not part of the stamp. nullopt when
// no date-time starts the text or a field is out of range (month 13, 2023-02-29,
// hour 24, minute 60, second 61).
[[nodiscard]] std::optional<IsoStamp> scanIso8601(std::string_view text);

// The stamp in ns since the epoch, in its own zone or else `defaultOffsetSec`
// east of UTC; nullopt when it does not fit int64 ns (calendar.h).
[[nodiscard]] std::optional<int64_t> isoStampNs(const IsoStamp& stamp, int defaultOffsetSec = 0);

// A whole text that is one date-time (trailing bytes refuse it) to ns since the
// epoch. Without a zone the text is taken in `defaultOffsetSec` east of UTC.
[[nodiscard]] std::optional<int64_t> parseIso8601Ns(std::string_view text, int defaultOffsetSec = 0);

// "+02:00", "-0530", "+02", "Z", "UTC" to seconds east of UTC.
[[nodiscard]] std::optional<int> parseUtcOffset(std::string_view text);

} // namespace fl

// Minimal ISO 8601 date-time parsing for manifests: the manifest's few
// timestamps are the only dates the loader reads, so no date library is pulled in.
#pragma once

#include "calendar.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace fl {

// "YYYY-MM-DDTHH:MM[:SS[.fraction]][Z|+hh:mm|+hhmm|+hh]" ('T' or ' ' between date
// and time) to nanoseconds since the epoch. Without a zone the text is taken in
// `defaultOffsetSec` east of UTC. nullopt on anything else.
[[nodiscard]] std::optional<int64_t> parseIso8601Ns(std::string_view text, int defaultOffsetSec = 0);

// "+02:00", "-0530", "+02", "Z", "UTC" to seconds east of UTC.
[[nodiscard]] std::optional<int> parseUtcOffset(std::string_view text);

} // namespace fl

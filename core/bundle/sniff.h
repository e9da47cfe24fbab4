// Content sniffing over the first bytes of a file: is it text, what shape are
// its lines, which host wrote them. Bounded: callers pass at most kHeadBytes.
#pragma once

#include "model.h"

#include <string>
#include <string_view>

namespace fl {

inline constexpr size_t kHeadBytes = 64 * 1024;
inline constexpr size_t kSampleLines = 400;

// NUL bytes, or more than 30% control bytes / invalid UTF-8 sequences.
bool looksBinary(std::string_view head);

// Only spaces, tabs, CR, LF, FF, VT (or nothing).
bool isBlank(std::string_view data);

// First line is comma-separated with a time column (timestamp, time, ts, date, datetime).
bool looksLikeMetricsCsvHeader(std::string_view head);

struct ContentShape {
    SourceKind kind = SourceKind::Unknown;
    std::string reason; // "NVRM lines (3 of 12 sampled lines)"
};
ContentShape sniffContent(std::string_view head);

struct ContentHost {
    std::string host;   // empty unless every host-bearing sampled line agrees
    std::string reason;
};
ContentHost hostFromContent(std::string_view head);

} // namespace fl

// Multi-line records become one observation: Python tracebacks, torchrun
// ChildFailedError blocks, SXid header + Severity + Data lines, NVRM
// fallen-off-the-bus blocks, NCCL WARN lines and their "INFO ... -> N" chains.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fl {

struct Extent {
    size_t begin = 0;         // byte offset of the first line of the record
    size_t end = 0;           // byte offset just past the last line (excluding its newline)
    uint32_t linesBefore = 0; // lines included before the matched line
    uint32_t linesAfter = 0;  // lines included after it
};

// Given a matched line [lineBegin, lineEnd) inside `buffer`, returns the extent
// of the record it belongs to. Bounded: at most 200 lines / 64 KiB each way.
Extent recordExtent(std::string_view buffer, size_t lineBegin, size_t lineEnd);

} // namespace fl

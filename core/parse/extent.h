// Multi-line records become one observation: Python tracebacks, torchrun
// ChildFailedError blocks, SXid header + Severity + Data lines, NVRM
// fallen-off-the-bus blocks, NCCL WARN lines and their "INFO ... -> N" chains.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

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

// One exception statement of a Python traceback ("OSError: [Errno 28] No space
// left on device" and the exception lines continuing it), and how it is tied to
// the statement printed before it.
enum class ChainLink : uint8_t { First, DirectCause, DuringHandling };
struct ExceptionStatement {
    size_t begin = 0; // first line of the statement
    size_t end = 0;   // just past its last line (excluding the newline)
    ChainLink link = ChainLink::First;
};

// The exception statements, in the order printed, of the Python traceback
// (chained ones included) that the line [lineBegin, lineEnd) belongs to, when
// that line is one of their lines; empty otherwise. Python prints the cause
// first: statements[0] is the deepest. Lines of the traceback carry one
// launcher label ("[rank3]: ", "[default0]:"); lines of other labels between
// them (other ranks writing at the same time) are stepped over.
std::vector<ExceptionStatement> tracebackStatements(std::string_view buffer, size_t lineBegin, size_t lineEnd);

} // namespace fl

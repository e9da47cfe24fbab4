// Multi-line record grouping: for every line of the input, the record around
// it must contain it and stay inside the buffer.
#include "fuzz_input.h"
#include "parse/extent.h"

using namespace fl;

void fuzzOne(std::string_view data)
{
    size_t pos = 0;
    while (pos <= data.size()) {
        const size_t nl = data.find('\n', pos);
        const size_t end = nl == std::string_view::npos ? data.size() : nl;
        const Extent e = recordExtent(data, pos, end);
        FUZZ_CHECK(e.begin <= pos && e.end >= end && e.end <= data.size());
        if (nl == std::string_view::npos)
            break;
        pos = nl + 1;
    }
}

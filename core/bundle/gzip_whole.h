// A gzip file expanded in one call with libdeflate, which inflates our bundles about 3x as fast as zlib
// behind libarchive's streaming filter (docs/performance.md). Only when the outcome is certain to be the
// bytes streaming would give: anything unusual is left to the streaming path and its established errors.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace fl {

// Gives a buffer back to the small pool it came from (gzip_whole.cpp), for the next archive.
struct PooledBufferReturn {
    size_t capacity = 0;
    void operator()(char* p) const;
};

// The expanded bytes; shared, so that archive members can be views into them (HeldBytes).
struct WholeGzip {
    std::shared_ptr<char[]> bytes;
    size_t size = 0;
    const char* data() const { return bytes.get(); }
};

// `path` expanded whole, or nullopt when it is not a gzip file, holds more than one gzip member or bytes
// after the first, states an expanded size (its trailer) of 0 or above `maxBytes`, cannot be read, or does
// not decode to exactly that size with a matching CRC.
std::optional<WholeGzip> inflateWholeGzip(const std::string& path, uint64_t maxBytes);

} // namespace fl

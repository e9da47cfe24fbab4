// A gzip file expanded in one call with libdeflate, which inflates our bundles about 3x as fast as zlib
// behind libarchive's streaming filter (docs/performance.md). Only when the outcome is certain to be the
// bytes streaming would give: anything unusual is left to the streaming path and its established errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace fl {

// The expanded bytes, in a buffer that goes back to a small pool for the next archive (gzip_whole.cpp).
class WholeGzip {
public:
    WholeGzip() = default;
    WholeGzip(WholeGzip&& o) noexcept;
    WholeGzip& operator=(WholeGzip&& o) noexcept;
    WholeGzip(const WholeGzip&) = delete;
    WholeGzip& operator=(const WholeGzip&) = delete;
    ~WholeGzip();

    // Room for `size` bytes; false if the memory cannot be had.
    bool allocate(size_t size);
    char* data() const { return m_data; }
    size_t size() const { return m_size; }

private:
    void release();
    char* m_data = nullptr;
    size_t m_size = 0;
    size_t m_capacity = 0;
};

// `path` expanded whole, or nullopt when it is not a gzip file, holds more than one gzip member or bytes
// after the first, states an expanded size (its trailer) of 0 or above `maxBytes`, cannot be read, or does
// not decode to exactly that size with a matching CRC.
std::optional<WholeGzip> inflateWholeGzip(const std::string& path, uint64_t maxBytes);

} // namespace fl

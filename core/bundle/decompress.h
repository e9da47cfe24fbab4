// Compressed single files inside a bundle (rotated "syslog.1.gz", "kern.log.xz",
// "app.log.zst"): recognised by their magic bytes, not their names, and
// expanded with libarchive's raw format (its filters do the decompression).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace fl {

// "gzip", "xz", "zstd", "bzip2", "lz4" from the first bytes of a file, else empty.
std::string_view compressionOf(std::string_view head);

// The bundle path without its compression suffix: "var/log/syslog.1.gz" -> "var/log/syslog.1".
std::string withoutCompressionSuffix(std::string_view path);

struct Decompressed {
    uint64_t size = 0;
    std::string error;  // empty on success
};

// Expands the single compressed stream `src` into the new file `dst`, at most
// `maxBytes` of output (a bomb stops there with an error). `dst` is removed on error.
[[nodiscard]] Decompressed decompressFile(const std::string& src, const std::string& dst, uint64_t maxBytes);

} // namespace fl

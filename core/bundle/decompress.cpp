#include "bundle/decompress.h"

#include <archive.h>
#include <archive_entry.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <memory>

#include <fcntl.h>
#include <unistd.h>

namespace fl {

namespace {

struct Magic {
    std::string_view bytes;
    std::string_view name;
    std::string_view suffix;
};
// Magic numbers: RFC 1952 (gzip), the .xz file format spec, RFC 8878 (zstd),
// bzip2's "BZh" + block size digit, the LZ4 frame format.
constexpr std::array<Magic, 5> kMagic{{
    {std::string_view("\x1f\x8b", 2), "gzip", ".gz"},
    {std::string_view("\xfd" "7zXZ\x00", 6), "xz", ".xz"},
    {std::string_view("\x28\xb5\x2f\xfd", 4), "zstd", ".zst"},
    {std::string_view("BZh", 3), "bzip2", ".bz2"},
    {std::string_view("\x04\x22\x4d\x18", 4), "lz4", ".lz4"},
}};

// libarchive returns NULL when it has no message (fuzz finding: a gzip magic
// with nothing after it made std::string(nullptr) crash).
std::string errorOf(archive* a)
{
    const char* msg = archive_error_string(a);
    return msg && *msg ? msg : "unknown error";
}

struct ArchiveFree {
    void operator()(archive* a) const { archive_read_free(a); }
};

} // namespace

std::string_view compressionOf(std::string_view head)
{
    for (const auto& m : kMagic) {
        if (!head.starts_with(m.bytes))
            continue;
        // "BZh" is also plain text; bzip2 follows it with a block size digit 1..9 and a block magic.
        if (m.name == "bzip2" && (head.size() < 10 || head[3] < '1' || head[3] > '9' || head.substr(4, 6) != "\x31\x41\x59\x26\x53\x59"))
            continue;
        return m.name;
    }
    return {};
}

std::string withoutCompressionSuffix(std::string_view path)
{
    for (const std::string_view suffix : {".gz", ".xz", ".zst", ".zstd", ".bz2", ".lz4", ".z", ".Z"})
        if (path.size() > suffix.size() && path.ends_with(suffix))
            return std::string(path.substr(0, path.size() - suffix.size()));
    return std::string(path);
}

Decompressed decompressFile(const std::string& src, const std::string& dst, uint64_t maxBytes)
{
    Decompressed out;
    auto fail = [&](std::string why) {
        ::unlink(dst.c_str());
        out.error = std::move(why);
        return out;
    };
    std::unique_ptr<archive, ArchiveFree> a(archive_read_new());
    if (!a)
        return fail("cannot start the decompressor");
    archive_read_support_filter_all(a.get());
    archive_read_support_format_raw(a.get());
    if (archive_read_open_filename(a.get(), src.c_str(), 64 * 1024) != ARCHIVE_OK)
        return fail("cannot decompress: " + errorOf(a.get()));
    archive_entry* entry = nullptr;
    if (archive_read_next_header(a.get(), &entry) != ARCHIVE_OK)
        return fail("cannot decompress: " + errorOf(a.get()));
    const int fd = ::open(dst.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return fail(std::string("cannot create the decompressed copy: ") + std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    std::array<char, 64 * 1024> buf;
    for (;;) {
        const la_ssize_t n = archive_read_data(a.get(), buf.data(), buf.size());
        if (n == 0)
            break;
        if (n < 0)
            return fail("truncated or corrupt compressed data after " + std::to_string(out.size) + " bytes: "
                        + errorOf(a.get()));
        if (out.size + uint64_t(n) > maxBytes)
            return fail("expands past the per-file limit of " + std::to_string(maxBytes) + " bytes: not read");
        const char* p = buf.data();
        size_t left = size_t(n);
        while (left > 0) {
            const ssize_t w = ::write(fd, p, left);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                return fail(std::string("cannot write the decompressed copy: ") + std::strerror(errno));
            p += w;
            left -= size_t(w);
        }
        out.size += uint64_t(n);
    }
    return out;
}

} // namespace fl

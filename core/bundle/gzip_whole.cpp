#include "bundle/gzip_whole.h"
#include "bundle/mapped_file.h"

#include <libdeflate.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace fl {

namespace {

struct DecompressorFree {
    void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};

// gzip's smallest member: 10-byte header, an empty deflate block, 8-byte trailer.
constexpr size_t kMinGzip = 18;

// Buffers given back are kept for the next archive, a few and up to a size: the allocator maps a buffer this
// large afresh each time and unmaps it on release, and touching 20 MB of new pages cost 53 ms on the
// project's VM (page faults), against 6 ms for the inflate itself. A service expanding one upload after
// another reuses them.
class BufferPool {
public:
    static BufferPool& instance()
    {
        static BufferPool pool;
        return pool;
    }

    char* take(size_t size, size_t& capacity)
    {
        {
            std::lock_guard lock(m_mutex);
            auto best = m_free.end();
            for (auto it = m_free.begin(); it != m_free.end(); ++it)
                if (it->second >= size && (best == m_free.end() || it->second < best->second))
                    best = it;
            if (best != m_free.end()) {
                char* p = best->first;
                capacity = best->second;
                m_free.erase(best);
                return p;
            }
        }
        capacity = size;
        return new (std::nothrow) char[size];
    }

    void give(char* p, size_t capacity)
    {
        {
            std::lock_guard lock(m_mutex);
            if (capacity <= kKeepBytes && m_free.size() < kKeep) {
                m_free.emplace_back(p, capacity);
                return;
            }
        }
        delete[] p;
    }

    ~BufferPool()
    {
        for (auto& [p, capacity] : m_free)
            delete[] p;
    }

private:
    static constexpr size_t kKeep = 2;                       // one per service worker on the 2-core target
    static constexpr size_t kKeepBytes = size_t(64) << 20;   // larger ones go back to the system
    std::mutex m_mutex;
    std::vector<std::pair<char*, size_t>> m_free;
};

} // namespace

void PooledBufferReturn::operator()(char* p) const { BufferPool::instance().give(p, capacity); }

std::optional<WholeGzip> inflateWholeGzip(const std::string& path, uint64_t maxBytes)
{
    // Mapped rather than read into a buffer: a fresh buffer's pages are what cost (see WholeGzip).
    MappedFile file;
    if (!file.open(path, nullptr, MappedFile::Strategy::Map))
        return std::nullopt;
    const std::string_view bytes = file.data();
    const auto* in = reinterpret_cast<const unsigned char*>(bytes.data());
    const size_t n = bytes.size();
    // A compressed file larger than what it may expand to cannot be one member of a sane stream.
    if (n < kMinGzip || n > maxBytes || in[0] != 0x1f || in[1] != 0x8b)
        return std::nullopt;
    // ISIZE: the expanded size modulo 2^32, as the writer claims it; the decode below must reach it exactly.
    const uint64_t stated = uint64_t(in[n - 4]) | uint64_t(in[n - 3]) << 8 | uint64_t(in[n - 2]) << 16 |
                            uint64_t(in[n - 1]) << 24;
    if (stated == 0 || stated > maxBytes)
        return std::nullopt;
    std::unique_ptr<libdeflate_decompressor, DecompressorFree> d(libdeflate_alloc_decompressor());
    if (!d)
        return std::nullopt;
    WholeGzip out;
    size_t capacity = 0;
    char* buffer = BufferPool::instance().take(static_cast<size_t>(stated), capacity);
    if (!buffer)
        return std::nullopt;
    out.bytes = std::shared_ptr<char[]>(buffer, PooledBufferReturn{capacity});
    out.size = static_cast<size_t>(stated);
    size_t usedIn = 0, produced = 0;
    const libdeflate_result r =
        libdeflate_gzip_decompress_ex(d.get(), in, n, out.bytes.get(), out.size, &usedIn, &produced);
    // libdeflate checks the CRC-32 and ISIZE itself; a second member or trailing bytes leave input unused.
    // A file changed while mapped is left to the streaming reader, which reports it.
    if (r != LIBDEFLATE_SUCCESS || usedIn != n || produced != stated || file.changed())
        return std::nullopt;
    return out;
}

} // namespace fl

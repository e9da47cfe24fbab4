// Archive members are extracted to numbered files in a private folder rather
// than to their own names: names come from the archive and are hostile, and
// duplicates or file/folder clashes ("a" and "a/b") must not overwrite anything.
#include "bundle/bundle_entry.h"
#include "bundle/decompress.h"
#include "bundle/gzip_whole.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

#include <fcntl.h>
#include <unistd.h>

namespace fl {

namespace {

struct ArchiveCloser {
    void operator()(archive* a) const { archive_read_free(a); }
};

struct Fd {
    int fd = -1;
    ~Fd()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

std::string archiveError(archive* a)
{
    const char* msg = archive_error_string(a);
    return msg && *msg ? msg : "unknown archive error";
}

// Control bytes in member names would corrupt every listing that shows them.
std::string printable(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (char c : s)
        out.push_back(static_cast<unsigned char>(c) < 0x20 || c == 0x7F ? '?' : c);
    return out;
}


std::string diskName(uint64_t n, std::string_view path)
{
    std::string base(path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1));
    for (char& c : base)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_'))
            c = '_';
    if (base.size() > 80)
        base.resize(80);
    char num[24];
    std::snprintf(num, sizeof num, "%08llu-", static_cast<unsigned long long>(n));
    return num + base;
}

std::string bytes(uint64_t n) { return std::to_string(n) + " bytes"; }

class Extractor {
public:
    Extractor(const std::string& archivePath, const std::string& destDir, const LoadOptions& options,
              const Progress& progress)
        : m_archivePath(archivePath), m_dest(destDir), m_options(options), m_progress(progress)
    {
        std::error_code ec;
        m_archiveSize = std::filesystem::file_size(archivePath, ec);
    }

    EntryList run()
    {
        if (m_archiveSize == 0)
            throw BundleError(m_archivePath, "empty file: not a folder or an archive");
        m_whole = inflateWholeGzip(m_archivePath, std::min(kWholeGzipMaxBytes, m_options.maxTotalBytes));
        if (!m_whole || !openReader())
            openStreaming();

        uint32_t headers = 0;
        for (;;) {
            if (m_progress.cancelled()) {
                warn("loading cancelled after " + std::to_string(headers) + " entries");
                break;
            }
            archive_entry* entry = nullptr;
            int r = archive_read_next_header(m_a.get(), &entry);
            if (r < ARCHIVE_WARN && headers == 0 && m_whole) {
                // Not an archive inside the gzip: the streaming reader says so in its own words.
                openStreaming();
                r = archive_read_next_header(m_a.get(), &entry);
            }
            if (r == ARCHIVE_EOF)
                break;
            if (r < ARCHIVE_WARN) {
                if (headers == 0)
                    throw BundleError(m_archivePath, "not a folder or a readable archive: " + archiveError(m_a.get()));
                warn("archive is truncated or corrupt after " + std::to_string(headers) + " entries"
                     + (m_lastName.empty() ? std::string() : " (last: '" + m_lastName + "')") + ": "
                     + archiveError(m_a.get()) + "; the entries before it were kept");
                break;
            }
            if (r == ARCHIVE_WARN && !m_warnedOnce) {
                m_warnedOnce = true;
                warn("archive reader warning: " + archiveError(m_a.get()));
            }
            ++headers;
            if (!entryStep(entry, headers))
                break;
            m_progress("load", readSoFar(), m_archiveSize);
        }
        return std::move(m_out);
    }

private:
    // Larger gzip archives stream: expanding one whole holds its tar in memory besides the members.
    static constexpr uint64_t kWholeGzipMaxBytes = 128ull << 20;

    void warn(const std::string& what) { m_out.warnings.push_back(m_archivePath + ": " + what); }

    // A reader of the whole expanded gzip (m_whole) when there is one, else of the file; false if it fails.
    bool openReader()
    {
        m_a.reset(archive_read_new());
        if (!m_a)
            throw BundleError(m_archivePath, "cannot start the archive reader");
        archive_read_support_filter_all(m_a.get());
        archive_read_support_format_all(m_a.get());
        return m_whole ? archive_read_open_memory(m_a.get(), m_whole->data(), m_whole->size) == ARCHIVE_OK
                       : archive_read_open_filename(m_a.get(), m_archivePath.c_str(), 64 * 1024) == ARCHIVE_OK;
    }

    void openStreaming()
    {
        m_a.reset(); // frees the reader of m_whole before m_whole goes
        m_whole.reset();
        if (!openReader())
            throw BundleError(m_archivePath, "not a folder or a readable archive: " + archiveError(m_a.get()));
    }

    // Of the archive file's bytes: an archive expanded whole is read in its expanded bytes, scaled back.
    uint64_t readSoFar() const
    {
        const auto read = static_cast<uint64_t>(std::max<la_int64_t>(0, archive_filter_bytes(m_a.get(), -1)));
        if (!m_whole)
            return read;
        return static_cast<uint64_t>(double(read) / double(m_whole->size) * double(m_archiveSize));
    }

    void add(std::string path, std::string disk, uint64_t size, FileStatus status, std::string reason)
    {
        m_out.add(std::move(path), std::move(disk), size, status, std::move(reason));
    }

    // Returns false to stop expanding the archive.
    bool entryStep(archive_entry* entry, uint32_t headers)
    {
        const char* rawName = archive_entry_pathname(entry);
        if (!rawName)
            rawName = archive_entry_pathname_utf8(entry);
        const std::string raw = rawName ? rawName : "";
        const CleanPath clean = cleanEntryPath(raw);
        const std::string shown = clean.path.empty() ? (raw.empty() ? "(entry " + std::to_string(headers) + ")" : printable(raw))
                                                     : clean.path;
        m_lastName = shown;
        const auto type = archive_entry_filetype(entry);

        if (headers > m_options.maxEntries) {
            add(shown, {}, 0, FileStatus::Error,
                "entry limit of " + std::to_string(m_options.maxEntries) + " reached: not extracted");
            warn("stopped expanding at entry " + std::to_string(headers) + ": more than "
                 + std::to_string(m_options.maxEntries) + " entries (limit)");
            return false;
        }
        if (type == AE_IFDIR && !archive_entry_hardlink(entry))
            return true; // folders come back implicitly through the file paths
        if (const char* link = archive_entry_hardlink(entry)) {
            add(shown, {}, 0, FileStatus::Error, "hard link entry (to '" + printable(link) + "') refused: not extracted");
            return true;
        }
        if (type == AE_IFLNK) {
            const char* target = archive_entry_symlink(entry);
            add(shown, {}, 0, FileStatus::Error,
                "symbolic link entry (to '" + printable(target ? target : "") + "') refused: not extracted");
            return true;
        }
        if (!clean.refusal.empty()) {
            add(shown, {}, 0, FileStatus::Error, clean.refusal);
            m_out.entries.back().escaped = true;
            return true;
        }
        if (type != AE_IFREG) {
            add(shown, {}, 0, FileStatus::Error, "not a regular file entry: not extracted");
            return true;
        }
        const bool sizeKnown = archive_entry_size_is_set(entry) != 0;
        const auto declared = sizeKnown && archive_entry_size(entry) > 0 ? static_cast<uint64_t>(archive_entry_size(entry)) : 0;
        if (declared > m_options.maxEntryBytes) {
            add(shown, {}, declared, FileStatus::Error,
                "entry of " + bytes(declared) + " exceeds the per-entry limit of " + bytes(m_options.maxEntryBytes)
                    + ": not extracted");
            // Skipping still inflates the data, so it counts against the total budget.
            return charge(declared, shown);
        }
        if (m_total + declared > m_options.maxTotalBytes) {
            add(shown, {}, declared, FileStatus::Error,
                "expanding this entry would pass the total limit of " + bytes(m_options.maxTotalBytes) + ": not extracted");
            warn("stopped expanding at '" + shown + "': total size limit of " + bytes(m_options.maxTotalBytes) + " reached");
            return false;
        }
        if (!extractData(shown, declared))
            return false;
        // The extracted copy's own mtime is now; the member's says when the log was written.
        if (archive_entry_mtime_is_set(entry) && archive_entry_mtime(entry) > 0) {
            int64_t ns = 0;
            if (!__builtin_mul_overflow(int64_t(archive_entry_mtime(entry)), int64_t(1'000'000'000), &ns))
                m_out.entries.back().mtimeNs = ns + archive_entry_mtime_nsec(entry);
        }
        return true;
    }

    bool charge(uint64_t n, const std::string& shown)
    {
        m_total += n;
        if (m_total <= m_options.maxTotalBytes)
            return true;
        warn("stopped expanding after '" + shown + "': total size limit of " + bytes(m_options.maxTotalBytes) + " reached");
        return false;
    }

    // The loader tells a compressed member by the magic in its first bytes (probeEntry) and expands it from a
    // file, so such a member is never kept in memory.
    static constexpr size_t kMagicBytes = 16;
    static bool isCompressed(std::string_view head) { return !compressionOf(head.substr(0, kMagicBytes)).empty(); }

    // Where a member's bytes go: memory while the budget (LoadOptions::memoryBytes) lasts, else a numbered
    // file in the extraction folder. A member that outgrows the budget, or turns out to be compressed (it is
    // expanded later from a file), moves to disk with what it had so far.
    class Sink {
    public:
        Sink(std::string disk, uint64_t memoryLeft, uint64_t declared)
            : m_disk(std::move(disk)), m_memoryLeft(memoryLeft), m_inMemory(memoryLeft > 0 && declared <= memoryLeft)
        {
            if (m_inMemory)
                m_bytes.reserve(static_cast<size_t>(declared));
        }

        // What went wrong: the extracted copy could not be "create"d or "write"n, and the system's reason.
        struct Failure {
            std::string action, reason;
            explicit operator bool() const { return !action.empty(); }
        };

        // Opens the file now when the member goes to disk.
        Failure start() { return m_inMemory ? Failure{} : openFile(); }

        Failure write(const char* p, size_t size, uint64_t at)
        {
            if (m_inMemory && at + size > m_memoryLeft)
                if (auto f = toDisk())
                    return f;
            if (!m_inMemory)
                return writeAt(p, size, at);
            if (at == m_bytes.size()) { // the usual case: appended, not zeroed first
                m_bytes.append(p, size);
            } else {
                if (m_bytes.size() < at + size)
                    m_bytes.resize(static_cast<size_t>(at + size)); // a hole of a sparse member reads as zeros
                std::memcpy(m_bytes.data() + at, p, size);
            }
            return m_bytes.size() >= kMagicBytes ? sniff() : Failure{};
        }

        // Gives a sparse member ending in a hole its full length.
        Failure finish(uint64_t end)
        {
            if (!m_inMemory) {
                if (m_fd.fd >= 0 && end > 0 && ::ftruncate(m_fd.fd, static_cast<off_t>(end)) != 0) {
                    // Nothing to do: the bytes written are still there.
                }
                return {};
            }
            if (m_bytes.size() < end)
                m_bytes.resize(static_cast<size_t>(end));
            return sniff();
        }

        void discard()
        {
            if (!m_inMemory && m_fd.fd >= 0)
                ::unlink(m_disk.c_str());
            m_bytes = {};
        }

        bool inMemory() const { return m_inMemory; }
        const std::string& disk() const { return m_disk; }
        std::string takeBytes() { return std::move(m_bytes); }

    private:
        // A compressed member goes to disk (isCompressed), once its first bytes are in (or it ended before them).
        Failure sniff()
        {
            if (m_sniffed)
                return {};
            m_sniffed = true;
            return isCompressed(m_bytes) ? toDisk() : Failure{};
        }

        Failure openFile()
        {
            m_fd.fd = ::open(m_disk.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            return m_fd.fd < 0 ? Failure{"create", std::strerror(errno)} : Failure{};
        }

        Failure toDisk()
        {
            m_inMemory = false;
            if (auto f = openFile())
                return f;
            std::string held = std::move(m_bytes);
            m_bytes = {};
            return writeAt(held.data(), held.size(), 0);
        }

        Failure writeAt(const char* p, size_t left, uint64_t offset)
        {
            auto at = static_cast<off_t>(offset);
            while (left > 0) {
                const ssize_t n = ::pwrite(m_fd.fd, p, left, at);
                if (n < 0 && errno == EINTR)
                    continue;
                if (n <= 0)
                    return {"write", n < 0 ? std::strerror(errno) : "short write"};
                p += n;
                left -= static_cast<size_t>(n);
                at += n;
            }
            return {};
        }

        std::string m_disk;
        uint64_t m_memoryLeft;
        bool m_inMemory;
        bool m_sniffed = false;
        std::string m_bytes;
        Fd m_fd;
    };

    struct Block {
        int status = ARCHIVE_OK;
        const void* buf = nullptr;
        size_t size = 0;
        la_int64_t offset = 0;
    };

    Block readBlock()
    {
        Block b;
        b.status = archive_read_data_block(m_a.get(), &b.buf, &b.size, &b.offset);
        return b;
    }

    // Whether the tar expanded whole holds this block; libarchive hands out a member of it as one such block.
    bool inWhole(const Block& b) const
    {
        if (!m_whole || b.status != ARCHIVE_OK || !b.buf)
            return false;
        const auto p = reinterpret_cast<uintptr_t>(b.buf), base = reinterpret_cast<uintptr_t>(m_whole->data());
        return p >= base && p - base <= m_whole->size && b.size <= m_whole->size - (p - base);
    }

    // A member of a tar expanded whole, left where it lies as a view that keeps the buffer alive, instead of
    // copied out. Only when the budget would have kept the member in memory and holds the whole buffer, and
    // the member is plain (not compressed inside: those are expanded later from a file). `first` and `next`
    // are the member's first two reads; true when the member is now kept.
    bool keepAsView(const std::string& shown, uint64_t declared, const Block& first, const Block& next)
    {
        if (declared == 0 || first.offset != 0 || first.size != declared || next.status != ARCHIVE_EOF ||
            !inWhole(first) || declared > m_memoryLeft || m_whole->size > m_options.memoryBytes)
            return false;
        const std::string_view bytes(static_cast<const char*>(first.buf), first.size);
        if (isCompressed(bytes))
            return false;
        m_total += declared;
        addInMemory(shown, holdView(m_whole->bytes, bytes), FileStatus::Ok, {});
        return true;
    }

    bool extractData(const std::string& shown, uint64_t declared)
    {
        // Reads ahead of the copy loop stay valid only inside the whole buffer.
        Block ahead[2];
        size_t queued = 0, taken = 0;
        ahead[queued++] = readBlock();
        if (inWhole(ahead[0])) {
            ahead[queued++] = readBlock();
            if (keepAsView(shown, declared, ahead[0], ahead[1]))
                return true;
        }
        Sink sink((std::filesystem::path(m_dest) / diskName(m_out.entries.size(), shown)).string(), m_memoryLeft, declared);
        auto cannotWrite = [&](const Sink::Failure& f) {
            sink.discard();
            add(shown, {}, 0, FileStatus::Error, "cannot " + f.action + " the extracted copy: " + f.reason);
            warn("stopped expanding: cannot write into " + m_dest + ": " + f.reason);
            return false;
        };
        if (auto f = sink.start())
            return cannotWrite(f);
        uint64_t end = 0;
        for (;;) {
            const auto [r, buf, size, offset] = taken < queued ? ahead[taken++] : readBlock();
            if (r == ARCHIVE_EOF)
                break;
            if (r < ARCHIVE_WARN) {
                if (auto f = sink.finish(end))
                    return cannotWrite(f);
                addKept(shown, sink, end, FileStatus::Error,
                        "truncated: the archive breaks off inside this entry after " + bytes(end) + " ("
                            + archiveError(m_a.get()) + ")");
                warn("archive is truncated or corrupt inside '" + shown + "' after " + std::to_string(m_out.entries.size() - 1)
                     + " complete entries: " + archiveError(m_a.get()) + "; the entries before it were kept");
                return false;
            }
            const uint64_t blockEnd = static_cast<uint64_t>(offset) + size;
            if (blockEnd > m_options.maxEntryBytes || m_total + blockEnd > m_options.maxTotalBytes) {
                sink.discard();
                const bool entryLimit = blockEnd > m_options.maxEntryBytes;
                add(shown, {}, blockEnd, FileStatus::Error,
                    entryLimit ? "entry grows past the per-entry limit of " + bytes(m_options.maxEntryBytes) + ": not extracted"
                               : "expanding this entry would pass the total limit of " + bytes(m_options.maxTotalBytes)
                                   + ": not extracted");
                if (!entryLimit) {
                    warn("stopped expanding at '" + shown + "': total size limit of " + bytes(m_options.maxTotalBytes) + " reached");
                    return false;
                }
                return charge(blockEnd, shown);
            }
            if (auto f = sink.write(static_cast<const char*>(buf), size, static_cast<uint64_t>(offset)))
                return cannotWrite(f);
            end = std::max(end, blockEnd);
        }
        if (auto f = sink.finish(end))
            return cannotWrite(f);
        m_total += end;
        addKept(shown, sink, end, FileStatus::Ok, {});
        return true;
    }

    // The member's bytes, in memory (charged to the budget) or in its file.
    void addKept(const std::string& shown, Sink& sink, uint64_t size, FileStatus status, std::string reason)
    {
        if (!sink.inMemory()) {
            add(shown, sink.disk(), size, status, std::move(reason));
            return;
        }
        addInMemory(shown, holdCopy(sink.takeBytes()), status, std::move(reason));
    }

    // A member whose bytes are in memory, charged to the budget.
    void addInMemory(const std::string& shown, HeldBytes bytes, FileStatus status, std::string reason)
    {
        const uint64_t size = bytes->size();
        m_memoryLeft -= std::min(m_memoryLeft, size);
        add(shown, {}, size, status, std::move(reason));
        m_out.entries.back().memory = std::move(bytes);
    }

    std::string m_archivePath;
    std::string m_dest;
    const LoadOptions& m_options;
    const Progress& m_progress;
    std::optional<WholeGzip> m_whole; // declared before m_a: the reader reads it until freed
    std::unique_ptr<archive, ArchiveCloser> m_a;
    uint64_t m_archiveSize = 0;
    uint64_t m_total = 0;
    uint64_t m_memoryLeft = m_options.memoryBytes;
    std::string m_lastName;
    bool m_warnedOnce = false;
    EntryList m_out;
};

} // namespace

CleanPath cleanEntryPath(std::string_view raw)
{
    if (raw.empty())
        return {{}, "entry without a name: not extracted"};
    if (raw.front() == '/' || raw.front() == '\\' || (raw.size() > 1 && raw[1] == ':'))
        return {{}, "absolute path escapes the bundle: not extracted"};
    std::string out;
    size_t start = 0;
    for (size_t i = 0; i <= raw.size(); ++i) {
        if (i < raw.size() && raw[i] != '/' && raw[i] != '\\')
            continue;
        const std::string_view part = raw.substr(start, i - start);
        start = i + 1;
        if (part.empty() || part == ".")
            continue;
        if (part == "..")
            return {{}, "'..' in the path escapes the bundle: not extracted"};
        if (!out.empty())
            out.push_back('/');
        out += printable(part);
    }
    if (out.empty())
        return {{}, "entry name has no file part: not extracted"};
    return {out, {}};
}

EntryList extractArchive(const std::string& archivePath, const std::string& destDir, const LoadOptions& options,
                         const Progress& progress)
{
    return Extractor(archivePath, destDir, options, progress).run();
}

} // namespace fl

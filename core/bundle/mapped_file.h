// Read-only view of one evidence file. Big logs are never copied into
// strings; observations keep byte offsets into these views instead.
//
// Two strategies, as ripgrep's searcher weighs them (crates/searcher/src/
// searcher/mmap.rs: mmap is an optional strategy, "not always faster", and
// "if the file is truncated while mapped, SIGBUS"): small files are read()
// into memory (cheaper than a map, and immune to truncation); larger ones are
// mapped, and a map that could not be made falls back to read(). Unlike
// ripgrep we keep mapping large files because views and excerpts hold many of
// them at once; instead of accepting the SIGBUS risk, a process-wide SIGBUS
// guard replaces the vanished pages of a truncated file with zero pages and
// marks the view `changed()`, which callers report as a per-file error.
#pragma once

#include "held_bytes.h"

#include <cstdint>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace fl {

class MappedFile {
public:
    enum class Strategy : uint8_t { Auto, Read, Map };

    MappedFile() = default;
    ~MappedFile();
    MappedFile(MappedFile&&) noexcept;
    MappedFile& operator=(MappedFile&&) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    // Returns false and fills `error` ("cannot open: Permission denied") on failure.
    // A zero-length file opens successfully as an empty view.
    [[nodiscard]] bool open(const std::string& path, std::string* error, Strategy = Strategy::Auto);
    // Reads at most `maxBytes` from the start, never maps: what a classifier
    // needs of a file it does not parse yet. fileSize() is the whole file's.
    [[nodiscard]] bool openHead(const std::string& path, std::string* error, size_t maxBytes);
    // A view of bytes already in memory (an archive member the loader kept, SourceFile::memory): at most
    // `maxBytes` of them, kept alive while the view is. Never changed(); modifiedNs() unknown.
    void openMemory(HeldBytes bytes, size_t maxBytes = SIZE_MAX);
    std::string_view data() const { return {m_addr, m_size}; }
    bool isOpen() const { return m_open; }
    bool isMapped() const { return m_slot >= 0; }
    // Size of the file at open (data() may hold less: openHead).
    uint64_t fileSize() const { return m_fileSize; }
    // Modification time at open, ns since the epoch (kNoTime-like INT64_MIN if unknown).
    int64_t modifiedNs() const { return m_modifiedNs; }

    // True when the file was truncated or replaced while this view was in use:
    // a read() came back short, a mapped page vanished (zeros stand in for it),
    // or the file on disk is no longer the size and identity it had at open.
    // The bytes of data() are then not the file's: callers report the file.
    bool changed() const;
    // Human-readable reason for changed(), naming sizes.
    std::string changeReason() const;

    // Small files are read, larger ones mapped (see above).
    static constexpr size_t kReadBelowBytes = 1u << 20;

private:
    void reset() noexcept;
    bool openUpTo(const std::string& path, std::string* error, Strategy strategy, size_t maxBytes);

    const char* m_addr = nullptr;
    size_t m_size = 0;
    bool m_open = false;
    int m_slot = -1;                 // SIGBUS guard slot of a mapping
    bool m_shortRead = false;
    std::unique_ptr<char[]> m_buffer; // read() strategy
    HeldBytes m_memory; // openMemory
    std::string m_path;
    uint64_t m_dev = 0, m_ino = 0;
    int64_t m_modifiedNs = INT64_MIN;
    uint64_t m_fileSize = 0;
};

struct SourceFile;
// Opens a bundle file's bytes, from memory or from disk; false with `error` filled when they cannot be read.
[[nodiscard]] bool openSource(MappedFile& map, const SourceFile& file, std::string* error);

} // namespace fl

#include "archive_member.h"

#include "bundle/bundle_entry.h"
#include "bundle/decompress.h"

#include <archive.h>
#include <archive_entry.h>

#include <map>
#include <memory>
#include <string_view>

namespace fl::service {

namespace {

struct ReadFree {
    void operator()(archive* a) const { archive_read_free(a); }
};


} // namespace

std::optional<std::string> readArchiveMember(const std::string& archiveBytes, const std::string& path,
                                             uint64_t expectedSize)
{
    std::unique_ptr<archive, ReadFree> a(archive_read_new());
    if (!a)
        return std::nullopt;
    archive_read_support_filter_all(a.get());
    archive_read_support_format_all(a.get());
    if (archive_read_open_memory(a.get(), archiveBytes.data(), archiveBytes.size()) != ARCHIVE_OK)
        return std::nullopt;
    // The loader drops a top folder every named entry shares; which one that is shows only at the end, so
    // the bytes of both readings are kept: `path` itself, and `path` under some single top folder.
    struct Seen {
        bool usable = false; // a regular file the loader extracts; else it refuses the name's last entry
        std::string bytes;
    };
    std::optional<Seen> plain;
    std::map<std::string, Seen> underTop;
    CommonTopFolder common;
    archive_entry* entry = nullptr;
    for (;;) {
        const int r = archive_read_next_header(a.get(), &entry);
        if (r == ARCHIVE_EOF)
            break;
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
            return std::nullopt;
        const auto type = archive_entry_filetype(entry);
        if (type == AE_IFDIR && !archive_entry_hardlink(entry))
            continue; // the loader lists no folders
        const char* rawName = archive_entry_pathname(entry);
        if (!rawName)
            rawName = archive_entry_pathname_utf8(entry);
        const CleanPath cleaned = cleanEntryPath(rawName ? rawName : "");
        if (cleaned.path.empty())
            continue; // refused by the loader, and not counted for the top folder
        const std::string& clean = cleaned.path;
        common.add(clean);
        const size_t slash = clean.find('/');
        const bool isPlain = clean == path;
        const bool isUnder = slash != std::string::npos && clean.compare(slash + 1, std::string::npos, path) == 0;
        if (!isPlain && !isUnder)
            continue;
        Seen seen;
        if (type == AE_IFREG && !archive_entry_hardlink(entry)) {
            seen.usable = true;
            const void* buf = nullptr;
            size_t size = 0;
            la_int64_t offset = 0;
            for (;;) {
                const int d = archive_read_data_block(a.get(), &buf, &size, &offset);
                if (d == ARCHIVE_EOF)
                    break;
                if (d != ARCHIVE_OK && d != ARCHIVE_WARN)
                    return std::nullopt;
                if (offset < 0 || static_cast<uint64_t>(offset) + size > expectedSize)
                    return std::nullopt; // larger than the file the loader gave: not this reading's to decide
                if (seen.bytes.size() < static_cast<size_t>(offset))
                    seen.bytes.resize(static_cast<size_t>(offset), '\0'); // a sparse hole
                seen.bytes.append(static_cast<const char*>(buf), size);
            }
        }
        if (isPlain)
            plain = std::move(seen);
        else
            underTop[clean.substr(0, slash)] = std::move(seen);
    }
    std::optional<Seen> found;
    if (const std::string_view top = common.folder(); !top.empty()) {
        if (auto it = underTop.find(std::string(top)); it != underTop.end())
            found = std::move(it->second);
    } else {
        found = std::move(plain);
    }
    if (!found || !found->usable || found->bytes.size() != expectedSize || !compressionOf(found->bytes).empty())
        return std::nullopt;
    return std::move(found->bytes);
}

} // namespace fl::service

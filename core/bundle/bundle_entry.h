// What the folder walk and the archive reader hand to the loader: a file of
// the bundle before it is probed and classified.
#pragma once

#include "bundle/bundle.h"
#include "held_bytes.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fl {

struct BundleEntry {
    std::string path;        // bundle path, '/'-separated
    std::string diskPath;    // empty when no bytes were kept, or they are in `memory`
    HeldBytes memory;        // LoadOptions::memoryBytes
    uint64_t size = 0;
    FileStatus status = FileStatus::Ok;  // preset for refused entries
    std::string reason;
    uint64_t order = 0;      // discovery order; breaks ties between equal paths
    bool escaped = false;    // archive name pointed outside the bundle; path is the raw name
    int64_t mtimeNs = kNoTime; // archive member time; folder files take theirs from the file
};

struct EntryList {
    std::vector<BundleEntry> entries;
    std::vector<std::string> warnings;

    // Records a file in discovery order (ties between equal paths keep it).
    void add(std::string path, std::string disk, uint64_t size, FileStatus status, std::string reason)
    {
        BundleEntry e;
        e.path = std::move(path);
        e.diskPath = std::move(disk);
        e.size = size;
        e.status = status;
        e.reason = std::move(reason);
        e.order = entries.size();
        entries.push_back(std::move(e));
    }
};

// Walks a folder (regular files only, symlinks never followed out of it).
// Throws BundleError when the root itself cannot be read.
EntryList walkFolder(const std::string& root, const LoadOptions&, const Progress&);

// An archive member's name as the bundle lists it: '/' or '\\' separated, '.'
// and empty parts dropped, control bytes shown as '?'. Absolute names and '..'
// escape the bundle and are refused (empty `path`, `refusal` says why).
struct CleanPath {
    std::string path;
    std::string refusal;
};
CleanPath cleanEntryPath(std::string_view raw);

// "bundle/a.log", "bundle/b/c.log" -> "a.log", "b/c.log": archives are usually made of one folder, and its
// name says nothing about the evidence. Fed the bundle's names one at a time (cleaned, refused ones left
// out), says which top folder every one of them shares, if any: the loader drops it, and the service's
// member reader must find a file by the name the loader gave it.
class CommonTopFolder {
public:
    void add(std::string_view path)
    {
        const size_t slash = path.find('/');
        if (slash == std::string_view::npos || slash + 1 == path.size()) {
            shared_ = false;
        } else if (!any_) {
            top_ = path.substr(0, slash);
            any_ = true;
        } else if (path.substr(0, slash) != top_) {
            shared_ = false;
        }
    }
    // The folder every name added so far lies in; "" when they do not share one (or none was added).
    std::string_view folder() const { return any_ && shared_ ? std::string_view(top_) : std::string_view(); }

private:
    std::string top_;
    bool any_ = false, shared_ = true;
};

// Extracts a .tar/.tar.gz/.tar.zst/.zip (anything libarchive reads) into
// `destDir`. Throws BundleError when `archive` is not a readable archive.
EntryList extractArchive(const std::string& archive, const std::string& destDir, const LoadOptions&, const Progress&);

} // namespace fl

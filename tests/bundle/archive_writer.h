// Builds test archives with libarchive's writer, so no archive is ever committed.
#pragma once

#include <string>
#include <vector>

namespace fltest {

struct ArchiveItem {
    enum class Type { File, Dir, Symlink, Hardlink };
    std::string name;
    std::string content;  // file bytes, or the link target
    Type type = Type::File;
};

enum class ArchiveFormat { Tar, TarGz, TarZst, Zip };

// Returns an empty string on success, else libarchive's message.
std::string writeArchive(const std::string& path, ArchiveFormat format, const std::vector<ArchiveItem>& items);

} // namespace fltest

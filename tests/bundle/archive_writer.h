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

// One file's bytes compressed as a single stream ("gzip", "xz", "zstd", "bzip2"), as logrotate writes them.
std::string compressed(const std::string& bytes, const std::string& filter);

} // namespace fltest

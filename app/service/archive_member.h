// One member of a stored archive, read straight from its bytes in memory: for an evidence request, where
// expanding the whole archive to disk with the loader (what attribution does) cost ~0.4 s of CPU for the
// bench's 709-member archive, mostly creating and deleting files; this decompresses it once and keeps
// only the member asked for (~0.07 s).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace fl::service {

// The bytes the loader gives bundle path `path` of this archive, if this reading can be sure of them:
// member names cleaned as the loader cleans them, its common top folder dropped as the loader drops it,
// the last of equal names winning, and exactly `expectedSize` bytes that are not themselves compressed
// (the loader expands those). Nullopt when any of that does not hold or the archive is unreadable: the
// caller then asks the loader.
std::optional<std::string> readArchiveMember(const std::string& archiveBytes, const std::string& path,
                                             uint64_t expectedSize);

} // namespace fl::service

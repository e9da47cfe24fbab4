// A workload bundle: the evidence of one failed workload attempt, as a folder
// or an archive. Loading lists and classifies files; it does not parse lines.
#pragma once

#include "model.h"
#include "progress.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace fl {

struct RankPlacement {
    std::string node;
    int gpu = -1;
    std::string pci;     // "0000:41:00": lets kernel-log events (which name PCI) find GPU and rank
};

// Optional workload.json at the bundle root (see docs/bundle-format.md).
struct Manifest {
    std::string workloadId;
    int attempt = -1;
    std::string scheduler;               // slurm | kubernetes | ...
    std::vector<std::string> nodes;
    std::map<int, RankPlacement> ranks;  // rank -> node/GPU
    int64_t windowStartNs = kNoTime;
    int64_t windowEndNs = kNoTime;
    int64_t detectedAtNs = kNoTime;
    std::string detectionSignal;
    std::map<std::string, int> exitCodes; // "rank3" / node -> code
    std::map<std::string, int64_t> bootTimesNs; // node -> boot time, for dmesg offsets
    int timezoneOffsetSec = 0;           // zone of timestamps printed without one
};

// Thrown only for unusable input: the path does not exist, is not a folder or
// a readable archive, or the manifest is invalid JSON. Names the file.
struct BundleError : std::runtime_error {
    BundleError(std::string file, std::string message);
    std::string file;
};

class ExtractionDir; // removes extracted archive contents when the last Bundle copy dies

struct Bundle {
    std::string root;                    // what the user passed
    bool isArchive = false;
    std::vector<SourceFile> files;       // sorted by path; index == position
    std::optional<Manifest> manifest;
    std::vector<std::string> warnings;   // bundle-level problems ("archive truncated after 12 entries")
    std::shared_ptr<ExtractionDir> extraction;
};

struct LoadOptions {
    uint64_t maxEntryBytes = 64ull << 30;   // one archive entry
    uint64_t maxTotalBytes = 256ull << 30;  // whole archive, expanded
    uint32_t maxEntries = 2'000'000;
    // Archive members are kept in memory, not written to the extraction folder, while their expanded
    // total stays within this (0: every member goes to disk). Writing a member out and reading it back
    // was a fifth of the service's CPU per analysis (docs/performance.md); a member that would pass the
    // budget, and compressed members (expanded later from a file), still go to disk.
    uint64_t memoryBytes = 0;
    // Threads that classify a folder's files (0: one per core; core/workers.h).
    unsigned threads = 0;
};

Bundle loadBundle(const std::string& path, const LoadOptions& = {}, const Progress& = {});

// Parses a manifest document; throws BundleError(fileName, "line:col: message").
Manifest parseManifest(std::string_view json, const std::string& fileName);

// Decides kind, node and rank of one file from its bundle path and the first
// bytes of its content; fills the *Reason fields. Exposed for tests.
void classifyFile(SourceFile& file, std::string_view head);

} // namespace fl

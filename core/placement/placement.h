// PLACEMENT: one map node <-> GPU index <-> PCI address <-> local rank <->
// global rank, built from every source in the bundle (file names, launcher
// prefixes, PyTorch's own rank labels, NCCL's init lines, kernel Xid lines
// that name a pid, the manifest), each entry with the evidence that
// established it. Disagreements are kept as conflicts, never silently merged.
// Qt-free; runs between EXTRACT and the rule phases.
#pragma once

#include "bundle/bundle.h"
#include "model.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fl {

// What a source established. Kept as data (a 10,000-rank job holds ~90,000
// of these, and the streams of its logs more while the scan runs);
// describePlacement is the one place they become words.
enum class PlacementFact : uint8_t {
    GlobalRank,    // value: the rank
    CommRank,      // value: the rank in an NCCL communicator, value2: its nranks
    Host,          // text: the host
    Pid,           // value: the pid
    Gpu,           // value: the CUDA device
    Pci,           // text: the PCI address
    Node,          // text: the node
    PciOfPid,      // text: the PCI address, value: the pid using it
    ManifestRank,  // value: the rank whose manifest entry it is
};

// How the source said it.
enum class PlacementHow : uint8_t {
    SrunTaskId,        // srun --label task id (one task per GPU)
    RankLabel,         // a rank label before the message
    NcclHostPrefix,    // NCCL's host:pid:tid prefix
    NcclDevPrefix,     // NCCL's [dev] prefix
    ProcessGroupInit,  // ProcessGroupNCCL's initialization line
    DefaultGroupRank,  // the default process group's [Rank N]
    NcclInitRank,      // NCCL init line: comm rank, nranks
    NcclInitCudaDev,   // NCCL init line: cudaDev
    NcclInitBusId,     // NCCL init line: busId
    FileRank,          // the file's name or content (SourceFile::rankReason)
    FileNode,          // the file's name or content (SourceFile::nodeReason)
    Manifest,          // workload.json's ranks
    KernelBusAndPid,   // a kernel line naming the bus and the pid
};

// One line (or manifest field) that established a fact.
struct PlacementSource {
    FileId file;               // index into the files; kManifest for workload.json
    uint32_t line = 0;         // 1-based; 0 for facts from a file name or the manifest
    PlacementFact fact = PlacementFact::GlobalRank;
    PlacementHow how = PlacementHow::Manifest;
    int value = -1;
    int value2 = -1;
    std::string text;          // a host, node or PCI address, for the facts that name one
    static constexpr FileId kManifest{UINT32_MAX};
    friend bool operator==(const PlacementSource&, const PlacementSource&) = default;
};

struct PlacementEntry {
    std::string node;
    int globalRank = -1;
    int localRank = -1;
    int gpu = -1;              // CUDA device / nvmlDev index on the node
    std::string pci;           // "0000:86:00"
    std::vector<int> pids;     // processes that logged as this rank (sorted)
    std::vector<PlacementSource> evidence;
};

struct PlacementConflict {
    std::string message;       // "rank 3: node node-02 (NCCL host prefix) vs node-03 (manifest)"
    std::vector<PlacementSource> evidence;
};

// A node name as the bundle spells it in different places, reconciled to one.
struct NodeIdentity {
    std::string name;                  // the name used everywhere after placement
    std::vector<std::string> aliases;  // other spellings mapped to it (sorted)
    std::string reason;
};

// A launcher stream: the lines of one rank inside one file.
struct PlacementStream {
    FileId file;
    int task = -1;             // srun --label task id
    int localRank = -1;        // torchrun label
    int globalRank = -1;       // resolved
    std::string node;
    uint64_t lines = 0;
};

struct Placement {
    std::vector<PlacementEntry> entries;       // sorted by node, global rank, local rank
    std::vector<PlacementConflict> conflicts;
    std::vector<NodeIdentity> nodes;           // only names with aliases, sorted
    std::vector<PlacementStream> streams;      // sorted by file, task, local rank
    int worldSize = -1;                        // from NCCL nranks / PyTorch "size:" / manifest

    const PlacementEntry* byRank(int globalRank) const;
    const PlacementEntry* byNodePci(std::string_view node, std::string_view pci) const;
    const PlacementEntry* byNodePid(std::string_view node, int pid) const;
    const PlacementEntry* byNodeLocal(std::string_view node, int localRank) const;
    const PlacementStream* stream(FileId file, int task, int localRank) const;
    std::string canonicalNode(std::string_view name) const;
};

// "PCI:0000:91:00", "00000000:86:00.0", "0000:91:00.0", NCCL's busId "86000"
// (printed with %lx by init.cc) -> "0000:91:00"; empty when it is not a PCI address
// (a redacted "PCI:..." stays empty).
std::string normalizePciAddress(std::string_view s);
std::string pciFromNcclBusId(std::string_view hex);
// The other way, for saying which busId a source read: "0000:86:00" -> "86000"
// (a GPU's function number is 0); the text itself when it is no address.
std::string ncclBusIdFromPci(const std::string& pci);

// What one app log says about its launcher streams (rank labels, NCCL host
// and device prefixes, init lines), read from its text once, while the scan
// has it open: a 10,000-rank bundle's logs are then not read a second time.
struct AppLogFacts;
std::shared_ptr<const AppLogFacts> readAppLogFacts(const SourceFile& f, std::string_view data);

// Reads the launcher streams and placement lines of the given files (app logs
// are read whole, other kinds not at all), the pid/PCI pairs of kernel lines
// among `observations`, and the manifest. `appLogs[i]`, when set, is what
// files[i] says (readAppLogFacts) and that file is not read again.
Placement buildPlacement(const std::vector<SourceFile>& files, const std::vector<Observation>& observations,
                         const std::optional<Manifest>& manifest,
                         const std::vector<std::shared_ptr<const AppLogFacts>>& appLogs = {});

// Fills node, global rank, GPU and PCI of observations and events from the map
// (never overwrites what a line says itself), and rewrites node aliases.
void applyPlacement(const Placement& placement, std::vector<Observation>& observations,
                    std::vector<SymptomEvent>& events, std::vector<SourceFile>& files);

// Human-readable table for `inspect` (one place for the text).
std::string describePlacement(const Placement& placement, const std::vector<SourceFile>& files);

} // namespace fl

// The placement map as text for `inspect`: the one place its prose is made.
#include "placement/placement.h"

namespace fl {

namespace {

std::string where(const PlacementSource& s, const std::vector<SourceFile>& files)
{
    if (s.file == PlacementSource::kManifest)
        return "workload.json";
    std::string w = s.file.value < files.size() ? files[s.file.value].path : "file #" + std::to_string(s.file.value);
    if (s.line > 0)
        w += ":" + std::to_string(s.line);
    return w;
}

std::string fact(const PlacementSource& s)
{
    switch (s.fact) {
    case PlacementFact::GlobalRank: return "global rank " + std::to_string(s.value);
    case PlacementFact::CommRank: return "rank " + std::to_string(s.value) + " of " + std::to_string(s.value2);
    case PlacementFact::Host: return "host " + s.text;
    case PlacementFact::Pid: return "pid " + std::to_string(s.value);
    case PlacementFact::Gpu: return "GPU " + std::to_string(s.value);
    case PlacementFact::Pci: return "PCI " + s.text;
    case PlacementFact::Node: return "node " + s.text;
    case PlacementFact::PciOfPid: return "PCI " + s.text + " used by pid " + std::to_string(s.value);
    case PlacementFact::ManifestRank: return "rank " + std::to_string(s.value);
    }
    return "?";
}

std::string how(const PlacementSource& s, const std::vector<SourceFile>& files)
{
    const SourceFile* f = s.file.value < files.size() ? &files[s.file.value] : nullptr;
    switch (s.how) {
    case PlacementHow::SrunTaskId: return "srun --label task id (one task per GPU)";
    case PlacementHow::RankLabel: return "rank label before the message";
    case PlacementHow::NcclHostPrefix: return "NCCL host:pid:tid prefix";
    case PlacementHow::NcclDevPrefix: return "NCCL [dev] prefix";
    case PlacementHow::ProcessGroupInit: return "ProcessGroupNCCL initialization line";
    case PlacementHow::DefaultGroupRank: return "default process group's [Rank N]";
    case PlacementHow::NcclInitRank: return "NCCL init line (comm rank, nranks)";
    case PlacementHow::NcclInitCudaDev: return "NCCL init line cudaDev";
    case PlacementHow::NcclInitBusId: return "NCCL init line busId " + ncclBusIdFromPci(s.text);
    case PlacementHow::FileRank: return f ? f->rankReason : "the file";
    case PlacementHow::FileNode: return f ? f->nodeReason : "the file";
    case PlacementHow::Manifest: return "workload.json ranks";
    case PlacementHow::KernelBusAndPid: return "kernel line naming the bus and the pid";
    }
    return "?";
}

std::string source(const PlacementSource& s, const std::vector<SourceFile>& files)
{
    return "      " + fact(s) + " <- " + how(s, files) + " (" + where(s, files) + ")\n";
}

std::string num(int v) { return v < 0 ? "-" : std::to_string(v); }

void pad(std::string& out, const std::string& s, size_t width)
{
    out += s;
    out.append(s.size() < width ? width - s.size() : 1, ' ');
}

} // namespace

std::string describePlacement(const Placement& pl, const std::vector<SourceFile>& files)
{
    std::string out = "Placement: " + std::to_string(pl.entries.size()) + " entries";
    if (pl.worldSize > 0)
        out += ", world size " + std::to_string(pl.worldSize);
    out += ", " + std::to_string(pl.conflicts.size()) + " conflicts\n";
    if (pl.entries.empty()) {
        out += "  no rank, GPU or PCI placement found in the logs or the manifest\n";
    } else {
        size_t nodeWidth = 6;
        for (const auto& e : pl.entries)
            nodeWidth = std::max(nodeWidth, e.node.size() + 2);
        out += "  ";
        pad(out, "node", nodeWidth);
        out += "rank   local  gpu  pci          pids\n";
        for (const auto& e : pl.entries) {
            out += "  ";
            pad(out, e.node.empty() ? "-" : e.node, nodeWidth);
            pad(out, num(e.globalRank), 7);
            pad(out, num(e.localRank), 7);
            pad(out, num(e.gpu), 5);
            pad(out, e.pci.empty() ? "-" : e.pci, 13);
            std::string pids;
            for (int p : e.pids)
                pids += (pids.empty() ? "" : ",") + std::to_string(p);
            out += (pids.empty() ? "-" : pids) + "\n";
            for (const auto& s : e.evidence)
                out += source(s, files);
        }
    }
    for (const auto& n : pl.nodes) {
        std::string al;
        for (const auto& a : n.aliases)
            al += (al.empty() ? "" : ", ") + a;
        out += "  node " + n.name + " also written " + al + ": " + n.reason + "\n";
    }
    for (const auto& c : pl.conflicts) {
        out += "  conflict: " + c.message + "\n";
        for (const auto& s : c.evidence)
            out += source(s, files);
    }
    return out;
}

} // namespace fl

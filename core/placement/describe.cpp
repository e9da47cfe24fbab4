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
                out += "      " + s.fact + " <- " + s.how + " (" + where(s, files) + ")\n";
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
            out += "      " + s.fact + " <- " + s.how + " (" + where(s, files) + ")\n";
    }
    return out;
}

} // namespace fl

// Lookups on the placement map, node identity, and filling observations and
// events from it. What a line says itself is never overwritten.
#include "placement/placement.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

namespace fl {

const PlacementEntry* Placement::byRank(int globalRank) const
{
    if (globalRank < 0)
        return nullptr;
    for (const auto& e : entries)
        if (e.globalRank == globalRank)
            return &e;
    return nullptr;
}

const PlacementEntry* Placement::byNodePci(std::string_view node, std::string_view pci) const
{
    for (const auto& e : entries)
        if (e.globalRank >= 0 && e.node == node && !e.pci.empty() && e.pci == pci)
            return &e;
    return nullptr;
}

const PlacementEntry* Placement::byNodePid(std::string_view node, int pid) const
{
    for (const auto& e : entries)
        if (e.node == node && std::find(e.pids.begin(), e.pids.end(), pid) != e.pids.end())
            return &e;
    return nullptr;
}

const PlacementEntry* Placement::byNodeLocal(std::string_view node, int localRank) const
{
    const PlacementEntry* found = nullptr;
    for (const auto& e : entries) {
        if (e.node != node || e.localRank != localRank || e.globalRank < 0)
            continue;
        if (found && found->globalRank != e.globalRank)
            return nullptr; // two ranks claim this local label: not ours to pick
        found = &e;
    }
    return found;
}

const PlacementStream* Placement::stream(FileId file, int task, int localRank) const
{
    const PlacementStream key{file, task, localRank, -1, {}, 0};
    auto it = std::lower_bound(streams.begin(), streams.end(), key, [](const PlacementStream& a, const PlacementStream& b) {
        return std::tie(a.file, a.task, a.localRank) < std::tie(b.file, b.task, b.localRank);
    });
    if (it == streams.end() || it->file != file || it->task != task || it->localRank != localRank)
        return nullptr;
    return &*it;
}

std::string Placement::canonicalNode(std::string_view name) const
{
    for (const auto& n : nodes)
        if (std::find(n.aliases.begin(), n.aliases.end(), name) != n.aliases.end())
            return n.name;
    return std::string(name);
}

namespace {

int pidInText(std::string_view text)
{
    const size_t at = text.find("pid=");
    if (at == std::string_view::npos)
        return -1;
    int v = -1;
    auto [ptr, ec] = std::from_chars(text.data() + at + 4, text.data() + std::min(text.size(), at + 14), v);
    return ec == std::errc() && ptr != text.data() + at + 4 ? v : -1;
}

// Fills rank, node, GPU and PCI of an observation or an event.
template <typename T>
void place(const Placement& pl, T& x, int pidFromText)
{
    if (x.rank < 0 && !x.node.empty()) {
        const PlacementEntry* e = nullptr;
        if (!x.pciBus.empty())
            e = pl.byNodePci(x.node, x.pciBus);
        if (!e && pidFromText > 0)
            e = pl.byNodePid(x.node, pidFromText);
        if (e && e->globalRank >= 0) {
            x.rank = e->globalRank;
            if (x.gpuIndex < 0)
                x.gpuIndex = e->gpu;
            if (x.pciBus.empty())
                x.pciBus = e->pci;
            return;
        }
    }
    const PlacementEntry* e = pl.byRank(x.rank);
    if (!e)
        return;
    if (x.node.empty())
        x.node = e->node;
    if (x.node != e->node)
        return; // the line names another host: a conflict for the map, not a guess here
    if (x.gpuIndex < 0)
        x.gpuIndex = e->gpu;
    if (x.pciBus.empty())
        x.pciBus = e->pci;
}

} // namespace

void applyPlacement(const Placement& pl, std::vector<Observation>& observations, std::vector<SymptomEvent>& events,
                    std::vector<SourceFile>& files)
{
    for (auto& f : files)
        if (!f.node.empty())
            if (std::string c = pl.canonicalNode(f.node); c != f.node) {
                f.nodeReason += "; same host as '" + c + "' (see placement)";
                f.node = std::move(c);
            }
    for (auto& o : observations) {
        if (!o.node.empty())
            o.node = pl.canonicalNode(o.node);
        if (o.rank < 0 && (o.localRank >= 0 || o.task >= 0))
            if (const PlacementStream* s = pl.stream(o.ref.file, o.task, o.localRank); s && s->globalRank >= 0)
                o.rank = s->globalRank;
        if (o.rank < 0 && o.localRank >= 0 && !o.node.empty())
            if (const PlacementEntry* e = pl.byNodeLocal(o.node, o.localRank))
                o.rank = e->globalRank;
        if (o.rank < 0 && o.pid > 0 && !o.node.empty() && o.source == SourceKind::AppLog)
            if (const PlacementEntry* e = pl.byNodePid(o.node, o.pid))
                o.rank = e->globalRank;
        place(pl, o, o.source == SourceKind::SysLog ? pidInText(o.text) : -1);
    }
    for (auto& e : events) {
        if (!e.node.empty())
            e.node = pl.canonicalNode(e.node);
        if (e.observations.empty() || e.observations.front().value >= observations.size())
            continue;
        const Observation& o = observations[e.observations.front().value];
        if (e.rank < 0 && o.rank >= 0 && (e.node.empty() || e.node == o.node))
            e.rank = o.rank;
        place(pl, e, o.source == SourceKind::SysLog ? pidInText(o.text) : -1);
    }
}

} // namespace fl

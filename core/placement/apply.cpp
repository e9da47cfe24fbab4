// Lookups on the placement map, node identity, and filling observations and
// events from it. What a line says itself is never overwritten.
#include "placement/placement.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

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

// The Placement lookups above, indexed once: they walk every entry (every
// node's aliases), which for each line of a 10,000-rank job is quadratic.
// Each answers exactly what its Placement counterpart answers.
class Lookup {
public:
    explicit Lookup(const Placement& pl)
    {
        for (const auto& n : pl.nodes)
            for (const auto& a : n.aliases)
                canonical_.emplace(a, n.name); // the first node naming the alias, as canonicalNode
        for (const auto& e : pl.entries) {
            if (e.globalRank >= 0)
                byRank_.emplace(e.globalRank, &e); // the first entry of the rank, as byRank
            ofNode_[e.node].push_back(&e);
        }
    }

    // nullptr when `name` is no alias: it is canonical as it is.
    const std::string* canonical(std::string_view name) const
    {
        auto it = canonical_.find(name);
        return it == canonical_.end() ? nullptr : &it->second;
    }

    const PlacementEntry* byRank(int globalRank) const
    {
        auto it = byRank_.find(globalRank);
        return it == byRank_.end() ? nullptr : it->second;
    }

    const PlacementEntry* byNodePci(std::string_view node, std::string_view pci) const
    {
        for (const PlacementEntry* e : entriesOf(node))
            if (e->globalRank >= 0 && !e->pci.empty() && e->pci == pci)
                return e;
        return nullptr;
    }

    const PlacementEntry* byNodePid(std::string_view node, int pid) const
    {
        for (const PlacementEntry* e : entriesOf(node))
            if (std::find(e->pids.begin(), e->pids.end(), pid) != e->pids.end())
                return e;
        return nullptr;
    }

    const PlacementEntry* byNodeLocal(std::string_view node, int localRank) const
    {
        const PlacementEntry* found = nullptr;
        for (const PlacementEntry* e : entriesOf(node)) {
            if (e->localRank != localRank || e->globalRank < 0)
                continue;
            if (found && found->globalRank != e->globalRank)
                return nullptr; // two ranks claim this local label: not ours to pick
            found = e;
        }
        return found;
    }

private:
    const std::vector<const PlacementEntry*>& entriesOf(std::string_view node) const
    {
        static const std::vector<const PlacementEntry*> none;
        auto it = ofNode_.find(node);
        return it == ofNode_.end() ? none : it->second;
    }

    std::unordered_map<std::string_view, std::string> canonical_;
    std::unordered_map<int, const PlacementEntry*> byRank_;
    std::unordered_map<std::string_view, std::vector<const PlacementEntry*>> ofNode_; // in entry order
};

void canonicalise(const Lookup& lk, std::string& node)
{
    if (!node.empty())
        if (const std::string* c = lk.canonical(node))
            node = *c;
}

// Fills rank, node, GPU and PCI of an observation or an event.
template <typename T>
void place(const Lookup& pl, T& x, int pidFromText)
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
    const Lookup lk(pl);
    for (auto& f : files)
        if (!f.node.empty())
            if (const std::string* c = lk.canonical(f.node); c && *c != f.node) {
                f.nodeReason += "; same host as '" + *c + "' (see placement)";
                f.node = *c;
            }
    for (auto& o : observations) {
        canonicalise(lk, o.node);
        if (o.rank < 0 && (o.localRank >= 0 || o.task >= 0))
            if (const PlacementStream* s = pl.stream(o.ref.file, o.task, o.localRank); s && s->globalRank >= 0)
                o.rank = s->globalRank;
        if (o.rank < 0 && o.localRank >= 0 && !o.node.empty())
            if (const PlacementEntry* e = lk.byNodeLocal(o.node, o.localRank))
                o.rank = e->globalRank;
        if (o.rank < 0 && o.pid > 0 && !o.node.empty() && o.source == SourceKind::AppLog)
            if (const PlacementEntry* e = lk.byNodePid(o.node, o.pid))
                o.rank = e->globalRank;
        place(lk, o, o.source == SourceKind::SysLog ? pidInText(o.text) : -1);
    }
    for (auto& e : events) {
        canonicalise(lk, e.node);
        if (e.observations.empty() || e.observations.front().value >= observations.size())
            continue;
        const Observation& o = observations[e.observations.front().value];
        if (e.rank < 0 && o.rank >= 0 && (e.node.empty() || e.node == o.node))
            e.rank = o.rank;
        place(lk, e, o.source == SourceKind::SysLog ? pidInText(o.text) : -1);
    }
}

} // namespace fl

// Builds the placement map from the bundle's own lines. Sources and why they
// can be trusted (upstream message sites):
// - NCCL init.cc: INFO "comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx
//   commId 0x%llx - Init START/COMPLETE" ties a communicator rank to a device and
//   its PCI bus. Only a communicator over the whole world (nranks == world size)
//   gives the global rank; split communicators print their own rank, but the same
//   device and bus.
// - NCCL debug.cc prefixes every INFO/WARN line with "<host>:<pid>:<tid> [<dev>]".
// - PyTorch ProcessGroupNCCL: "[PG 0 Rank N] ProcessGroupNCCL initialization
//   options: size: S, global rank: N"; c10 prefixes "[rankN]:" (global).
// - torchrun: "[${role_name}${local_rank}]:" (LOCAL rank; LocalElasticAgent docstring).
// - srun --label: "<task id>: "; mpirun --tag-output: "[<jobid>,<rank>]<stdout>:".
// - Kernel Xid lines: "NVRM: Xid (PCI:0000:86:00): 48, pid=23813, ..." name the bus
//   and, often, the pid of the process using the GPU (nvidia open-gpu-kernel-modules,
//   src/nvidia/src/kernel/diagnostics/journal.c / nvRmXidPrintf callers).
#include "placement/placement.h"

#include "bundle/mapped_file.h"
#include "bundle/sniff.h"
#include "bundle/wrappers.h"
#include "bundle/text_lines.h"
#include "parse/lineparse.h"
#include "text_find.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace fl {

namespace {

bool isDigitC(char c) { return c >= '0' && c <= '9'; }
bool isHexC(char c) { return isDigitC(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// Reads the decimal number right after `key` in `s` (first occurrence), -1 if none.
int numberAfter(std::string_view s, std::string_view key, size_t from = 0)
{
    const size_t at = s.find(key, from);
    if (at == std::string_view::npos)
        return -1;
    size_t q = at + key.size();
    int v = -1;
    auto [ptr, ec] = std::from_chars(s.data() + q, s.data() + std::min(s.size(), q + 9), v);
    if (ec != std::errc() || ptr == s.data() + q)
        return -1;
    return v;
}

std::string_view tokenAfter(std::string_view s, std::string_view key)
{
    const size_t at = s.find(key);
    if (at == std::string_view::npos)
        return {};
    size_t q = at + key.size(), e = q;
    while (e < s.size() && s[e] != ' ' && e - q < 32)
        ++e;
    return s.substr(q, e - q);
}

struct Claim {
    int value = -1;
    PlacementSource src;
};

struct StreamKey {
    FileId file;
    int task = -1;
    int local = -1;
    auto operator<=>(const StreamKey&) const = default;
};

struct StreamFacts {
    std::string fileNode;
    std::map<std::string, PlacementSource> hosts;   // NCCL host prefix -> first line
    std::vector<Claim> global;                      // claims of the global rank, in line order
    std::vector<std::pair<Claim, int>> ncclRanks;   // (comm rank claim, nranks)
    std::optional<Claim> device;
    std::optional<std::pair<std::string, PlacementSource>> pci;
    std::set<int> pids;
    std::optional<PlacementSource> pidSource;
    uint64_t lines = 0;
};

// "[PG 0 Rank 3]", "[Rank 3]", "[PG 0 (default_pg) Rank 3]", "[PG ID 0 PG GUID 0(default_pg) Rank 3]":
// the default process group's rank is the global rank; other groups' ranks are not.
int defaultGroupRank(std::string_view msg)
{
    for (size_t open = msg.find('['); open != std::string_view::npos && open < 200; open = msg.find('[', open + 1)) {
        const size_t close = msg.find(']', open);
        if (close == std::string_view::npos)
            return -1;
        std::string_view in = msg.substr(open + 1, close - open - 1);
        const bool plain = in.starts_with("Rank ");
        const bool pg0 = in.starts_with("PG 0 ") || in.starts_with("PG ID 0 ");
        if (!plain && !pg0)
            continue;
        const size_t r = in.rfind("Rank ");
        int v = -1;
        auto [ptr, ec] = std::from_chars(in.data() + r + 5, in.data() + in.size(), v);
        if (ec == std::errc() && ptr == in.data() + in.size())
            return v;
    }
    return -1;
}

void readAppLog(const SourceFile& f, std::string_view data, std::map<StreamKey, StreamFacts>& streams,
                int& worldFromPg)
{
    TimeContext ctx; // times are not needed here; what wraps each line is
    ctx.wrapper = detectWrapper(data.substr(0, std::min(data.size(), kHeadBytes)));
    // Consecutive lines are mostly one stream: its facts are looked up again
    // only when the stream changes (a std::map's elements stay where they are).
    StreamFacts* last = nullptr;
    StreamKey lastKey;
    for (const TextLine& l : linesOf(data)) {
        const std::string_view text = l.text;
        const uint32_t line = l.number;
        if (text.empty())
            continue;
        const LineInfo li = parseLine(text.substr(0, std::min<size_t>(text.size(), 512)), f.kind, ctx);
        const StreamKey key{f.index, li.task, li.localRank};
        if (!last || key != lastKey) {
            last = &streams[key];
            lastKey = key;
        }
        StreamFacts& s = *last;
        if (s.lines++ == 0)
            s.fileNode = f.node;
        const std::string_view msg = text.substr(std::min(li.messageStart, text.size()));
        auto src = [&](PlacementFact fact, PlacementHow how, int value, int value2 = -1, std::string named = {}) {
            return PlacementSource{f.index, line, fact, how, value, value2, std::move(named)};
        };
        if (li.rank >= 0 && li.rankFromLabel && s.global.size() < 4) {
            const bool fromTask = li.task >= 0 && li.localRank < 0 && li.rank == li.task;
            const PlacementHow how = fromTask ? PlacementHow::SrunTaskId : PlacementHow::RankLabel;
            if (s.global.empty() || s.global.back().value != li.rank)
                s.global.push_back({li.rank, src(PlacementFact::GlobalRank, how, li.rank)});
        }
        if (!li.host.empty() && li.pid >= 0 && s.hosts.size() < 4 && !s.hosts.count(std::string(li.host)))
            s.hosts.emplace(std::string(li.host), src(PlacementFact::Host, PlacementHow::NcclHostPrefix, -1, -1, std::string(li.host)));
        if (li.pid >= 0 && s.pids.size() < 8 && s.pids.insert(li.pid).second && !s.pidSource)
            s.pidSource = src(PlacementFact::Pid, PlacementHow::NcclHostPrefix, li.pid);
        if (li.device >= 0 && !s.device)
            s.device = Claim{li.device, src(PlacementFact::Gpu, PlacementHow::NcclDevPrefix, li.device)};
        if (msg.size() > 20 && msg.find("global rank: ") != std::string_view::npos && msg.find("ProcessGroupNCCL") != std::string_view::npos) {
            const int g = numberAfter(msg, "global rank: ");
            const int size = numberAfter(msg, " size: ");
            if (size > worldFromPg)
                worldFromPg = size;
            if (g >= 0 && (s.global.empty() || s.global.back().value != g))
                s.global.push_back({g, src(PlacementFact::GlobalRank, PlacementHow::ProcessGroupInit, g)});
        } else if (const int pgRank = msg.find("Rank ") != std::string_view::npos ? defaultGroupRank(msg) : -1;
                   pgRank >= 0 && s.global.size() < 4 && (s.global.empty() || s.global.back().value != pgRank)) {
            s.global.push_back({pgRank, src(PlacementFact::GlobalRank, PlacementHow::DefaultGroupRank, pgRank)});
        }
        if (li.pid >= 0 && findLiteral(msg, " busId ") != std::string_view::npos && findLiteral(msg, "nranks ") != std::string_view::npos) {
            const int r = numberAfter(msg, " rank ");
            const int n = numberAfter(msg, " nranks ");
            const int dev = numberAfter(msg, " cudaDev ");
            const std::string pci = pciFromNcclBusId(tokenAfter(msg, " busId "));
            if (r >= 0 && n > 0 && s.ncclRanks.size() < 16)
                s.ncclRanks.push_back({Claim{r, src(PlacementFact::CommRank, PlacementHow::NcclInitRank, r, n)},
                                       n});
            if (dev >= 0)
                s.device = Claim{dev, src(PlacementFact::Gpu, PlacementHow::NcclInitCudaDev, dev)};
            if (!pci.empty() && !s.pci)
                s.pci = std::make_pair(pci, src(PlacementFact::Pci, PlacementHow::NcclInitBusId, -1, -1, pci));
        }
    }
}

void addEvidence(PlacementEntry& e, const PlacementSource& src)
{
    if (std::find(e.evidence.begin(), e.evidence.end(), src) == e.evidence.end())
        e.evidence.push_back(src);
}

// Merges `field` of an entry with a new claim; a disagreement is a conflict.
template <typename T>
void mergeField(T& field, const T& value, const T& none, const PlacementSource& src, PlacementEntry& e,
                const std::string& what, std::vector<PlacementConflict>& conflicts)
{
    if (value == none)
        return;
    if (field == none) {
        field = value;
        addEvidence(e, src);
        return;
    }
    if (field == value) {
        addEvidence(e, src);
        return;
    }
    PlacementConflict c;
    c.message = "rank " + std::to_string(e.globalRank) + ": " + what + " disagree";
    c.evidence = e.evidence;
    c.evidence.push_back(src);
    conflicts.push_back(std::move(c));
}

} // namespace

std::string pciFromNcclBusId(std::string_view hex)
{
    // NCCL's busId is the PCI "domain:bus:device.function" read as one hex
    // number (busIdToInt64 in src/misc/utils.cc): 0x86000 = 0000:86:00.0.
    if (hex.empty() || hex.size() > 16 || !std::all_of(hex.begin(), hex.end(), isHexC))
        return {};
    uint64_t v = 0;
    std::from_chars(hex.data(), hex.data() + hex.size(), v, 16);
    const unsigned bus = unsigned((v >> 12) & 0xff), dev = unsigned((v >> 4) & 0xff);
    const uint64_t domain = v >> 20;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04llx:%02x:%02x", static_cast<unsigned long long>(domain & 0xffff), bus, dev);
    return buf;
}

std::string ncclBusIdFromPci(const std::string& pci)
{
    unsigned domain = 0, bus = 0, dev = 0;
    if (std::sscanf(pci.c_str(), "%x:%x:%x", &domain, &bus, &dev) != 3)
        return pci;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llx", (static_cast<unsigned long long>(domain) << 20) | (bus << 12) | (dev << 4));
    return buf;
}

std::string normalizePciAddress(std::string_view s)
{
    if (s.starts_with("PCI:"))
        s.remove_prefix(4);
    if (auto dot = s.find('.'); dot != std::string_view::npos)
        s = s.substr(0, dot);
    std::string out;
    for (char c : s) {
        if (!isHexC(c) && c != ':')
            return {}; // redacted ("PCI:..."), not an address
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    const auto first = out.find(':');
    if (first == std::string::npos)
        return {};
    if (out.find(':', first + 1) != std::string::npos) {
        if (first > 4)
            out = out.substr(first - 4);
        else if (first < 4)
            out = std::string(4 - first, '0') + out;
    } else {
        out = "0000:" + out;
    }
    return out;
}

// One identity per node. A short name and its FQDN ("node-02" /
// "node-02.cluster.local") are one host; a file-name part that is the tail of
// exactly one host the lines name ("e02" / "v100-e02") is that host. Two
// possible hosts are a conflict, left as written.
void reconcileNodes(Placement& pl, const std::vector<SourceFile>& files, const std::vector<Observation>& observations)
{
    std::set<std::string> named;    // hosts that lines name
    std::map<std::string, std::string> fromFiles; // node -> reason, from file and folder names
    for (const auto& e : pl.entries)
        if (!e.node.empty())
            named.insert(e.node);
    for (const auto& o : observations)
        if (!o.node.empty() && o.ref.file.value < files.size() && o.node != files[o.ref.file.value].node)
            named.insert(o.node);
    for (const auto& f : files) {
        if (f.node.empty())
            continue;
        if (f.nodeReason.starts_with("content")) {
            named.insert(f.node);
            // The lines' host won over the file's name: the name's host is still one to reconcile.
            std::string reason;
            if (std::string nameHost = hostFromPath(f.path, reason); !nameHost.empty() && nameHost != f.node)
                fromFiles.try_emplace(std::move(nameHost), std::move(reason));
        } else {
            fromFiles.try_emplace(f.node, f.nodeReason);
        }
    }
    std::set<std::string> all = named;
    for (const auto& [n, r] : fromFiles)
        all.insert(n);
    // The named hosts by each tail that follows a '-' or '_' in them ("a100-17" of "gpu-a100-17"): the
    // matches below are found by lookups, not by comparing every name with every other (20,000 hosts that
    // lines name: 400 M comparisons, 1.9 s).
    const auto forEachTail = [](std::string_view name, const auto& visit) {
        for (size_t sep = name.find_first_of("-_"); sep != std::string_view::npos; sep = name.find_first_of("-_", sep + 1))
            visit(name.substr(sep + 1));
    };
    std::map<std::string_view, std::vector<std::string_view>> namedByTail;
    for (const auto& b : named)
        forEachTail(b, [&](std::string_view tail) { namedByTail[tail].push_back(b); });
    std::map<std::string, std::set<std::string>> aliasesOf;
    std::map<std::string, std::string> reasonOf;
    for (const auto& a : all) {
        const bool fileOnly = fromFiles.count(a) && !named.count(a);
        // Longer names that lines give: "a.domain" (fully qualified), or for a name only files give, one
        // that ends in "-a" or "_a". In name order, each once.
        std::set<std::string_view> longerSet;
        const std::string dotted = a + '.';
        for (auto it = named.lower_bound(dotted); it != named.end() && it->starts_with(dotted); ++it)
            longerSet.insert(*it);
        if (fileOnly)
            if (auto it = namedByTail.find(a); it != namedByTail.end())
                longerSet.insert(it->second.begin(), it->second.end());
        std::vector<std::string> longer(longerSet.begin(), longerSet.end());
        // "gpu-a100-17" from a file name, "a100-17" from the lines: the file's name wraps the host's.
        if (longer.empty() && fileOnly) {
            std::vector<std::string> inner;
            forEachTail(a, [&](std::string_view tail) {
                if (auto it = named.find(std::string(tail)); it != named.end())
                    inner.push_back(*it);
            });
            if (inner.size() == 1) {
                aliasesOf[inner.front()].insert(a);
                reasonOf[inner.front()] = "'" + a + "' (" + fromFiles[a] + ") ends with the host '" + inner.front() + "' that lines name";
            }
            continue;
        }
        if (longer.empty())
            continue;
        if (longer.size() > 1) {
            std::string list;
            for (const auto& b : longer)
                list += (list.empty() ? "" : ", ") + b;
            pl.conflicts.push_back({"node name '" + a + "' could be any of " + list + ": left as written", {}});
            continue;
        }
        const std::string& b = longer.front();
        if (b.starts_with(a) && b[a.size()] == '.') {
            aliasesOf[a].insert(b);
            reasonOf[a] = "'" + b + "' is the fully qualified name of '" + a + "'";
        } else {
            aliasesOf[b].insert(a);
            reasonOf[b] = "'" + a + "' (" + fromFiles[a] + ") is the tail of the host '" + b + "' that lines name";
        }
    }
    for (auto& [name, al] : aliasesOf)
        pl.nodes.push_back({name, std::vector<std::string>(al.begin(), al.end()), reasonOf[name]});
    for (auto& e : pl.entries)
        e.node = pl.canonicalNode(e.node);
    for (auto& s : pl.streams)
        s.node = pl.canonicalNode(s.node);
}

struct AppLogFacts {
    std::map<StreamKey, StreamFacts> streams;
    int worldFromPg = -1;
};

std::shared_ptr<const AppLogFacts> readAppLogFacts(const SourceFile& f, std::string_view data)
{
    auto facts = std::make_shared<AppLogFacts>();
    readAppLog(f, data, facts->streams, facts->worldFromPg);
    return facts;
}

namespace {

using StreamRef = std::pair<const StreamKey*, const StreamFacts*>;

// Every app-log stream with its facts, in key order. The streams of the files
// the scan read (appLogs) are visited where they are, not copied into one map
// (10,000 ranks: ~10 MB more at the scan's peak); the others are read here into
// `readHere`. Keys carry the file, so no two sources share a key, and the walk
// is in key order as one map's would be.
std::vector<StreamRef> gatherStreams(const std::vector<SourceFile>& files,
                                     const std::vector<std::shared_ptr<const AppLogFacts>>& appLogs,
                                     std::map<StreamKey, StreamFacts>& readHere, int& worldFromPg)
{
    std::vector<StreamRef> streams;
    for (const auto& f : files) {
        if (f.kind != SourceKind::AppLog || f.status != FileStatus::Ok)
            continue;
        if (f.index.value < appLogs.size() && appLogs[f.index.value]) {
            const AppLogFacts& facts = *appLogs[f.index.value];
            for (const auto& [k, s] : facts.streams)
                streams.emplace_back(&k, &s);
            worldFromPg = std::max(worldFromPg, facts.worldFromPg);
            continue;
        }
        MappedFile map;
        std::string err;
        if (!openSource(map, f, &err))
            continue;
        readAppLog(f, map.data(), readHere, worldFromPg);
    }
    for (const auto& [k, s] : readHere)
        streams.emplace_back(&k, &s);
    std::sort(streams.begin(), streams.end(), [](const auto& a, const auto& b) { return *a.first < *b.first; });
    return streams;
}

// World size: the widest NCCL communicator, else PyTorch's default group size, else the manifest.
int worldSizeOf(const std::vector<StreamRef>& streams, int worldFromPg, const std::optional<Manifest>& manifest)
{
    int world = -1;
    for (const auto& [k, s] : streams)
        for (const auto& [c, n] : s->ncclRanks)
            world = std::max(world, n);
    if (world < 0)
        world = worldFromPg;
    if (world < 0 && manifest && !manifest->ranks.empty())
        world = manifest->ranks.rbegin()->first + 1;
    return world;
}

// One stream's entry: its global rank (conflicting claims are reported), node, device, bus, pids.
// The stream itself is listed in pl.streams.
PlacementEntry placeStream(const StreamKey& key, const StreamFacts& s, const std::vector<SourceFile>& files, int world,
                           Placement& pl)
{
    std::vector<Claim> claims = s.global;
    const SourceFile& f = files[key.file.value];
    if (f.rank >= 0 && key.task < 0) // a per-rank file: every stream in it is that rank
        claims.insert(claims.begin(), Claim{f.rank, {f.index, 0, PlacementFact::GlobalRank, PlacementHow::FileRank, f.rank, -1, {}}});
    for (const auto& [c, n] : s.ncclRanks)
        if (n == world)
            claims.push_back(c);
    PlacementEntry e;
    e.localRank = key.local;
    for (const auto& c : claims) {
        if (e.globalRank < 0) {
            e.globalRank = c.value;
            addEvidence(e, c.src);
        } else if (c.value == e.globalRank) {
            addEvidence(e, c.src);
        } else {
            pl.conflicts.push_back({"one stream of " + f.path + " claims global ranks " + std::to_string(e.globalRank)
                                        + " and " + std::to_string(c.value) + "; the first is used",
                                    {e.evidence.front(), c.src}});
        }
    }
    // Node: the NCCL host prefix says which host wrote the line; a file's node comes from its name.
    if (s.hosts.size() == 1) {
        e.node = s.hosts.begin()->first;
        addEvidence(e, s.hosts.begin()->second);
    } else if (s.hosts.size() > 1) {
        std::vector<PlacementSource> ev;
        for (const auto& [h, src] : s.hosts)
            ev.push_back(src);
        pl.conflicts.push_back({"one stream of " + f.path + " names several hosts; node left to the file", ev});
    }
    if (e.node.empty() && !s.fileNode.empty()) {
        e.node = s.fileNode;
        addEvidence(e, {f.index, 0, PlacementFact::Node, PlacementHow::FileNode, -1, -1, s.fileNode});
    }
    if (s.device) {
        e.gpu = s.device->value;
        addEvidence(e, s.device->src);
    }
    if (s.pci) {
        e.pci = s.pci->first;
        addEvidence(e, s.pci->second);
    }
    e.pids.assign(s.pids.begin(), s.pids.end());
    if (s.pidSource)
        addEvidence(e, *s.pidSource);
    pl.streams.push_back({key.file, key.task, key.local, e.globalRank, e.node, s.lines});
    return e;
}

// A stream's entry joined to the entry of its global rank (differences reported); an unranked one is
// kept when something besides its node says where it ran.
void mergeByRank(PlacementEntry e, std::map<int, PlacementEntry>& byGlobal, std::vector<PlacementEntry>& unranked,
                 Placement& pl)
{
    if (e.globalRank < 0) {
        if (!e.node.empty() && (e.localRank >= 0 || e.gpu >= 0 || !e.pci.empty() || !e.pids.empty()))
            unranked.push_back(std::move(e));
        return;
    }
    auto it = byGlobal.find(e.globalRank);
    if (it == byGlobal.end()) {
        byGlobal.emplace(e.globalRank, std::move(e));
        return;
    }
    PlacementEntry& m = it->second;
    const PlacementSource src = e.evidence.empty() ? PlacementSource{} : e.evidence.front();
    mergeField(m.node, e.node, std::string(), src, m, "node (" + m.node + " vs " + e.node + ")", pl.conflicts);
    mergeField(m.localRank, e.localRank, -1, src, m, "local rank", pl.conflicts);
    mergeField(m.gpu, e.gpu, -1, src, m, "GPU (" + std::to_string(m.gpu) + " vs " + std::to_string(e.gpu) + ")", pl.conflicts);
    mergeField(m.pci, e.pci, std::string(), src, m, "PCI (" + m.pci + " vs " + e.pci + ")", pl.conflicts);
    for (int p : e.pids)
        if (std::find(m.pids.begin(), m.pids.end(), p) == m.pids.end())
            m.pids.push_back(p);
    for (const auto& ev : e.evidence)
        addEvidence(m, ev);
}

// The manifest is one more source.
void mergeManifest(const Manifest& manifest, std::map<int, PlacementEntry>& byGlobal, Placement& pl)
{
    for (const auto& [rank, place] : manifest.ranks) {
        PlacementSource src{PlacementSource::kManifest, 0, PlacementFact::ManifestRank, PlacementHow::Manifest, rank, -1, {}};
        auto [it, fresh] = byGlobal.try_emplace(rank);
        PlacementEntry& m = it->second;
        if (fresh)
            m.globalRank = rank;
        mergeField(m.node, place.node, std::string(), src, m,
                   "node (" + m.node + " in the logs vs " + place.node + " in the manifest)", pl.conflicts);
        if (m.node == place.node || m.node.empty()) {
            mergeField(m.gpu, place.gpu, -1, src, m,
                       "GPU (" + std::to_string(m.gpu) + " in the logs vs " + std::to_string(place.gpu) + " in the manifest)",
                       pl.conflicts);
            const std::string pci = normalizePciAddress(place.pci);
            mergeField(m.pci, pci, std::string(), src, m, "PCI (" + m.pci + " in the logs vs " + pci + " in the manifest)",
                       pl.conflicts);
        }
    }
}

// Kernel lines that name both a GPU's bus and a pid ("Xid (PCI:0000:41:00): 45, pid=41002")
// tie that bus to the rank whose NCCL lines came from the same pid on the same node.
// Indexed once: each such line walked every node's aliases (canonicalNode)
// and every entry, which at 10,000 ranks is most of this loop. Entries of a
// node are kept in their order, so the merges happen as before; the loop
// changes no entry's node, so the views stay valid.
void tieBusesToPids(Placement& pl, const std::vector<Observation>& observations)
{
    std::unordered_map<std::string_view, std::string_view> canonicalOf;
    for (const auto& n : pl.nodes)
        for (const auto& a : n.aliases)
            canonicalOf.try_emplace(a, n.name); // the first node naming the alias, as canonicalNode
    std::unordered_map<std::string_view, std::vector<size_t>> entriesOfNode;
    for (size_t i = 0; i < pl.entries.size(); ++i)
        entriesOfNode[pl.entries[i].node].push_back(i);
    for (const auto& o : observations) {
        if (o.source != SourceKind::SysLog || o.node.empty())
            continue;
        const size_t at = o.text.find("PCI:");
        const int pid = numberAfter(o.text, "pid=");
        if (at == std::string::npos || pid <= 0)
            continue;
        size_t end = at + 4;
        while (end < o.text.size() && (isHexC(o.text[end]) || o.text[end] == ':' || o.text[end] == '.'))
            ++end;
        const std::string pci = normalizePciAddress(std::string_view(o.text).substr(at, end - at));
        if (pci.empty())
            continue;
        const auto alias = canonicalOf.find(o.node);
        const auto onNode = entriesOfNode.find(alias == canonicalOf.end() ? std::string_view(o.node) : alias->second);
        if (onNode == entriesOfNode.end())
            continue;
        for (size_t i : onNode->second) {
            PlacementEntry& e = pl.entries[i];
            if (std::find(e.pids.begin(), e.pids.end(), pid) == e.pids.end())
                continue;
            PlacementSource src{o.ref.file, o.ref.line, PlacementFact::PciOfPid, PlacementHow::KernelBusAndPid, pid, -1, pci};
            mergeField(e.pci, pci, std::string(), src, e, "PCI (" + e.pci + " vs " + pci + ")", pl.conflicts);
        }
    }
}

// Entries and streams in their order; two ranks on one node claiming one GPU are reported.
void sortAndCheckShared(Placement& pl)
{
    std::sort(pl.entries.begin(), pl.entries.end(), [](const PlacementEntry& a, const PlacementEntry& b) {
        return std::tie(a.node, a.globalRank, a.localRank, a.gpu) < std::tie(b.node, b.globalRank, b.localRank, b.gpu);
    });
    std::map<std::pair<std::string, std::string>, const PlacementEntry*> byPci;
    for (const auto& e : pl.entries) {
        if (e.pci.empty() || e.globalRank < 0)
            continue;
        auto [it, fresh] = byPci.try_emplace({e.node, e.pci}, &e);
        if (!fresh && it->second->globalRank != e.globalRank)
            pl.conflicts.push_back({"ranks " + std::to_string(it->second->globalRank) + " and " + std::to_string(e.globalRank)
                                        + " both on " + e.node + " PCI " + e.pci,
                                    {it->second->evidence.front(), e.evidence.front()}});
    }
    std::sort(pl.streams.begin(), pl.streams.end(), [](const PlacementStream& a, const PlacementStream& b) {
        return std::tie(a.file, a.task, a.localRank) < std::tie(b.file, b.task, b.localRank);
    });
}

} // namespace

Placement buildPlacement(const std::vector<SourceFile>& files, const std::vector<Observation>& observations,
                         const std::optional<Manifest>& manifest,
                         const std::vector<std::shared_ptr<const AppLogFacts>>& appLogs)
{
    Placement pl;
    std::map<StreamKey, StreamFacts> readHere; // the streams of files the scan did not read; `streams` points in
    int worldFromPg = -1;
    const std::vector<StreamRef> streams = gatherStreams(files, appLogs, readHere, worldFromPg);
    pl.worldSize = worldSizeOf(streams, worldFromPg, manifest);

    std::map<int, PlacementEntry> byGlobal;
    std::vector<PlacementEntry> unranked;
    for (const auto& [key, facts] : streams)
        mergeByRank(placeStream(*key, *facts, files, pl.worldSize, pl), byGlobal, unranked, pl);
    if (manifest)
        mergeManifest(*manifest, byGlobal, pl);
    for (auto& [g, e] : byGlobal)
        pl.entries.push_back(std::move(e));
    for (auto& e : unranked)
        pl.entries.push_back(std::move(e));

    reconcileNodes(pl, files, observations);
    tieBusesToPids(pl, observations);
    sortAndCheckShared(pl);
    // The entries live as long as the analysis; their evidence grew by
    // doubling (about 9 sources in room for 16 at 10,000 ranks: 5 MB).
    for (auto& e : pl.entries)
        e.evidence.shrink_to_fit();
    return pl;
}

} // namespace fl

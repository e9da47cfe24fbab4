// SPDX-License-Identifier: MIT
#include "chainlayout.h"

#include "viewstyle.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

namespace fl {

std::vector<uint32_t> chainMembers(const Result& result)
{
    std::set<uint32_t> ids;
    for (const auto& e : result.edges) {
        ids.insert(e.from.value);
        ids.insert(e.to.value);
    }
    if (result.rootCause)
        ids.insert(result.rootCause->event.value);
    // Without edges the candidates still deserve a place in the graph.
    if (ids.empty())
        for (const auto& c : result.candidates)
            ids.insert(c.event.value);
    return {ids.begin(), ids.end()};
}

std::vector<uint32_t> chainEvents(const Result& result)
{
    std::vector<uint32_t> out = chainMembers(result);
    if (out.size() <= kMaxChainNodes)
        return out;
    std::set<uint32_t> must;
    if (result.rootCause)
        must.insert(result.rootCause->event.value);
    for (const auto& c : result.candidates)
        must.insert(c.event.value);
    std::unordered_map<uint32_t, const SymptomEvent*> byId;
    for (const auto& e : result.events)
        byId.emplace(e.id.value, &e);
    const style::EventLevels levels(result);
    struct Rank {
        bool must;
        int level;
        int64_t time;
        uint32_t id;
    };
    std::vector<Rank> ranked;
    ranked.reserve(out.size());
    for (uint32_t id : out) {
        auto it = byId.find(id);
        const int level = it == byId.end() ? -1 : levels(*it->second);
        const int64_t t = it == byId.end() || it->second->timeNs == kNoTime ? INT64_MAX : it->second->timeNs;
        ranked.push_back({must.count(id) > 0, level, t, id});
    }
    std::partial_sort(ranked.begin(), ranked.begin() + kMaxChainNodes, ranked.end(), [](const Rank& a, const Rank& b) {
        return std::tie(b.must, b.level, a.time, a.id) < std::tie(a.must, a.level, b.time, b.id);
    });
    out.clear();
    for (size_t i = 0; i < kMaxChainNodes; ++i)
        out.push_back(ranked[i].id);
    std::sort(out.begin(), out.end());
    return out;
}

namespace {
// cgraph takes char*; it copies, so a scratch buffer is enough.
void setAttr(void* obj, const char* name, const std::string& value)
{
    std::string n(name), v(value), empty;
    agsafeset(obj, n.data(), v.data(), empty.data());
}

struct GvcDeleter {
    void operator()(GVC_t* g) const { gvFreeContext(g); }
};
} // namespace

ChainLayout layoutGraph(const std::vector<QSizeF>& sizes, const std::vector<GraphEdge>& graphEdges)
{
    ChainLayout out;
    if (sizes.empty())
        return out;

    // One context per layout: gvContext is cheap next to dot itself and
    // keeps this function free of global state.
    std::unique_ptr<GVC_t, GvcDeleter> gvc(gvContext());
    std::string name = "chain";
    Agraph_t* g = agopen(name.data(), Agdirected, nullptr);
    // Left to right: a wide fan-out (one fault, many ranks timing out) becomes
    // a tall column that scrolls, instead of a row no screen can hold.
    setAttr(g, "rankdir", "LR");
    setAttr(g, "nodesep", "0.25");
    setAttr(g, "ranksep", "2.4");  // room for the rule label between ranks
    std::vector<Agnode_t*> nodes;
    for (size_t i = 0; i < sizes.size(); ++i) {
        std::string id = "n" + std::to_string(i);
        Agnode_t* n = agnode(g, id.data(), 1);
        setAttr(n, "shape", "box");
        setAttr(n, "fixedsize", "true");
        setAttr(n, "width", std::to_string(sizes[i].width() / 72.0));   // inches
        setAttr(n, "height", std::to_string(sizes[i].height() / 72.0));
        setAttr(n, "label", "");
        nodes.push_back(n);
    }
    std::vector<std::pair<Agedge_t*, const GraphEdge*>> edges;
    for (const auto& e : graphEdges) {
        if (e.from >= nodes.size() || e.to >= nodes.size() || e.from == e.to)
            continue;
        std::string ename = "x" + std::to_string(edges.size());
        Agedge_t* ed = agedge(g, nodes[e.from], nodes[e.to], ename.data(), 1);
        edges.emplace_back(ed, &e);
    }
    if (gvLayout(gvc.get(), g, "dot") != 0) {
        out.error = QStringLiteral("Graphviz could not lay out the chain");
        agclose(g);
        return out;
    }
    const boxf bb = GD_bb(g);
    const double height = bb.UR.y;
    out.size = QSizeF(bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
    // Graphviz has y up; the scene has y down.
    auto flip = [&](pointf p) { return QPointF(p.x - bb.LL.x, height - p.y); };
    for (size_t i = 0; i < nodes.size(); ++i) {
        Agnode_t* n = nodes[i];
        out.nodes.push_back({static_cast<uint32_t>(i), flip(ND_coord(n)), QSizeF(ND_width(n) * 72.0, ND_height(n) * 72.0)});
    }
    for (const auto& [ed, ge] : edges) {
        ChainLayout::Edge e;
        e.from = static_cast<uint32_t>(ge->from);
        e.to = static_cast<uint32_t>(ge->to);
        e.rule = ge->label;
        const splines* spl = ED_spl(ed);
        if (spl && spl->size > 0) {
            const bezier& bz = spl->list[0];
            for (int i = 0; i < bz.size; ++i)
                e.spline.push_back(flip(bz.list[i]));
            if (bz.eflag)
                e.spline.push_back(flip(bz.ep));  // arrow tip
        }
        // Label near the head: in a fan-out the tails all meet at the cause,
        // the heads are one node apart.
        if (e.spline.size() >= 4)
            e.labelPos = e.spline[e.spline.size() - 4];
        else if (!e.spline.empty())
            e.labelPos = e.spline.front();
        out.edges.push_back(std::move(e));
    }
    gvFreeLayout(gvc.get(), g);
    agclose(g);
    return out;
}

ChainLayout layoutChain(const Result& result, const std::vector<QSizeF>& nodeSizes)
{
    const std::vector<uint32_t> events = chainEvents(result);
    std::unordered_map<uint32_t, size_t> index;
    std::vector<QSizeF> sizes;
    for (size_t i = 0; i < events.size(); ++i) {
        index.emplace(events[i], i);
        sizes.push_back(i < nodeSizes.size() ? nodeSizes[i] : QSizeF(120, 36));
    }
    std::vector<GraphEdge> edges;
    for (const auto& e : result.edges) {
        auto a = index.find(e.from.value), b = index.find(e.to.value);
        if (a != index.end() && b != index.end())
            edges.push_back({a->second, b->second, QString::fromStdString(e.rule)});
    }
    ChainLayout out = layoutGraph(sizes, edges);
    out.truncated = events.size() >= kMaxChainNodes;
    for (auto& n : out.nodes)
        n.event = events[n.event];
    for (auto& e : out.edges) {
        e.from = events[e.from];
        e.to = events[e.to];
    }
    return out;
}

} // namespace fl

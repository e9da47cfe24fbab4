// SPDX-License-Identifier: MIT
#include "chainlayout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>

namespace fl {

std::vector<uint32_t> chainEvents(const Result& result)
{
    std::set<uint32_t> ids;
    for (const auto& e : result.edges) {
        ids.insert(e.from);
        ids.insert(e.to);
    }
    if (result.rootCause)
        ids.insert(result.rootCause->event);
    // Without edges the candidates still deserve a place in the graph.
    if (ids.empty())
        for (const auto& c : result.candidates)
            ids.insert(c.event);
    std::vector<uint32_t> out(ids.begin(), ids.end());
    if (out.size() > kMaxChainNodes)
        out.resize(kMaxChainNodes);
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

ChainLayout layoutChain(const Result& result, const std::vector<QSizeF>& nodeSizes)
{
    ChainLayout out;
    const std::vector<uint32_t> events = chainEvents(result);
    out.truncated = events.size() >= kMaxChainNodes;
    if (events.empty())
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
    std::map<uint32_t, Agnode_t*> nodes;
    for (size_t i = 0; i < events.size(); ++i) {
        std::string id = "e" + std::to_string(events[i]);
        Agnode_t* n = agnode(g, id.data(), 1);
        const QSizeF s = i < nodeSizes.size() ? nodeSizes[i] : QSizeF(120, 36);
        setAttr(n, "shape", "box");
        setAttr(n, "fixedsize", "true");
        setAttr(n, "width", std::to_string(s.width() / 72.0));   // inches
        setAttr(n, "height", std::to_string(s.height() / 72.0));
        setAttr(n, "label", "");
        nodes[events[i]] = n;
    }
    std::vector<std::pair<Agedge_t*, const ChainEdge*>> edges;
    for (const auto& e : result.edges) {
        auto a = nodes.find(e.from), b = nodes.find(e.to);
        if (a == nodes.end() || b == nodes.end() || e.from == e.to)
            continue;
        std::string ename = "x" + std::to_string(edges.size());
        Agedge_t* ed = agedge(g, a->second, b->second, ename.data(), 1);
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
    for (uint32_t id : events) {
        Agnode_t* n = nodes[id];
        out.nodes.push_back({id, flip(ND_coord(n)), QSizeF(ND_width(n) * 72.0, ND_height(n) * 72.0)});
    }
    for (const auto& [ed, ce] : edges) {
        ChainLayout::Edge e;
        e.from = ce->from;
        e.to = ce->to;
        e.rule = QString::fromStdString(ce->rule);
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

} // namespace fl

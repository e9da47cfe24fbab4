// SPDX-License-Identifier: MIT
#include "views/chain/chainlayout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>

namespace fl {

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
    // cgraph keeps global state (its current graph, string dictionaries): the
    // chain's background job and a double-click expansion must not overlap.
    static std::mutex graphviz;
    const std::lock_guard lock(graphviz);

    // One context per layout: gvContext is cheap next to dot itself and
    // keeps this function free of global state.
    std::unique_ptr<GVC_t, GvcDeleter> gvc(gvContext());
    std::string name = "chain";
    Agraph_t* g = agopen(name.data(), Agdirected, nullptr);
    // Left to right: a wide fan-out (one fault, many ranks timing out) becomes
    // a tall column that scrolls, instead of a row no screen can hold.
    setAttr(g, "rankdir", "LR");
    setAttr(g, "nodesep", "0.25");
    setAttr(g, "ranksep", "0.5");  // labels are virtual nodes of their own rank: they make their room
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
        if (!e.label.isEmpty() && !e.labelSize.isEmpty()) {
            // An empty HTML table of the label's measured size: dot reserves
            // exactly the room Qt will draw in, whatever fonts dot knows.
            std::string html = "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"0\" FIXEDSIZE=\"TRUE\" WIDTH=\"" +
                               std::to_string(std::clamp(static_cast<int>(e.labelSize.width() + 0.5), 1, 60000)) + "\" HEIGHT=\"" +
                               std::to_string(std::clamp(static_cast<int>(e.labelSize.height() + 0.5), 1, 60000)) +
                               "\"><TR><TD></TD></TR></TABLE>";
            char* label = agstrdup_html(g, html.data());
            std::string n = "label", empty;
            agsafeset(ed, n.data(), label, empty.data());
            agstrfree(g, label);
        }
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
        if (const textlabel_t* l = ED_label(ed); l && l->set)
            e.labelPos = flip(l->pos);
        else if (e.spline.size() >= 4)
            e.labelPos = e.spline[e.spline.size() / 2];
        out.edges.push_back(std::move(e));
    }
    gvFreeLayout(gvc.get(), g);
    agclose(g);
    return out;
}

} // namespace fl

// SPDX-License-Identifier: MIT
// Layered layout of the symptom chain computed by Graphviz "dot". Pure data
// in, positions out (points, y down), so the layout is testable without a scene.
#pragma once

#include "model.h"

#include <QPointF>
#include <QSizeF>
#include <QString>

#include <vector>

namespace fl {

struct ChainLayout {
    struct Node {
        uint32_t event = 0;   // layoutChain: the event; layoutGraph: the node's index
        QPointF centre;
        QSizeF size;
    };
    struct Edge {
        uint32_t from = 0, to = 0;
        QString rule;
        std::vector<QPointF> spline;  // cubic bezier control points, Graphviz order
        QPointF labelPos;
    };
    std::vector<Node> nodes;
    std::vector<Edge> edges;
    QSizeF size;
    bool truncated = false;  // more chain nodes than kMaxNodes
    QString error;
};

inline constexpr size_t kMaxChainNodes = 400;  // dot is super-linear; beyond this, keep the root's neighbourhood

// nodeSizes[i] is the box, in points, of the i-th event of chainEvents().
ChainLayout layoutChain(const Result& result, const std::vector<QSizeF>& nodeSizes);

// Any graph: node i has box sizes[i]; an edge joins node indexes. Node::event
// and Edge::from/to hold indexes.
struct GraphEdge {
    size_t from = 0, to = 0;
    QString label;
};
ChainLayout layoutGraph(const std::vector<QSizeF>& sizes, const std::vector<GraphEdge>& edges);

// Every event that takes part in the chain (an end of some edge, or the root;
// the candidates when there is no edge), in id order, uncapped.
std::vector<uint32_t> chainMembers(const Result& result);

// chainMembers() capped for an event-per-box layout. Past kMaxChainNodes it keeps the root and the candidates, then the
// worst-levelled and earliest events: never the lowest ids, which follow file
// path order and would drop the root on a wide bundle.
std::vector<uint32_t> chainEvents(const Result& result);

} // namespace fl

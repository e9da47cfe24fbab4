// SPDX-License-Identifier: MIT
// Layered layout of the symptom chain computed by Graphviz "dot". Pure data
// in, positions out (points, y down), so the layout is testable without a scene.
#pragma once

#include <cstddef>
#include <cstdint>

#include <QPointF>
#include <QSizeF>
#include <QString>

#include <vector>

namespace fl {

struct ChainLayout {
    struct Node {
        uint32_t event = 0;   // the node's index in the sizes given to layoutGraph
        QPointF centre;
        QSizeF size;
    };
    struct Edge {
        uint32_t from = 0, to = 0;
        QString rule;
        std::vector<QPointF> spline;  // cubic bezier control points, Graphviz order
        QPointF labelPos;             // centre of the label's box, placed by dot
    };
    std::vector<Node> nodes;
    std::vector<Edge> edges;
    QSizeF size;
    QString error;
};

inline constexpr size_t kMaxChainNodes = 400;  // dot is super-linear; beyond this, keep the root's neighbourhood

// Node i has box sizes[i] (points); an edge joins node indexes. A label with a
// size gets room of that size from dot (a virtual node of its own, so labels
// never overlap boxes or each other); labelPos is its centre.
struct GraphEdge {
    size_t from = 0, to = 0;
    QString label;
    QSizeF labelSize;
};
// Thread-safe (Graphviz's own state is global: one layout at a time).
ChainLayout layoutGraph(const std::vector<QSizeF>& sizes, const std::vector<GraphEdge>& edges);

} // namespace fl

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
        uint32_t event = 0;
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

// Events that take part in the chain (an end of some edge, or the root), in id order.
std::vector<uint32_t> chainEvents(const Result& result);

} // namespace fl

// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/result.h"

#include <atomic>
#include <string>
#include <vector>

namespace etscope::core {

/// What to lay out: boxes of known size (measured by the caller with its own fonts), edges, and
/// clusters (expanded delegates). Units are points (1/72 inch), the unit of the Qt scene.
struct LayoutRequest {
    struct Node {
        double width = 0;
        double height = 0;
        int cluster = -1; ///< index into clusters, -1 for none
        /// Joined by an edge to a box outside this request (a separately laid out part's
        /// inputs and outputs): never stacked with the isolated boxes.
        bool linkedOutside = false;
    };
    struct Edge {
        int from = 0;
        int to = 0;
        /// > 0: an ordering constraint, not a drawn edge: `to` at least this many ranks below
        /// `from`, with no pull on either (weight 0); its result has no points.
        int orderOnly = 0;
    };
    struct Cluster {
        std::string label;
        int parent = -1; ///< the enclosing cluster (a lower index), -1 for none
        /// Laid out on its own and placed as one box (a large expanded delegate): dot's cost
        /// with clusters grows much faster than the sum of the parts. Ignored for clusters
        /// that contain others.
        bool separate = false;
    };
    std::vector<Node> nodes;
    std::vector<Edge> edges;
    std::vector<Cluster> clusters;
    std::string fontName = "DejaVu Sans";
    double fontSize = 9;
    /// A retry after Graphviz crashed on this request: the plainest attributes (no ordering
    /// constraint, one crossing-minimisation pass), which avoid the code paths that crash.
    bool safer = false;
};

struct LayoutPoint {
    double x = 0;
    double y = 0;
};

/// Plain geometry, y pointing down, origin at the top-left of the drawing.
struct LayoutResult {
    struct Node {
        double x = 0; ///< centre
        double y = 0;
        double width = 0;
        double height = 0;
    };
    struct Edge {
        std::vector<LayoutPoint> points; ///< cubic Bézier: p0, then (c1, c2, p) triples
        bool hasArrow = false;
        LayoutPoint arrowTip; ///< where the arrow head points (the target's border)
    };
    struct Cluster {
        double x = 0; ///< top-left
        double y = 0;
        double width = 0;
        double height = 0;
    };
    double width = 0;
    double height = 0;
    std::vector<Node> nodes;
    std::vector<Edge> edges; ///< parallel to the request's edges (empty points when Graphviz dropped one)
    std::vector<Cluster> clusters;
};

/// Lays the graph out with Graphviz `dot` (top to bottom) with attributes that keep each of its
/// phases bounded; edges are routed here through dot's virtual nodes, not by Graphviz. Graphviz
/// is not thread-safe: every call is serialised on one process-wide lock, so this may be called
/// from any one worker. Fails with a clear reason when Graphviz's layout plugins are missing,
/// when the cancel flag is set before the layout starts, or (Error::Code::Limit) when the graph
/// is deeper than kMaxGraphvizRanks, which would crash Graphviz.
Result<LayoutResult> layoutGraph(const LayoutRequest& request, const std::atomic<bool>* cancel = nullptr);

/// True when Graphviz's `dot` layout plugin can be loaded (checked once per process).
bool graphvizAvailable(std::string* reason = nullptr);

} // namespace etscope::core

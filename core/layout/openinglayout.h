// SPDX-License-Identifier: MIT
#pragma once

// Expanding a delegate or opening a group keeps the rest of the drawing where it was (the
// mental map): only the inside of the opened cluster is laid out, and the earlier drawing
// makes room for it.

#include "core/layout/graphlayout.h"

#include <optional>
#include <vector>

namespace etscope::core {

/// What is inside one cluster of a request, as a request of its own.
struct ClusterPart {
    LayoutRequest request; ///< its nodes, the edges between them, the clusters nested in it
    std::vector<int> nodes; ///< per node of `request`: the node of the whole request
    std::vector<int> edges; ///< per edge of `request`: the edge of the whole request
    std::vector<int> clusters; ///< per cluster of `request`: the cluster of the whole request
};

/// The nodes, internal edges and nested clusters of `cluster` (its own frame left out).
ClusterPart clusterPart(const LayoutRequest& request, int cluster);

/// How a request differs from an earlier one: one box of the earlier drawing opened into a
/// cluster; everything else is the same nodes, edges and clusters.
struct LayoutOpening {
    int box = -1; ///< the node of the earlier request that opened
    int cluster = -1; ///< the cluster of the new request it opened into
    std::vector<int> previousNode; ///< per node of the new request: the same node earlier, -1 inside the cluster
    std::vector<int> previousCluster; ///< per cluster of the new request: the same one earlier, -1 for new ones
};

/// The new drawing from the earlier one and the layout of clusterPart(request, opening.cluster).
/// The opened box grows right and down into the cluster's frame with its top-left corner in
/// place, and the drawing makes room: everything below the box moves down by the growth,
/// everything beside the frame and right of the box moves right (fading out just above and
/// below the frame); nothing above the box or left of it moves. Every other box keeps its
/// neighbours and every edge its route; edges into and out of the box continue to their
/// member. Empty when `opening` does not describe the two requests, or a frame stands beside
/// the opened one (then lay out the whole).
std::optional<LayoutResult> composeOpening(const LayoutRequest& request, const LayoutRequest& before,
    const LayoutResult& beforeLayout, const LayoutOpening& opening, const LayoutResult& inside);

/// The reverse, without Graphviz: the drawing of `request` from that of `opened`, where
/// `opening` says how `opened` differs from `request` (box in `request`, cluster in `opened`).
/// The cluster's frame shrinks back into the box at its top-left corner and the drawing closes
/// the room it took: what is below moves up, what is beside it and right of it moves left;
/// nothing above or left of it moves. Edges keep their routes outside the frame and those that
/// crossed its border end on (start from) the box. Empty when `opening` does not describe the
/// two requests, or a frame stands beside the opened one.
std::optional<LayoutResult> composeClosing(const LayoutRequest& request, const LayoutRequest& opened,
    const LayoutResult& openedLayout, const LayoutOpening& opening);

} // namespace etscope::core

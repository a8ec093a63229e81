// SPDX-License-Identifier: MIT
#pragma once

#include "graph.h"

#include <functional>

namespace etscope::core {

/// Where a node of a flattened graph came from: a top-level node, or a node inside the
/// subgraph of a top-level delegate node.
struct NodeOrigin {
    NodeId top; ///< node of the top-level graph
    NodeId inner; ///< node inside top's subgraph, or none for top-level nodes

    bool operator==(const NodeOrigin&) const = default;
};

/// A group of flattened nodes drawn as one box: an expanded delegate.
struct Cluster {
    NodeId owner; ///< the delegate node of the top-level graph
    std::string label;
    std::vector<NodeId> members; ///< nodes of the flattened graph
};

/// A top-level graph with some delegates expanded in place: their inner nodes replace the
/// delegate node, outer edges reconnect to the inner inputs/outputs by argument position.
struct FlatGraph {
    Graph graph;
    std::vector<NodeOrigin> origins; ///< parallel to graph.nodes
    std::vector<Cluster> clusters;
    int clusterOf(NodeId node) const; ///< index into clusters, -1 when none
    std::vector<int> nodeCluster; ///< parallel to graph.nodes
};

/// Flattens `top`, expanding every delegate node with a subgraph for which `expand` is true.
FlatGraph flattenGraph(const Graph& top, const std::function<bool(const Node&)>& expand);

} // namespace etscope::core

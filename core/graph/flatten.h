// SPDX-License-Identifier: MIT
#pragma once

#include "core/graph/graph.h"
#include "core/graph/grouping.h"

#include <functional>

namespace etscope::core {

/// Where a node of a flattened graph came from: a top-level node, a node inside the subgraph
/// of a top-level delegate node, or a group of a long method (no top-level node of its own).
struct NodeOrigin {
    NodeId top; ///< node of the top-level graph; none for a group
    NodeId inner; ///< node inside top's subgraph, or none for top-level nodes; the group index for groups

    bool operator==(const NodeOrigin&) const = default;
    static NodeOrigin ofGroup(int group) { return { NodeId::none(), NodeId(group) }; }
    /// The group index when this names a group, else -1.
    int group() const { return !top.valid() && inner.valid() ? inner.value : -1; }
};

/// A group of flattened nodes drawn inside one frame: an expanded delegate or an opened group.
struct Cluster {
    NodeId owner; ///< the delegate node of the top-level graph; none for a group
    int group = -1; ///< index into the grouping for an opened group
    int parent = -1; ///< the enclosing cluster (a delegate inside an opened group), -1 for none
    std::string label;
    std::vector<NodeId> members; ///< nodes of the flattened graph directly inside
};

/// A top-level graph with some delegates expanded in place (their inner nodes replace the
/// delegate node, outer edges reconnect to the inner inputs/outputs by argument position) and,
/// for long methods, closed groups drawn as one box each.
struct FlatGraph {
    Graph graph;
    std::vector<NodeOrigin> origins; ///< parallel to graph.nodes
    std::vector<Cluster> clusters; ///< parents before their children
    int clusterOf(NodeId node) const; ///< index into clusters (the innermost), -1 when none
    std::vector<int> nodeCluster; ///< parallel to graph.nodes
    /// Parallel to graph.nodes: small constants drawn inside this node instead of as nodes of
    /// their own ("const 2: fp32 [8]"), when FlattenOptions::inlineSmallConstants.
    std::vector<std::vector<std::string>> inlined;
    /// Parallel to graph.nodes: a value drawn again beside one of its readers (a shared constant
    /// or the scalar a node computes, e.g. a sym_size.int); its origin names the constant or the
    /// producing node, which is also drawn once where it is computed.
    std::vector<bool> copies;
};

struct FlattenOptions {
    /// Which delegate nodes with a subgraph to expand.
    std::function<bool(const Node&)> expand = [](const Node&) { return false; };
    /// Groups of a long method (nullptr or empty: no groups).
    const Grouping* grouping = nullptr;
    /// Which groups are open; closed groups are one Group node each.
    std::function<bool(int group)> openGroup = [](int) { return false; };
    /// > 0: a constant (top-level or inside an expanded delegate) with at least this many
    /// readers (a scale every layer uses) is drawn once beside each reader instead of once with
    /// an edge into every layer.
    int constantPerReaderAbove = 0;
    /// > 0: a scalar with at least this many readers is drawn beside each reader instead of once
    /// with a fan of long edges: the Int/Double/Bool a node computes (sym_size.int → every view's
    /// size list; the node itself stays where it is computed) and a constant of at most
    /// kSmallConstantElements elements (a shared scale).
    int scalarPerReaderAbove = 0;
    /// Constants of at most kSmallConstantElements elements (scalars, a few values) are not
    /// drawn as nodes: each reader lists them (FlatGraph::inlined) and their edges go.
    bool inlineSmallConstants = false;
};

constexpr std::int64_t kSmallConstantElements = 4;

FlatGraph flattenGraph(const Graph& top, const FlattenOptions& options);

/// Flattens `top`, expanding every delegate node with a subgraph for which `expand` is true.
FlatGraph flattenGraph(const Graph& top, const std::function<bool(const Node&)>& expand);

} // namespace etscope::core

// SPDX-License-Identifier: MIT
#include "flatten.h"

#include <algorithm>
#include <map>

namespace etscope::core {

namespace {

/// Inner port for the outer argument position; falls back to the n-th port of that kind when
/// positions are missing (then the connection is marked inferred).
NodeId innerPort(const Graph& inner, NodeKind kind, int position, int ordinal, bool& inferred)
{
    for (const Node& node : inner.nodes)
        if (node.kind == kind && node.argPosition == position)
            return node.id;
    int seen = 0;
    for (const Node& node : inner.nodes) {
        if (node.kind != kind)
            continue;
        if (seen++ == ordinal) {
            inferred = true;
            return node.id;
        }
    }
    return NodeId::none();
}

} // namespace

int FlatGraph::clusterOf(NodeId node) const
{
    return node.valid() && node.index() < nodeCluster.size() ? nodeCluster[node.index()] : -1;
}

FlatGraph flattenGraph(const Graph& top, const std::function<bool(const Node&)>& expand)
{
    FlatGraph flat;
    flat.graph.name = top.name;
    flat.graph.warnings = top.warnings;
    std::vector<NodeId> topMap(top.nodes.size());
    std::map<std::int32_t, std::vector<NodeId>> innerMap; // top delegate id → inner id → flat id

    for (const Node& node : top.nodes) {
        const bool expanded = node.kind == NodeKind::Delegate && node.subgraph && expand(node);
        if (!expanded) {
            Node copy = node;
            topMap[node.id.index()] = flat.graph.addNode(std::move(copy));
            flat.origins.push_back({ node.id, NodeId::none() });
            flat.nodeCluster.push_back(-1);
            continue;
        }
        Cluster cluster;
        cluster.owner = node.id;
        cluster.label = node.label + " #" + std::to_string(node.delegate.value);
        const int clusterIndex = static_cast<int>(flat.clusters.size());
        std::vector<NodeId>& ids = innerMap[node.id.value];
        for (const Node& inner : node.subgraph->nodes) {
            Node copy = inner;
            copy.subgraph = nullptr;
            const NodeId id = flat.graph.addNode(std::move(copy));
            ids.push_back(id);
            cluster.members.push_back(id);
            flat.origins.push_back({ node.id, inner.id });
            flat.nodeCluster.push_back(clusterIndex);
        }
        for (const Edge& edge : node.subgraph->edges)
            flat.graph.addEdge({ ids[edge.from.index()], ids[edge.to.index()], edge.value, edge.meta, edge.inferred });
        flat.clusters.push_back(std::move(cluster));
    }

    for (const Edge& edge : top.edges) {
        Edge copy = edge;
        copy.from = topMap[edge.from.index()];
        copy.to = topMap[edge.to.index()];
        const Node& from = top.node(edge.from);
        const Node& to = top.node(edge.to);
        if (const auto it = innerMap.find(to.id.value); it != innerMap.end()) {
            const auto pos = std::find(to.args.begin(), to.args.end(), edge.value.value);
            const int position = pos == to.args.end() ? -1 : static_cast<int>(pos - to.args.begin());
            bool inferred = position < 0;
            const NodeId port = innerPort(*to.subgraph, NodeKind::Input, position, std::max(position, 0), inferred);
            if (!port.valid())
                continue;
            copy.to = it->second[port.index()];
            copy.inferred = copy.inferred || inferred;
        }
        if (const auto it = innerMap.find(from.id.value); it != innerMap.end()) {
            const auto pos = std::find(from.args.rbegin(), from.args.rend(), edge.value.value);
            const int position = pos == from.args.rend() ? -1 : static_cast<int>(from.args.rend() - pos - 1);
            const int ordinal = std::max(0, position - std::max(0, from.inputCount));
            bool inferred = position < 0;
            const NodeId port = innerPort(*from.subgraph, NodeKind::Output, position, ordinal, inferred);
            if (!port.valid())
                continue;
            copy.from = it->second[port.index()];
            copy.inferred = copy.inferred || inferred;
        }
        flat.graph.addEdge(std::move(copy));
    }
    return flat;
}

} // namespace etscope::core

// SPDX-License-Identifier: MIT
#include "graph.h"

namespace etscope::core {

std::string_view nodeKindName(NodeKind kind)
{
    switch (kind) {
    case NodeKind::Input:
        return "input";
    case NodeKind::Output:
        return "output";
    case NodeKind::Constant:
        return "constant";
    case NodeKind::State:
        return "state";
    case NodeKind::Operator:
        return "operator";
    case NodeKind::Delegate:
        return "delegate";
    case NodeKind::Move:
        return "move";
    case NodeKind::JumpFalse:
        return "jump_false";
    case NodeKind::Free:
        return "free";
    case NodeKind::View:
        return "view";
    case NodeKind::Unknown:
        return "unknown";
    case NodeKind::Group:
        return "group";
    }
    return "unknown";
}

NodeId Graph::addNode(Node node)
{
    node.id = NodeId(static_cast<std::int32_t>(nodes.size()));
    nodes.push_back(std::move(node));
    return nodes.back().id;
}

void Graph::addEdge(Edge edge)
{
    edges.push_back(std::move(edge));
}

std::vector<const Edge*> Graph::inEdges(NodeId id) const
{
    std::vector<const Edge*> result;
    for (const Edge& edge : edges)
        if (edge.to == id)
            result.push_back(&edge);
    return result;
}

std::vector<const Edge*> Graph::outEdges(NodeId id) const
{
    std::vector<const Edge*> result;
    for (const Edge& edge : edges)
        if (edge.from == id)
            result.push_back(&edge);
    return result;
}

GraphAdjacency Graph::adjacency() const
{
    GraphAdjacency adjacency;
    adjacency.in.resize(nodes.size());
    adjacency.out.resize(nodes.size());
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const Edge& edge = edges[e];
        if (edge.from.valid() && edge.from.index() < nodes.size())
            adjacency.out[edge.from.index()].push_back(e);
        if (edge.to.valid() && edge.to.index() < nodes.size())
            adjacency.in[edge.to.index()].push_back(e);
    }
    return adjacency;
}

std::size_t Graph::operatorCount(bool recursive) const
{
    std::size_t count = 0;
    for (const Node& node : nodes) {
        if (node.kind == NodeKind::Operator)
            ++count;
        if (recursive && node.subgraph)
            count += node.subgraph->operatorCount(true);
    }
    return count;
}

} // namespace etscope::core

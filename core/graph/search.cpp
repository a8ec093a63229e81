// SPDX-License-Identifier: MIT
#include "core/graph/search.h"

#include "core/util/text.h"

#include <algorithm>
#include <cctype>

namespace etscope::core {

namespace {

std::string lower(std::string_view view)
{
    std::string text(view);
    std::transform(
        text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::string shapeText(const TensorMeta& meta)
{
    return meta.dtype + " " + formatShape(meta.shape);
}

/// The first field of `node` matching `needle` (already lower case), or empty.
std::pair<std::string, std::string> match(
    const Graph& graph, const GraphAdjacency& adjacency, const Node& node, const std::string& needle)
{
    if (lower(node.label).find(needle) != std::string::npos)
        return { node.kind == NodeKind::Delegate ? "backend" : "name", node.label };
    if (!node.opType.empty() && lower(node.opType).find(needle) != std::string::npos)
        return { "op type", node.opType };
    for (const std::size_t e : adjacency.out[node.id.index()]) {
        const Edge& edge = graph.edges[e];
        if (!edge.meta.known())
            continue;
        const std::string text = shapeText(edge.meta);
        if (lower(text).find(needle) != std::string::npos)
            return { "shape", text };
    }
    for (const auto attribute : node.attributes)
        if (lower(attribute.value).find(needle) != std::string::npos)
            return { "attribute", std::string(attribute.name).append(": ").append(attribute.value) };
    return {};
}

} // namespace

std::vector<SearchHit> searchGraph(const Graph& top, const std::string& query, std::size_t limit)
{
    std::vector<SearchHit> hits;
    const std::string needle = lower(query);
    if (needle.empty())
        return hits;
    const GraphAdjacency adjacency = top.adjacency();
    for (const Node& node : top.nodes) {
        if (hits.size() >= limit)
            break;
        auto [field, text] = match(top, adjacency, node, needle);
        if (!field.empty())
            hits.push_back({ { node.id, NodeId::none() }, field, text });
        if (!node.subgraph)
            continue;
        const GraphAdjacency innerAdjacency = node.subgraph->adjacency();
        for (const Node& inner : node.subgraph->nodes) {
            if (hits.size() >= limit)
                break;
            auto [innerField, innerText] = match(*node.subgraph, innerAdjacency, inner, needle);
            if (!innerField.empty())
                hits.push_back({ { node.id, inner.id }, innerField, innerText });
        }
    }
    return hits;
}

std::vector<NodeOrigin> nodesOfType(const Graph& top, const std::string& opType)
{
    std::vector<NodeOrigin> result;
    for (const Node& node : top.nodes) {
        if (node.opType == opType && node.kind != NodeKind::Delegate)
            result.push_back({ node.id, NodeId::none() });
        if (node.kind == NodeKind::Delegate && node.subgraph)
            for (const Node& inner : node.subgraph->nodes)
                if (inner.kind == NodeKind::Operator && inner.opType == opType)
                    result.push_back({ node.id, inner.id });
    }
    return result;
}

} // namespace etscope::core

// SPDX-License-Identifier: MIT
#include "core/graph/graph.h"

#include <atomic>
#include <mutex>

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

void AttributeList::add(std::string_view name, std::string_view value)
{
    m_text.append(name);
    m_ends.push_back(static_cast<std::uint32_t>(m_text.size()));
    m_text.append(value);
    m_ends.push_back(static_cast<std::uint32_t>(m_text.size()));
}

void AttributeList::addFront(std::string_view name, std::string_view value)
{
    AttributeList front;
    front.m_text.reserve(name.size() + value.size() + m_text.size());
    front.m_ends.reserve(m_ends.size() + 2);
    front.add(name, value);
    front.m_text.append(m_text);
    const auto shift = static_cast<std::uint32_t>(name.size() + value.size());
    for (const std::uint32_t end : m_ends)
        front.m_ends.push_back(end + shift);
    *this = std::move(front);
}

void AttributeList::shrink()
{
    m_text.shrink_to_fit();
    m_ends.shrink_to_fit();
}

AttributeList::Entry AttributeList::operator[](std::size_t index) const
{
    const std::size_t nameBegin = index == 0 ? 0 : m_ends[2 * index - 1];
    const std::size_t nameEnd = m_ends[2 * index];
    const std::size_t valueEnd = m_ends[2 * index + 1];
    const std::string_view text(m_text);
    return { text.substr(nameBegin, nameEnd - nameBegin), text.substr(nameEnd, valueEnd - nameEnd) };
}

std::optional<std::string_view> AttributeList::find(std::string_view name) const
{
    for (const Entry entry : *this)
        if (entry.name == name)
            return entry.value;
    return std::nullopt;
}

NodeId Graph::addNode(Node node)
{
    node.attributes.shrink();
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
        // A deferred inside is counted without decoding it (inner graphs hold no delegates).
        if (recursive && node.subgraph)
            count += node.subgraph.decoded() ? node.subgraph->operatorCount(true) : node.subgraph.operatorCount();
    }
    return count;
}

struct SubgraphRef::State {
    std::size_t operators = 0;
    std::atomic<const Graph*> ready { nullptr }; ///< set once `graph` is final
    std::mutex mutex; ///< held while decoding
    std::shared_ptr<const Graph> graph;
    std::vector<Warning> warnings;
    Decode decode; ///< empty for a held graph; dropped once run
    bool deferred = false;
};

SubgraphRef::SubgraphRef(std::shared_ptr<const Graph> graph, int)
{
    if (!graph)
        return;
    m_state = std::make_shared<State>();
    m_state->operators = graph->operatorCount();
    m_state->graph = std::move(graph);
    m_state->ready.store(m_state->graph.get(), std::memory_order_release);
}

SubgraphRef SubgraphRef::deferred(std::size_t operators, Decode decode)
{
    SubgraphRef ref;
    ref.m_state = std::make_shared<State>();
    ref.m_state->operators = operators;
    ref.m_state->decode = std::move(decode);
    ref.m_state->deferred = true;
    return ref;
}

const Graph* SubgraphRef::get() const
{
    if (!m_state)
        return nullptr;
    if (const Graph* graph = m_state->ready.load(std::memory_order_acquire))
        return graph;
    // One decode per graph: a second caller (another thread) waits here for the first's result.
    const std::lock_guard lock(m_state->mutex);
    if (!m_state->graph) {
        Decoded decoded;
        if (m_state->decode)
            decoded = m_state->decode();
        m_state->decode = nullptr; // its captures (mapped files, caches) are no longer needed
        m_state->warnings = std::move(decoded.warnings);
        m_state->graph = decoded.graph ? std::move(decoded.graph) : std::make_shared<const Graph>();
        m_state->ready.store(m_state->graph.get(), std::memory_order_release);
    }
    return m_state->graph.get();
}

std::shared_ptr<const Graph> SubgraphRef::shared() const
{
    if (!get())
        return nullptr;
    return m_state->graph;
}

bool SubgraphRef::decoded() const
{
    return m_state && m_state->ready.load(std::memory_order_acquire) != nullptr;
}

bool SubgraphRef::deferredDecode() const
{
    return m_state && m_state->deferred;
}

std::size_t SubgraphRef::operatorCount() const
{
    return m_state ? m_state->operators : 0;
}

std::vector<Warning> SubgraphRef::warnings() const
{
    if (!decoded())
        return {};
    const std::lock_guard lock(m_state->mutex);
    return m_state->warnings;
}

} // namespace etscope::core

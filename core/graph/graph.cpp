// SPDX-License-Identifier: MIT
#include "core/graph/graph.h"

#include <atomic>
#include <cstring>
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

std::uint32_t AttributeList::word(std::size_t index) const
{
    std::uint32_t value = 0;
    std::memcpy(&value, m_data.data() + index * sizeof value, sizeof value);
    return value;
}

std::size_t AttributeList::size() const
{
    return m_data.empty() ? 0 : word(0);
}

void AttributeList::add(std::string_view name, std::string_view value)
{
    constexpr std::size_t kWord = sizeof(std::uint32_t);
    if (m_data.empty())
        m_data.assign(kWord, '\0');
    const std::size_t count = size();
    const std::size_t textBegin = kWord * (1 + 2 * count);
    const std::size_t textSize = m_data.size() - textBegin;
    const std::uint32_t ends[2] = { static_cast<std::uint32_t>(textSize + name.size()),
        static_cast<std::uint32_t>(textSize + name.size() + value.size()) };
    m_data.insert(textBegin, reinterpret_cast<const char*>(ends), sizeof ends);
    m_data.append(name);
    m_data.append(value);
    const auto newCount = static_cast<std::uint32_t>(count + 1);
    std::memcpy(m_data.data(), &newCount, sizeof newCount);
}

void AttributeList::addFront(std::string_view name, std::string_view value)
{
    AttributeList front;
    front.m_data.reserve(
        m_data.size() + 2 * sizeof(std::uint32_t) + name.size() + value.size() + sizeof(std::uint32_t));
    front.add(name, value);
    for (const Entry entry : *this)
        front.add(entry.name, entry.value);
    *this = std::move(front);
}

void AttributeList::shrink()
{
    m_data.shrink_to_fit();
}

AttributeList::Entry AttributeList::operator[](std::size_t index) const
{
    const std::size_t nameBegin = index == 0 ? 0 : word(2 * index);
    const std::size_t nameEnd = word(2 * index + 1);
    const std::size_t valueEnd = word(2 * index + 2);
    const std::string_view text = std::string_view(m_data).substr(sizeof(std::uint32_t) * (1 + 2 * size()));
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

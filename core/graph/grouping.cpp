// SPDX-License-Identifier: MIT
#include "core/graph/grouping.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <unordered_map>

namespace etscope::core {

namespace {

constexpr int kNoPosition = std::numeric_limits<int>::max();

bool drawnAtTop(NodeKind kind)
{
    return kind == NodeKind::Input || kind == NodeKind::Output;
}

/// Instruction nodes in program order.
std::vector<NodeId> programOrder(const Graph& graph)
{
    std::vector<NodeId> order;
    for (const Node& node : graph.nodes)
        if (node.instruction.valid() && !drawnAtTop(node.kind))
            order.push_back(node.id);
    std::stable_sort(order.begin(), order.end(), [&](NodeId a, NodeId b) {
        const Node& x = graph.node(a);
        const Node& y = graph.node(b);
        return x.chain != y.chain ? x.chain < y.chain : x.instruction < y.instruction;
    });
    return order;
}

/// Per boundary i (between positions i-1 and i): how many nodes' values are live across it,
/// written before and read after.
std::vector<int> crossings(const Graph& graph, const std::vector<int>& position, std::size_t count)
{
    std::vector<int> lastRead(graph.nodes.size(), -1);
    for (const Edge& edge : graph.edges)
        if (const int b = position[edge.to.index()]; b != kNoPosition)
            lastRead[edge.from.index()] = std::max(lastRead[edge.from.index()], b);
    std::vector<std::int64_t> diff(count + 2, 0);
    for (std::size_t n = 0; n < graph.nodes.size(); ++n) {
        const int a = position[n];
        const int b = lastRead[n];
        if (a == kNoPosition || a >= b)
            continue;
        ++diff[static_cast<std::size_t>(a) + 1];
        --diff[static_cast<std::size_t>(b) + 1];
    }
    std::vector<int> cut(count + 1, 0);
    std::int64_t running = 0;
    for (std::size_t i = 0; i <= count; ++i) {
        running += diff[i];
        cut[i] = static_cast<int>(running);
    }
    return cut;
}

/// Group starts (positions), ending with `count`.
std::vector<int> boundaries(const std::vector<int>& cut, int count, int groups)
{
    const int size = (count + groups - 1) / groups;
    std::vector<int> bounds { 0 };
    for (int k = 1; k < groups; ++k) {
        const int nominal = static_cast<int>(static_cast<std::int64_t>(k) * count / groups);
        const int low = std::max(nominal - size / 4, bounds.back() + std::max(1, size / 2));
        const int high = std::min(nominal + size / 4, count - std::max(1, size / 2));
        if (low > high)
            continue;
        int best = low;
        for (int i = low; i <= high; ++i) {
            const auto distance = [&](int p) { return std::abs(p - nominal); };
            if (cut[static_cast<std::size_t>(i)] < cut[static_cast<std::size_t>(best)]
                || (cut[static_cast<std::size_t>(i)] == cut[static_cast<std::size_t>(best)]
                    && distance(i) < distance(best)))
                best = i;
        }
        bounds.push_back(best);
    }
    bounds.push_back(count);
    return bounds;
}

void summarise(const Graph& graph, NodeGroup& group)
{
    std::unordered_map<std::string, int> counts;
    for (const NodeId id : group.members) {
        const Node& node = graph.node(id);
        if (node.kind == NodeKind::Operator) {
            ++group.operators;
            ++counts[node.opType.empty() ? node.label : node.opType];
        } else if (node.kind == NodeKind::Delegate) {
            ++group.delegates;
            ++counts[node.label];
        }
    }
    std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
    std::sort(sorted.begin(), sorted.end(),
        [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    sorted.resize(std::min<std::size_t>(sorted.size(), 3));
    group.topOperators = std::move(sorted);
}

} // namespace

std::string groupLabel(const NodeGroup& group)
{
    return "instructions " + std::to_string(group.first.value) + "\u2013" + std::to_string(group.last.value);
}

Grouping groupLongGraph(const Graph& graph, std::size_t groupAbove)
{
    Grouping grouping;
    if (graph.nodes.size() <= groupAbove)
        return grouping;
    const std::vector<NodeId> order = programOrder(graph);
    const auto count = static_cast<int>(order.size());
    const auto wanted = (graph.nodes.size() + kGroupNodes - 1) / kGroupNodes;
    const int groups = static_cast<int>(
        std::min<std::size_t>(std::clamp<std::size_t>(wanted, 2, kMaxGroups), order.size() / kMinGroupInstructions));
    if (groups < 2)
        return grouping;

    // Program position of every node: instructions their own, constants their first reader's.
    std::vector<int> position(graph.nodes.size(), kNoPosition);
    for (int p = 0; p < count; ++p)
        position[order[static_cast<std::size_t>(p)].index()] = p;
    for (const Edge& edge : graph.edges) {
        const Node& from = graph.node(edge.from);
        if (from.instruction.valid() || drawnAtTop(from.kind))
            continue;
        int& first = position[edge.from.index()];
        first = std::min(first, position[edge.to.index()]);
    }

    const std::vector<int> bounds = boundaries(crossings(graph, position, order.size()), count, groups);
    grouping.groups.resize(bounds.size() - 1);
    grouping.groupOf.assign(graph.nodes.size(), -1);
    for (const Node& node : graph.nodes) {
        const int p = position[node.id.index()];
        if (p == kNoPosition || drawnAtTop(node.kind))
            continue;
        const auto g = static_cast<int>(std::upper_bound(bounds.begin(), bounds.end(), p) - bounds.begin()) - 1;
        grouping.groupOf[node.id.index()] = g;
        grouping.groups[static_cast<std::size_t>(g)].members.push_back(node.id);
    }
    for (std::size_t g = 0; g < grouping.groups.size(); ++g) {
        NodeGroup& group = grouping.groups[g];
        const Node& first = graph.node(order[static_cast<std::size_t>(bounds[g])]);
        const Node& last = graph.node(order[static_cast<std::size_t>(bounds[g + 1] - 1)]);
        group.chain = first.chain;
        group.first = first.instruction;
        group.last = last.instruction;
        summarise(graph, group);
    }
    return grouping;
}

} // namespace etscope::core

// SPDX-License-Identifier: MIT
#include "core/graph/grouping.h"

#include <algorithm>
#include <cmath>
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

/// Program position of every node: instructions their own, constants their first reader's.
std::vector<int> programPositions(const Graph& graph, const std::vector<NodeId>& order)
{
    std::vector<int> position(graph.nodes.size(), kNoPosition);
    for (std::size_t p = 0; p < order.size(); ++p)
        position[order[p].index()] = static_cast<int>(p);
    for (const Edge& edge : graph.edges) {
        const Node& from = graph.node(edge.from);
        if (from.instruction.valid() || drawnAtTop(from.kind))
            continue;
        int& first = position[edge.from.index()];
        first = std::min(first, position[edge.to.index()]);
    }
    return position;
}

void summarise(const Graph& graph, NodeGroup& group);

/// A run of positions [begin, end) drawn as one group.
struct Range {
    int begin = 0;
    int end = 0;
    std::string name;
};

/// Groups of the given runs (in order, disjoint); nodes whose position falls outside every run
/// stay at the top level.
Grouping groupRanges(const Graph& graph, const std::vector<NodeId>& order, const std::vector<Range>& ranges)
{
    Grouping grouping;
    if (ranges.empty())
        return grouping;
    const std::vector<int> position = programPositions(graph, order);
    std::vector<int> rangeAt(order.size(), -1);
    for (std::size_t r = 0; r < ranges.size(); ++r)
        for (int p = ranges[r].begin; p < ranges[r].end; ++p)
            rangeAt[static_cast<std::size_t>(p)] = static_cast<int>(r);
    grouping.groups.resize(ranges.size());
    grouping.groupOf.assign(graph.nodes.size(), -1);
    for (const Node& node : graph.nodes) {
        const int p = position[node.id.index()];
        if (p == kNoPosition || drawnAtTop(node.kind))
            continue;
        const int g = rangeAt[static_cast<std::size_t>(p)];
        if (g < 0)
            continue;
        grouping.groupOf[node.id.index()] = g;
        grouping.groups[static_cast<std::size_t>(g)].members.push_back(node.id);
    }
    for (std::size_t g = 0; g < ranges.size(); ++g) {
        NodeGroup& group = grouping.groups[g];
        const Node& first = graph.node(order[static_cast<std::size_t>(ranges[g].begin)]);
        const Node& last = graph.node(order[static_cast<std::size_t>(ranges[g].end - 1)]);
        group.name = ranges[g].name;
        group.chain = first.chain;
        group.first = first.instruction;
        group.last = last.instruction;
        summarise(graph, group);
    }
    return grouping;
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
    std::string range
        = "instructions " + std::to_string(group.first.value) + "\u2013" + std::to_string(group.last.value);
    if (group.name.empty())
        return range;
    // Named: "block 3 · #62–92", short enough for a box.
    return group.name + " \u00b7 #" + std::to_string(group.first.value) + "\u2013" + std::to_string(group.last.value);
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

    const std::vector<int> position = programPositions(graph, order);

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

std::optional<Repetition> findRepetition(const Graph& graph)
{
    const std::vector<NodeId> order = programOrder(graph);
    const int n = static_cast<int>(order.size());
    if (n < kMinRepeatedBlocks * kMinBlockInstructions)
        return std::nullopt;
    // Operator types as small integers: what an instruction runs (its operator, backend or kind).
    std::vector<int> type(order.size());
    {
        std::unordered_map<std::string, int> ids;
        for (std::size_t p = 0; p < order.size(); ++p) {
            const Node& node = graph.node(order[p]);
            const std::string key = node.opType.empty() ? std::string(nodeKindName(node.kind)) : node.opType;
            type[p] = ids.try_emplace(key, static_cast<int>(ids.size())).first->second;
        }
    }
    for (int period = kMinBlockInstructions; period * kMinRepeatedBlocks <= n; ++period) {
        const int overlap = n - period;
        // Stop early once too many mismatches make the share unreachable.
        const int allowed = overlap - static_cast<int>(std::ceil(kRepeatMatchShare * overlap));
        int mismatches = 0;
        for (int i = 0; i < overlap && mismatches <= allowed; ++i)
            mismatches += type[static_cast<std::size_t>(i)]
                != type[static_cast<std::size_t>(i) + static_cast<std::size_t>(period)];
        if (mismatches > allowed)
            continue;
        // The repetition starts at the first position from which a whole block matches the next.
        int start = -1;
        for (int i = 0, run = 0; i < overlap && start < 0; ++i) {
            run = type[static_cast<std::size_t>(i)]
                    == type[static_cast<std::size_t>(i) + static_cast<std::size_t>(period)]
                ? run + 1
                : 0;
            if (run == period)
                start = i - period + 1;
        }
        if (start < 0)
            continue;
        // Cut where the fewest values are live, within a quarter block of that start (an
        // instruction before the blocks can run the same operator as a block's last one).
        const std::vector<int> live = crossings(graph, programPositions(graph, order), order.size());
        int best = start;
        // Nothing is live before position 0: a cut there only counts when the repetition starts there.
        const int low = start > 0 ? std::max(1, start - period / 4) : 0;
        for (int i = low; i <= std::min(n - 1, start + period / 4); ++i)
            if (live[static_cast<std::size_t>(i)] < live[static_cast<std::size_t>(best)]
                || (live[static_cast<std::size_t>(i)] == live[static_cast<std::size_t>(best)]
                    && std::abs(i - start) < std::abs(best - start)))
                best = i;
        const int blocks = (n - best) / period;
        if (blocks < kMinRepeatedBlocks)
            continue;
        return Repetition { period, best, blocks };
    }
    return std::nullopt;
}

Grouping groupRepeatedBlocks(const Graph& graph, std::size_t groupAbove)
{
    if (graph.nodes.size() <= groupAbove)
        return {};
    const std::optional<Repetition> repetition = findRepetition(graph);
    if (!repetition)
        return {};
    const std::vector<NodeId> order = programOrder(graph);
    const int n = static_cast<int>(order.size());
    std::vector<Range> ranges;
    int begin = repetition->start;
    for (int b = 0; b < repetition->blocks; ++b, begin += repetition->period)
        ranges.push_back({ begin, begin + repetition->period, "block " + std::to_string(b + 1) });
    if (const int tail = n - begin; tail > 0 && 2 * tail >= repetition->period)
        ranges.push_back({ begin, n, "block " + std::to_string(repetition->blocks + 1) + " (partial)" });
    // A prefix as long as half a block (an embedding and its reshapes) is a group of its own.
    if (2 * repetition->start >= repetition->period)
        ranges.insert(ranges.begin(), Range { 0, repetition->start, "before the blocks" });
    return groupRanges(graph, order, ranges);
}

std::string innermostModule(std::string_view stack)
{
    // Entries "key,path,type" joined by ';'; the innermost module is the last entry.
    while (!stack.empty() && (stack.back() == ';' || stack.back() == ' '))
        stack.remove_suffix(1);
    const std::size_t semicolon = stack.rfind(';');
    std::string_view entry = semicolon == std::string_view::npos ? stack : stack.substr(semicolon + 1);
    const std::size_t first = entry.find(',');
    const std::size_t last = entry.rfind(',');
    if (first == std::string_view::npos || last == first)
        return {};
    return std::string(entry.substr(first + 1, last - first - 1));
}

namespace {

/// The first `depth` dot-separated parts of a module path ("layers.0.attention", 2 → "layers.0").
std::string_view modulePrefix(std::string_view path, int depth)
{
    std::size_t end = 0;
    for (int d = 0; d < depth; ++d) {
        const std::size_t dot = path.find('.', end == 0 ? 0 : end + 1);
        if (dot == std::string_view::npos)
            return path;
        end = dot;
    }
    return path.substr(0, end);
}

} // namespace

Grouping groupByModules(const Graph& graph, const std::map<int, std::string>& moduleOf)
{
    const std::vector<NodeId> order = programOrder(graph);
    const int n = static_cast<int>(order.size());
    if (moduleOf.empty() || n < kMinRepeatedBlocks)
        return {};
    std::vector<std::string_view> path(order.size());
    int deepest = 0;
    for (std::size_t p = 0; p < order.size(); ++p) {
        const auto it = moduleOf.find(graph.node(order[p]).instruction.value);
        if (it == moduleOf.end())
            continue;
        path[p] = it->second;
        deepest = std::max(deepest, static_cast<int>(std::count(it->second.begin(), it->second.end(), '.')) + 1);
    }
    for (int depth = 1; depth <= deepest; ++depth) {
        // Runs of consecutive instructions in one module at this depth; instructions the
        // ETRecord places in no module end a run.
        std::vector<Range> runs;
        std::string_view current;
        for (int p = 0; p < n; ++p) {
            const std::string_view module = path[static_cast<std::size_t>(p)].empty()
                ? std::string_view()
                : modulePrefix(path[static_cast<std::size_t>(p)], depth);
            if (!module.empty() && !runs.empty() && module == current && runs.back().end == p) {
                runs.back().end = p + 1;
                continue;
            }
            current = module;
            if (!module.empty())
                runs.push_back({ p, p + 1, std::string(module) });
        }
        int largest = 0;
        for (const Range& run : runs)
            largest = std::max(largest, run.end - run.begin);
        if (static_cast<int>(runs.size()) < kMinRepeatedBlocks || 2 * largest > n)
            continue;
        std::erase_if(runs, [](const Range& run) { return run.end - run.begin < 2; });
        if (static_cast<int>(runs.size()) < kMinRepeatedBlocks)
            return {};
        return groupRanges(graph, order, runs);
    }
    return {};
}

Grouping groupMethodGraph(const Graph& graph, const std::map<int, std::string>* moduleOf)
{
    if (moduleOf && graph.nodes.size() <= kGroupAboveNodes)
        if (Grouping byModules = groupByModules(graph, *moduleOf); !byModules.empty())
            return byModules;
    if (graph.nodes.size() > kGroupAboveNodes)
        return groupLongGraph(graph);
    return groupRepeatedBlocks(graph);
}

} // namespace etscope::core

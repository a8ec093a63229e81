// SPDX-License-Identifier: MIT
// Operators that left the top level for a delegate of the other program, or came out of one
// (MethodMatcher, methodmatcher.h).
#include "core/analysis/methodmatcher.h"

#include <algorithm>
#include <iterator>

namespace etscope::core::diff {

void MethodMatcher::moveBetween(std::size_t fromA, std::size_t toA, std::size_t fromB, std::size_t toB,
    std::optional<std::pair<std::size_t, std::size_t>> before, std::optional<std::pair<std::size_t, std::size_t>> after)
{
    const auto delegatesIn = [](const Side& side, std::size_t from, std::size_t to, std::optional<std::size_t> anchor1,
                                 std::optional<std::size_t> anchor2) {
        std::vector<NodeId> list;
        const auto consider = [&](std::size_t k) {
            const NodeId id = side.order[k];
            if (side.graph->node(id).kind == NodeKind::Delegate)
                list.push_back(id);
        };
        if (anchor1)
            consider(*anchor1);
        for (std::size_t k = from; k < to; ++k)
            consider(k);
        if (anchor2)
            consider(*anchor2);
        return list;
    };
    const auto first = [](const auto& p) { return p ? std::optional(p->first) : std::nullopt; };
    const auto second = [](const auto& p) { return p ? std::optional(p->second) : std::nullopt; };
    const std::vector<NodeId> delegatesB = delegatesIn(m_b, fromB, toB, second(before), second(after));
    const std::vector<NodeId> delegatesA = delegatesIn(m_a, fromA, toA, first(before), first(after));
    for (std::size_t k = fromA; k < toA; ++k)
        moveOperator(m_a, m_b, m_a.order[k], delegatesB, Movement::IntoDelegate);
    for (std::size_t k = fromB; k < toB; ++k)
        moveOperator(m_b, m_a, m_b.order[k], delegatesA, Movement::OutOfDelegate);
}

std::optional<DiffNodeRef> MethodMatcher::innerSharingHandles(
    Side& from, Side& to, NodeId op, const std::vector<NodeId>& delegates) const
{
    std::optional<DiffNodeRef> best;
    const std::vector<DebugHandle> handles = handlesOf(from, op);
    if (handles.empty())
        return best;
    std::size_t bestOverlap = 0;
    for (const NodeId d : delegates) {
        const Node& delegate = to.graph->node(d);
        if (!delegate.subgraph)
            continue;
        for (const NodeId inner : executionOrder(*delegate.subgraph, false)) {
            if (to.isUsed({ d, inner }))
                continue;
            const std::vector<DebugHandle> innerHandles = innerHandlesOf(to, d, inner);
            std::vector<DebugHandle> shared;
            std::set_intersection(
                handles.begin(), handles.end(), innerHandles.begin(), innerHandles.end(), std::back_inserter(shared));
            if (shared.size() > bestOverlap) {
                bestOverlap = shared.size();
                best = DiffNodeRef { d, inner };
            }
        }
    }
    return best;
}

void MethodMatcher::moveOperator(
    Side& from, Side& to, NodeId op, const std::vector<NodeId>& delegates, Movement movement)
{
    const Node& node = from.graph->node(op);
    if (node.kind != NodeKind::Operator || from.used[op.index()])
        return;
    const std::string family = operatorFamily(node.opType);
    const bool into = movement == Movement::IntoDelegate;
    const auto record = [&](DiffNodeRef target, const std::string& reason) {
        const DiffNodeRef source { op, {} };
        if (into)
            add(source, target, movement, reason);
        else
            add(target, source, movement, reason);
    };
    // With both records: the unmatched inner node sharing the most handles with the operator.
    if (const std::optional<DiffNodeRef> best = innerSharingHandles(from, to, op, delegates)) {
        const Node& delegate = to.graph->node(best->node);
        record(*best,
            std::string(into ? "moved into " : "moved out of ") + delegate.label + " ("
                + delegate.subgraph->node(*best->inner).opType + ")");
        m_out.matches.back().byDebugHandle = true;
        return;
    }
    for (const NodeId d : delegates) {
        const Node& delegate = to.graph->node(d);
        if (!delegate.subgraph)
            continue;
        auto& families = familiesOf(to, d);
        const auto it = families.find(family);
        if (it == families.end())
            continue;
        std::deque<NodeId>& candidates = it->second;
        // Taken candidates are dropped from the front (alignment may have taken later ones).
        while (!candidates.empty() && to.isUsed({ d, candidates.front() }))
            candidates.pop_front();
        const auto free = std::find_if(candidates.begin(), candidates.end(), [&](NodeId id) {
            return !to.isUsed({ d, id });
        });
        if (free == candidates.end())
            continue;
        const NodeId inner = *free;
        record({ d, inner },
            std::string(into ? "moved into " : "moved out of ") + delegate.label + " ("
                + delegate.subgraph->node(inner).opType + ")");
        return;
    }
    for (const NodeId d : delegates) {
        const Node& delegate = to.graph->node(d);
        if (delegate.subgraph)
            continue;
        // An undecoded delegate takes any number of operators and keeps its own entry.
        const bool hadMatch = to.used[d.index()];
        record(
            { d, {} }, std::string(into ? "moved into " : "moved out of ") + delegate.label + " (payload not decoded)");
        to.used[d.index()] = hadMatch;
        m_pairs.pop_back(); // what the operator read is not visible inside an opaque payload
        return;
    }
}

} // namespace etscope::core::diff

// SPDX-License-Identifier: MIT
// The node-by-node matching of one method in two programs for `etscope diff`: inputs and
// outputs by position, instructions aligned (diffalignment.h), delegate insides, operators that
// moved into or out of a delegate (methodmoves.cpp), then what the matched nodes read.
// Private to core/analysis.
#pragma once

#include "core/analysis/programdiff.h"

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace etscope::core::diff {

/// The execution order of the nodes that run: top level by (chain, instruction); inside a
/// delegate the operator nodes in the payload's order, which is its data-flow order.
std::vector<NodeId> executionOrder(const Graph& graph, bool topLevel);

/// "FLOAT [3]", or "?" when the type is not known.
std::string metaText(const TensorMeta& meta);

/// Bytes that differ between two spans of the same size, and where the first one is.
struct ByteDifference {
    std::uint64_t count = 0;
    std::optional<std::uint64_t> first;
};

ByteDifference differingBytes(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);

/// One side of a method comparison.
struct Side {
    const Method* method = nullptr;
    const Graph* graph = nullptr;
    const Program* program = nullptr; ///< for comparing payloads by content
    GraphAdjacency adjacency;
    std::vector<bool> used; ///< top-level nodes that have a match
    std::map<std::int32_t, GraphAdjacency> innerAdjacency; ///< by delegate node id
    std::map<std::int32_t, std::vector<bool>> innerUsed;
    std::vector<NodeId> order;

    const Graph& graphOf(const DiffNodeRef& ref) const { return ref.inner ? *graph->node(ref.node).subgraph : *graph; }
    const Node& nodeOf(const DiffNodeRef& ref) const { return graphOf(ref).node(ref.inner ? *ref.inner : ref.node); }
    const GraphAdjacency& adjacencyOf(const DiffNodeRef& ref)
    {
        if (!ref.inner)
            return adjacency;
        auto it = innerAdjacency.find(ref.node.value);
        if (it == innerAdjacency.end())
            it = innerAdjacency.emplace(ref.node.value, graph->node(ref.node).subgraph->adjacency()).first;
        return it->second;
    }
    std::vector<bool>& innerUsedOf(NodeId delegate)
    {
        auto it = innerUsed.find(delegate.value);
        if (it == innerUsed.end())
            it = innerUsed.emplace(delegate.value, std::vector<bool>(graph->node(delegate).subgraph->nodes.size()))
                     .first;
        return it->second;
    }
    bool isUsed(const DiffNodeRef& ref)
    {
        return ref.inner ? innerUsedOf(ref.node)[ref.inner->index()] : used[ref.node.index()];
    }
    void markUsed(const DiffNodeRef& ref)
    {
        if (ref.inner)
            innerUsedOf(ref.node)[ref.inner->index()] = true;
        else
            used[ref.node.index()] = true;
    }
    /// What a node reads or writes: type, shape and (top level) where the bytes live.
    struct Part {
        bool output = false;
        const TensorMeta* meta = nullptr;
        std::optional<TensorStorage> storage; ///< top level only: inner graphs plan their own memory
        bool operator==(const Part& other) const
        {
            return output == other.output && storage == other.storage && meta->dtype == other.meta->dtype
                && meta->shape == other.meta->shape;
        }
        std::string text() const
        {
            return metaText(*meta) + (storage ? " " + std::string(tensorStorageName(*storage)) : std::string());
        }
    };
    std::optional<TensorStorage> storageOf(std::int32_t value, bool top) const
    {
        if (!top || !method || value < 0 || static_cast<std::size_t>(value) >= method->values.size()
            || !method->values[static_cast<std::size_t>(value)].isTensor())
            return std::nullopt;
        return method->values[static_cast<std::size_t>(value)].tensor.storage;
    }
    /// The node's inputs, then its outputs, in order (structural: compared without building text).
    std::vector<Part> signature(const DiffNodeRef& ref)
    {
        const Graph& g = graphOf(ref);
        const Node& node = nodeOf(ref);
        const GraphAdjacency& adj = adjacencyOf(ref);
        std::vector<Part> parts;
        const bool top = !ref.inner;
        for (const std::size_t e : adj.in[node.id.index()])
            parts.push_back({ false, &g.edges[e].meta, storageOf(g.edges[e].value.value, top) });
        if (top && (node.kind == NodeKind::Operator || node.kind == NodeKind::Delegate)) {
            for (const auto& [value, meta] : node.writes)
                parts.push_back({ true, &meta, storageOf(value, top) });
        } else {
            std::set<std::int32_t> seen;
            for (const std::size_t e : adj.out[node.id.index()])
                if (seen.insert(g.edges[e].value.value).second)
                    parts.push_back({ true, &g.edges[e].meta, storageOf(g.edges[e].value.value, top) });
        }
        return parts;
    }
};

class MethodMatcher {
public:
    MethodMatcher(const Method* methodA, const Graph* graphA, const Method* methodB, const Graph* graphB,
        const DiffOptions& options, MethodDiff& out);

    /// The programs, so that delegates of equal size are also compared by content (only when
    /// both have their file's bytes).
    MethodMatcher& withPrograms(const Program& a, const Program& b);

    void run();

private:
    static void init(Side& side, const Method* method, const Graph* graph);

    /// Records a match and remembers the pair so that what both nodes read is matched later.
    void add(const DiffNodeRef& a, const DiffNodeRef& b, Movement movement = Movement::None, std::string reason = {});

    /// Inner operator nodes of a decoded delegate by family, in payload order (built once).
    std::map<std::string, std::deque<NodeId>>& familiesOf(const Side& side, NodeId delegate);

    void matchEnds(NodeKind kind);

    bool useHandles() const { return m_options.recordA && m_options.recordB; }

    /// The AOT handles of a top-level instruction (sorted, distinct); empty without both records.
    std::vector<DebugHandle> handlesOf(const Side& side, NodeId id) const;

    /// The AOT handles of an operator inside the delegate `delegate`: delegate_map's entry for the
    /// node's identifier (its delegate debug id, else its own debug handle), else — no entry for
    /// the call — the handle the payload stores on the node.
    std::vector<DebugHandle> innerHandlesOf(const Side& side, NodeId delegate, NodeId id) const;

    void matchInstructions();

    void matchDelegates(NodeId a, NodeId b);

    /// Between positions [from, to) of each order (a gap of the alignment), what one build
    /// lowered to another backend: unmatched delegates of different backends paired in order
    /// (Ethos-U's call and VGF's), unmatched operators of one family paired in order
    /// (cortex_m::quantize_per_tensor.out and quantized_decomposed::quantize_per_tensor.out).
    void pairAcrossBackends(std::size_t fromA, std::size_t toA, std::size_t fromB, std::size_t toB);

    /// Unmatched operators of one side between positions [from, to) of its order, moved into
    /// the delegates of the other side in [otherFrom, otherTo) or at the anchors around it.
    void moveBetween(std::size_t fromA, std::size_t toA, std::size_t fromB, std::size_t toB,
        std::optional<std::pair<std::size_t, std::size_t>> before,
        std::optional<std::pair<std::size_t, std::size_t>> after);

    /// With both records: the unmatched inner node of `to`'s delegates sharing the most handles
    /// with `op`, if any shares one.
    std::optional<DiffNodeRef> innerSharingHandles(
        Side& from, Side& to, NodeId op, const std::vector<NodeId>& delegates) const;

    /// `op` (a top-level operator of `from`) against the delegates of `to`: the first unmatched
    /// inner node of the same family, else the first delegate whose payload is not decoded.
    void moveOperator(Side& from, Side& to, NodeId op, const std::vector<NodeId>& delegates, Movement movement);

    /// Constants, states and views read by both nodes of a pair, in argument order.
    void matchReads(DiffNodeRef a, DiffNodeRef b);

    /// Every node without a partner: only in its side (top level and decoded delegate insides).
    void leftovers();

    void push(const DiffNodeRef& ref, MatchStatus status);

    const DiffOptions& m_options;
    MethodDiff& m_out;
    Side m_a, m_b;
    std::vector<std::pair<DiffNodeRef, DiffNodeRef>> m_pairs;
    std::map<std::int32_t, std::map<std::string, std::deque<NodeId>>> m_familiesA, m_familiesB;
};

} // namespace etscope::core::diff

// SPDX-License-Identifier: MIT
#include "core/analysis/programdiff.h"

#include "core/report/reports.h"
#include "core/util/text.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <unordered_map>

namespace etscope::core {

std::string_view matchStatusName(MatchStatus status)
{
    switch (status) {
    case MatchStatus::Same:
        return "same";
    case MatchStatus::Changed:
        return "changed";
    case MatchStatus::OnlyInA:
        return "only-in-A";
    case MatchStatus::OnlyInB:
        return "only-in-B";
    }
    return "unknown";
}

namespace {

bool isInstructionNode(const Node& node)
{
    switch (node.kind) {
    case NodeKind::Operator:
    case NodeKind::Delegate:
    case NodeKind::Move:
    case NodeKind::JumpFalse:
    case NodeKind::Free:
    case NodeKind::Unknown:
    case NodeKind::Group:
        return true;
    default:
        return false;
    }
}

/// The execution order of the nodes that run: top level by (chain, instruction); inside a
/// delegate the operator nodes in the payload's order, which is its data-flow order.
std::vector<NodeId> executionOrder(const Graph& graph, bool topLevel)
{
    std::vector<NodeId> order;
    for (const Node& node : graph.nodes)
        if (topLevel ? isInstructionNode(node) : node.kind == NodeKind::Operator)
            order.push_back(node.id);
    if (topLevel)
        std::stable_sort(order.begin(), order.end(), [&](NodeId x, NodeId y) {
            const Node& a = graph.node(x);
            const Node& b = graph.node(y);
            return a.chain != b.chain ? a.chain < b.chain : a.instruction < b.instruction;
        });
    return order;
}

std::string token(const Node& node)
{
    if (node.kind == NodeKind::Operator)
        return node.opType;
    if (node.kind == NodeKind::Delegate)
        return "delegate " + node.label;
    return std::string(nodeKindName(node.kind));
}

/// Pairs of positions (i in a, j in b) of equal tokens: common prefix and suffix, then the
/// longest common subsequence of the middle when its table fits in `maxCells`; otherwise the
/// k-th occurrence of each token in a with its k-th occurrence in b (`aligned` false).
std::vector<std::pair<std::size_t, std::size_t>> alignTokens(
    const std::vector<std::string>& a, const std::vector<std::string>& b, std::size_t maxCells, bool& aligned)
{
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    std::size_t prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) {
        pairs.emplace_back(prefix, prefix);
        ++prefix;
    }
    std::size_t suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix
        && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    const std::size_t n = a.size() - prefix - suffix;
    const std::size_t m = b.size() - prefix - suffix;
    aligned = true;
    if (n > 0 && m > 0 && n <= maxCells / m) {
        // lcs[i][j]: the LCS length of a[prefix + i …] and b[prefix + j …] (middle only).
        std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
        const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lcs[i * (m + 1) + j]; };
        for (std::size_t i = n; i-- > 0;)
            for (std::size_t j = m; j-- > 0;)
                at(i, j) = a[prefix + i] == b[prefix + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
        std::size_t i = 0, j = 0;
        while (i < n && j < m) {
            if (a[prefix + i] == b[prefix + j]) {
                pairs.emplace_back(prefix + i, prefix + j);
                ++i;
                ++j;
            } else if (at(i + 1, j) >= at(i, j + 1)) {
                ++i;
            } else {
                ++j;
            }
        }
    } else if (n > 0 && m > 0) {
        aligned = false;
        std::unordered_map<std::string, std::vector<std::size_t>> positions;
        for (std::size_t j = prefix; j < prefix + m; ++j)
            positions[b[j]].push_back(j);
        std::unordered_map<std::string, std::size_t> taken;
        for (std::size_t i = prefix; i < prefix + n; ++i) {
            auto it = positions.find(a[i]);
            if (it == positions.end())
                continue;
            std::size_t& k = taken[a[i]];
            if (k < it->second.size())
                pairs.emplace_back(i, it->second[k++]);
        }
    }
    for (std::size_t k = suffix; k-- > 0;)
        pairs.emplace_back(a.size() - 1 - k, b.size() - 1 - k);
    return pairs;
}

/// Sorted, distinct.
std::vector<DebugHandle> normalised(std::vector<DebugHandle> handles)
{
    std::sort(handles.begin(), handles.end());
    handles.erase(std::unique(handles.begin(), handles.end()), handles.end());
    return handles;
}

/// Pairs of positions of two sequences: anchors (items whose debug-handle sets intersect, one to
/// one, the largest overlap first, ties by position in a then b), then the tokens between
/// consecutive anchors of the longest chain in order on both sides aligned by alignTokens.
/// Anchors off that chain (crossing it) are paired too but bound no segment.
struct AnchoredAlignment {
    std::vector<std::pair<std::size_t, std::size_t>> pairs; ///< in order on both sides: chain anchors and aligned pairs
    std::vector<std::pair<std::size_t, std::size_t>> crossing; ///< anchors off the chain
    std::set<std::pair<std::size_t, std::size_t>> anchors; ///< every anchor
    bool aligned = true; ///< false when a segment fell back to rank matching
};

AnchoredAlignment alignWithAnchors(const std::vector<std::string>& tokensA, const std::vector<std::string>& tokensB,
    const std::vector<std::vector<DebugHandle>>& handlesA, const std::vector<std::vector<DebugHandle>>& handlesB,
    const std::vector<int>& kindsA, const std::vector<int>& kindsB, std::size_t maxCells)
{
    AnchoredAlignment result;
    // Candidates: every (i, j) of the same kind sharing a handle, with the number shared.
    std::unordered_map<std::int64_t, std::vector<std::size_t>> positionsB;
    for (std::size_t j = 0; j < handlesB.size(); ++j)
        for (const DebugHandle h : handlesB[j])
            positionsB[h.value].push_back(j);
    struct Candidate {
        std::size_t overlap, i, j;
    };
    std::vector<Candidate> candidates;
    for (std::size_t i = 0; i < handlesA.size(); ++i) {
        std::map<std::size_t, std::size_t> shared;
        for (const DebugHandle h : handlesA[i])
            if (const auto it = positionsB.find(h.value); it != positionsB.end())
                for (const std::size_t j : it->second)
                    ++shared[j];
        for (const auto& [j, count] : shared)
            if (kindsA[i] == kindsB[j])
                candidates.push_back({ count, i, j });
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
        return x.overlap != y.overlap ? x.overlap > y.overlap : x.i != y.i ? x.i < y.i : x.j < y.j;
    });
    std::vector<bool> takenA(tokensA.size()), takenB(tokensB.size());
    std::vector<std::pair<std::size_t, std::size_t>> anchors;
    for (const Candidate& c : candidates)
        if (!takenA[c.i] && !takenB[c.j]) {
            takenA[c.i] = takenB[c.j] = true;
            anchors.emplace_back(c.i, c.j);
        }
    std::sort(anchors.begin(), anchors.end());
    result.anchors.insert(anchors.begin(), anchors.end());
    // The longest chain of anchors increasing on both sides (patience sorting on j).
    std::vector<std::size_t> tails;
    std::vector<std::ptrdiff_t> previous(anchors.size(), -1);
    for (std::size_t k = 0; k < anchors.size(); ++k) {
        const auto pos = std::lower_bound(tails.begin(), tails.end(), anchors[k].second,
            [&](std::size_t t, std::size_t j) { return anchors[t].second < j; });
        previous[k] = pos == tails.begin() ? -1 : static_cast<std::ptrdiff_t>(*(pos - 1));
        if (pos == tails.end())
            tails.push_back(k);
        else
            *pos = k;
    }
    std::vector<bool> onChain(anchors.size());
    for (std::ptrdiff_t k = tails.empty() ? -1 : static_cast<std::ptrdiff_t>(tails.back()); k >= 0; k = previous[k])
        onChain[static_cast<std::size_t>(k)] = true;
    std::vector<std::pair<std::size_t, std::size_t>> chain;
    for (std::size_t k = 0; k < anchors.size(); ++k)
        (onChain[k] ? chain : result.crossing).push_back(anchors[k]);
    // Between consecutive chain anchors: the unanchored tokens aligned.
    std::size_t ia = 0, jb = 0;
    for (std::size_t k = 0; k <= chain.size(); ++k) {
        const std::size_t endA = k < chain.size() ? chain[k].first : tokensA.size();
        const std::size_t endB = k < chain.size() ? chain[k].second : tokensB.size();
        std::vector<std::size_t> positionsA, positionsInB;
        std::vector<std::string> segmentA, segmentB;
        for (std::size_t p = ia; p < endA; ++p)
            if (!takenA[p]) {
                positionsA.push_back(p);
                segmentA.push_back(tokensA[p]);
            }
        for (std::size_t p = jb; p < endB; ++p)
            if (!takenB[p]) {
                positionsInB.push_back(p);
                segmentB.push_back(tokensB[p]);
            }
        bool aligned = true;
        for (const auto& [x, y] : alignTokens(segmentA, segmentB, maxCells, aligned))
            result.pairs.emplace_back(positionsA[x], positionsInB[y]);
        result.aligned = result.aligned && aligned;
        if (k < chain.size()) {
            result.pairs.push_back(chain[k]);
            ia = endA + 1;
            jb = endB + 1;
        }
    }
    return result;
}

std::string metaText(const TensorMeta& meta)
{
    return meta.known() ? meta.dtype + " " + formatShape(meta.shape) : "?";
}

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

/// Empty when the signatures agree; else the first difference: "input 0: FLOAT [3] planned → FLOAT [1] planned".
std::string describeDifference(const std::vector<Side::Part>& a, const std::vector<Side::Part>& b)
{
    int inputs = 0, outputs = 0;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        const int position = a[i].output ? outputs++ : inputs++;
        if (a[i] == b[i])
            continue;
        return std::string(a[i].output ? "output " : "input ") + std::to_string(position) + ": " + a[i].text() + " → "
            + (b[i].output != a[i].output ? (b[i].output ? "output " : "input ") : "") + b[i].text();
    }
    if (a.size() != b.size())
        return std::to_string(a.size()) + " inputs and outputs → " + std::to_string(b.size());
    return {};
}

/// Why two payloads of the same size differ ("payload content differs in 677452 of 1331456 bytes,
/// first at payload offset 296"), or empty when they hold the same bytes. A payload that lies
/// outside its file (damaged) is empty and compares equal only to an empty one.
/// Bytes that differ between two spans of the same size, and where the first one is.
struct ByteDifference {
    std::uint64_t count = 0;
    std::optional<std::uint64_t> first;
};

ByteDifference differingBytes(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b)
{
    ByteDifference difference;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
        if (a[i] != b[i]) {
            ++difference.count;
            if (!difference.first)
                difference.first = i;
        }
    return difference;
}

std::string payloadContentDifference(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b)
{
    if (a.size() != b.size())
        return "payload content unreadable in " + std::string(a.empty() ? "A" : "B");
    const ByteDifference difference = differingBytes(a, b);
    if (!difference.count)
        return {};
    return "payload content differs in " + std::to_string(difference.count) + " of " + std::to_string(a.size())
        + " bytes, first at payload offset " + std::to_string(*difference.first);
}

class MethodMatcher {
public:
    MethodMatcher(const Method* methodA, const Graph* graphA, const Method* methodB, const Graph* graphB,
        const DiffOptions& options, MethodDiff& out)
        : m_options(options)
        , m_out(out)
    {
        init(m_a, methodA, graphA);
        init(m_b, methodB, graphB);
    }

    /// The programs, so that delegates of equal size are also compared by content (only when
    /// both have their file's bytes).
    MethodMatcher& withPrograms(const Program& a, const Program& b)
    {
        if (a.file && b.file) {
            m_a.program = &a;
            m_b.program = &b;
        }
        return *this;
    }

    void run()
    {
        matchEnds(NodeKind::Input);
        matchEnds(NodeKind::Output);
        matchInstructions();
        // Grows while it runs (constants of constants do not exist, so it ends): an index loop,
        // and each pair copied before matchReads appends to m_pairs (which may reallocate).
        for (std::size_t i = 0; i < m_pairs.size(); ++i) { // NOLINT(modernize-loop-convert): m_pairs grows
            const auto [a, b] = m_pairs[i];
            matchReads(a, b);
        }
        leftovers();
    }

private:
    static void init(Side& side, const Method* method, const Graph* graph)
    {
        side.method = method;
        side.graph = graph;
        if (!graph)
            return;
        side.adjacency = graph->adjacency();
        side.used.assign(graph->nodes.size(), false);
        side.order = executionOrder(*graph, true);
    }

    /// Records a match and remembers the pair so that what both nodes read is matched later.
    void add(const DiffNodeRef& a, const DiffNodeRef& b, Movement movement = Movement::None, std::string reason = {})
    {
        m_a.markUsed(a);
        m_b.markUsed(b);
        NodeMatch match { a, b, MatchStatus::Same, movement, std::move(reason) };
        if (movement == Movement::None && match.reason.empty())
            match.reason = describeDifference(m_a.signature(a), m_b.signature(b));
        if (!match.reason.empty())
            match.status = MatchStatus::Changed;
        m_out.matches.push_back(std::move(match));
        m_pairs.emplace_back(a, b);
    }

    /// Inner operator nodes of a decoded delegate by family, in payload order (built once).
    std::map<std::string, std::deque<NodeId>>& familiesOf(const Side& side, NodeId delegate)
    {
        auto& cache = &side == &m_a ? m_familiesA : m_familiesB;
        auto it = cache.find(delegate.value);
        if (it == cache.end()) {
            const Graph& inner = *side.graph->node(delegate).subgraph;
            std::map<std::string, std::deque<NodeId>> families;
            for (const NodeId id : executionOrder(inner, false))
                families[operatorFamily(inner.node(id).opType)].push_back(id);
            it = cache.emplace(delegate.value, std::move(families)).first;
        }
        return it->second;
    }

    void matchEnds(NodeKind kind)
    {
        if (!m_a.graph || !m_b.graph)
            return;
        std::map<int, NodeId> inB;
        for (const Node& node : m_b.graph->nodes)
            if (node.kind == kind)
                inB.emplace(node.argPosition, node.id);
        for (const Node& node : m_a.graph->nodes)
            if (node.kind == kind)
                if (const auto it = inB.find(node.argPosition); it != inB.end())
                    add({ node.id, {} }, { it->second, {} });
    }

    bool useHandles() const { return m_options.recordA && m_options.recordB; }

    /// The AOT handles of a top-level instruction (sorted, distinct); empty without both records.
    std::vector<DebugHandle> handlesOf(const Side& side, NodeId id) const
    {
        const ETRecord* record = &side == &m_a ? m_options.recordA : m_options.recordB;
        const Node& node = side.graph->node(id);
        if (!useHandles() || node.chain != 0 || !node.instruction.valid())
            return {};
        return normalised(record->handlesOf(m_out.name, node.instruction.value));
    }

    /// The AOT handles of an operator inside the delegate `delegate`: delegate_map's entry for the
    /// node's identifier (its delegate debug id, else its own debug handle), else — no entry for
    /// the call — the handle the payload stores on the node.
    std::vector<DebugHandle> innerHandlesOf(const Side& side, NodeId delegate, NodeId id) const
    {
        const ETRecord* record = &side == &m_a ? m_options.recordA : m_options.recordB;
        const Node& call = side.graph->node(delegate);
        const Node& node = call.subgraph->node(id);
        if (!useHandles() || call.chain != 0 || !call.instruction.valid())
            return {};
        std::optional<std::int64_t> identifier = node.delegateDebugId;
        if (!identifier && node.debugHandle)
            identifier = node.debugHandle->value;
        if (identifier)
            if (auto handles = record->delegateHandles(m_out.name, call.instruction.value, std::to_string(*identifier)))
                return normalised(std::move(*handles));
        if (node.debugHandle)
            return { *node.debugHandle };
        return {};
    }

    void matchInstructions()
    {
        if (!m_a.graph || !m_b.graph) {
            m_out.matching = "none";
            return;
        }
        std::vector<std::string> tokensA, tokensB;
        std::vector<std::vector<DebugHandle>> handlesA, handlesB;
        std::vector<int> kindsA, kindsB;
        for (const NodeId id : m_a.order) {
            tokensA.push_back(token(m_a.graph->node(id)));
            handlesA.push_back(handlesOf(m_a, id));
            kindsA.push_back(static_cast<int>(m_a.graph->node(id).kind));
        }
        for (const NodeId id : m_b.order) {
            tokensB.push_back(token(m_b.graph->node(id)));
            handlesB.push_back(handlesOf(m_b, id));
            kindsB.push_back(static_cast<int>(m_b.graph->node(id).kind));
        }
        const AnchoredAlignment alignment
            = alignWithAnchors(tokensA, tokensB, handlesA, handlesB, kindsA, kindsB, m_options.maxAlignCells);
        const auto& pairs = alignment.pairs;
        const bool aligned = alignment.aligned;
        if (alignment.anchors.empty())
            m_out.matching = aligned ? "aligned" : "rank";
        else if (alignment.anchors.size() == pairs.size() + alignment.crossing.size())
            m_out.matching = "debug handles";
        else
            m_out.matching = aligned ? "debug handles + aligned" : "debug handles + rank";
        const auto matchPair = [&](std::size_t i, std::size_t j) {
            const NodeId a = m_a.order[i];
            const NodeId b = m_b.order[j];
            const bool anchor = alignment.anchors.count({ i, j }) > 0;
            const std::size_t index = m_out.matches.size();
            const Node& na = m_a.graph->node(a);
            const Node& nb = m_b.graph->node(b);
            if (na.kind == NodeKind::Delegate)
                matchDelegates(a, b);
            else
                add({ a, {} }, { b, {} }, Movement::None,
                    tokensA[i] != tokensB[j] ? "operator " + (na.opType.empty() ? tokensA[i] : na.opType) + " → "
                            + (nb.opType.empty() ? tokensB[j] : nb.opType)
                                             : std::string());
            if (anchor)
                m_out.matches[index].byDebugHandle = true;
        };
        for (const auto& [i, j] : alignment.crossing)
            matchPair(i, j);
        for (const auto& [i, j] : pairs)
            matchPair(i, j);
        if (!aligned) {
            // No order to rely on: any operator may have moved into any delegate.
            moveBetween(0, m_a.order.size(), 0, m_b.order.size(), std::nullopt, std::nullopt);
            return;
        }
        // Operators that left the top level between two aligned anchors went into a delegate of
        // the other side between the same anchors (or into one of the anchors, when it is one).
        std::size_t ia = 0, jb = 0;
        std::optional<std::pair<std::size_t, std::size_t>> before;
        for (std::size_t k = 0; k <= pairs.size(); ++k) {
            const std::size_t endA = k < pairs.size() ? pairs[k].first : m_a.order.size();
            const std::size_t endB = k < pairs.size() ? pairs[k].second : m_b.order.size();
            const std::optional<std::pair<std::size_t, std::size_t>> after
                = k < pairs.size() ? std::optional(pairs[k]) : std::nullopt;
            if (endA > ia || endB > jb)
                moveBetween(ia, endA, jb, endB, before, after);
            if (k < pairs.size()) {
                ia = endA + 1;
                jb = endB + 1;
                before = pairs[k];
            }
        }
    }

    void matchDelegates(NodeId a, NodeId b)
    {
        const Node& da = m_a.graph->node(a);
        const Node& db = m_b.graph->node(b);
        std::string reason;
        const auto payload = [](const Side& side, const Node& node) -> ByteRange {
            if (!side.method || !node.delegate.valid() || node.delegate.index() >= side.method->delegates.size())
                return {};
            return side.method->delegates[node.delegate.index()].payload;
        };
        const ByteRange pa = payload(m_a, da), pb = payload(m_b, db);
        if (pa.size != pb.size)
            reason = "payload " + std::to_string(pa.size) + " B → " + std::to_string(pb.size) + " B";
        else if (pa.size > 0 && m_a.program && m_b.program)
            reason = payloadContentDifference(m_a.program->bytes(pa), m_b.program->bytes(pb));
        const std::size_t na = da.subgraph ? da.subgraph->operatorCount() : 0;
        const std::size_t nb = db.subgraph ? db.subgraph->operatorCount() : 0;
        if (na != nb)
            reason += (reason.empty() ? "" : "; ") + std::string("inner nodes ") + std::to_string(na) + " → "
                + std::to_string(nb);
        add({ a, {} }, { b, {} }, Movement::None, reason); // no reason given: add() compares the calls' tensors
        if (!da.subgraph || !db.subgraph)
            return;
        // Inside: inputs and outputs by position, operators aligned in payload order.
        std::map<std::pair<int, int>, NodeId> ends;
        for (const Node& inner : db.subgraph->nodes)
            if (inner.kind == NodeKind::Input || inner.kind == NodeKind::Output)
                ends.emplace(std::pair(static_cast<int>(inner.kind), inner.argPosition), inner.id);
        for (const Node& inner : da.subgraph->nodes)
            if (inner.kind == NodeKind::Input || inner.kind == NodeKind::Output)
                if (const auto it = ends.find({ static_cast<int>(inner.kind), inner.argPosition }); it != ends.end())
                    add({ a, inner.id }, { b, it->second });
        const std::vector<NodeId> orderA = executionOrder(*da.subgraph, false);
        const std::vector<NodeId> orderB = executionOrder(*db.subgraph, false);
        std::vector<std::string> tokensA, tokensB;
        std::vector<std::vector<DebugHandle>> handlesA, handlesB;
        for (const NodeId id : orderA) {
            tokensA.push_back(da.subgraph->node(id).opType);
            handlesA.push_back(innerHandlesOf(m_a, a, id));
        }
        for (const NodeId id : orderB) {
            tokensB.push_back(db.subgraph->node(id).opType);
            handlesB.push_back(innerHandlesOf(m_b, b, id));
        }
        // Inner nodes are all operators: one kind.
        const AnchoredAlignment alignment = alignWithAnchors(tokensA, tokensB, handlesA, handlesB,
            std::vector<int>(orderA.size()), std::vector<int>(orderB.size()), m_options.maxAlignCells);
        const auto matchInner = [&](std::size_t i, std::size_t j) {
            const bool anchor = alignment.anchors.count({ i, j }) > 0;
            add({ a, orderA[i] }, { b, orderB[j] }, Movement::None,
                tokensA[i] != tokensB[j] ? "operator " + tokensA[i] + " → " + tokensB[j] : std::string());
            if (anchor)
                m_out.matches.back().byDebugHandle = true;
        };
        for (const auto& [i, j] : alignment.crossing)
            matchInner(i, j);
        for (const auto& [i, j] : alignment.pairs)
            matchInner(i, j);
    }

    /// Unmatched operators of one side between positions [from, to) of its order, moved into
    /// the delegates of the other side in [otherFrom, otherTo) or at the anchors around it.
    void moveBetween(std::size_t fromA, std::size_t toA, std::size_t fromB, std::size_t toB,
        std::optional<std::pair<std::size_t, std::size_t>> before,
        std::optional<std::pair<std::size_t, std::size_t>> after)
    {
        const auto delegatesIn = [](const Side& side, std::size_t from, std::size_t to,
                                     std::optional<std::size_t> anchor1, std::optional<std::size_t> anchor2) {
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

    /// `op` (a top-level operator of `from`) against the delegates of `to`: the first unmatched
    /// inner node of the same family, else the first delegate whose payload is not decoded.
    void moveOperator(Side& from, Side& to, NodeId op, const std::vector<NodeId>& delegates, Movement movement)
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
        if (const std::vector<DebugHandle> handles = handlesOf(from, op); !handles.empty()) {
            std::optional<DiffNodeRef> best;
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
                    std::set_intersection(handles.begin(), handles.end(), innerHandles.begin(), innerHandles.end(),
                        std::back_inserter(shared));
                    if (shared.size() > bestOverlap) {
                        bestOverlap = shared.size();
                        best = DiffNodeRef { d, inner };
                    }
                }
            }
            if (best) {
                const Node& delegate = to.graph->node(best->node);
                record(*best,
                    std::string(into ? "moved into " : "moved out of ") + delegate.label + " ("
                        + delegate.subgraph->node(*best->inner).opType + ")");
                m_out.matches.back().byDebugHandle = true;
                return;
            }
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
            record({ d, {} },
                std::string(into ? "moved into " : "moved out of ") + delegate.label + " (payload not decoded)");
            to.used[d.index()] = hadMatch;
            m_pairs.pop_back(); // what the operator read is not visible inside an opaque payload
            return;
        }
    }

    /// Constants, states and views read by both nodes of a pair, in argument order.
    void matchReads(DiffNodeRef a, DiffNodeRef b)
    {
        struct Read {
            DiffNodeRef ref;
            std::uint64_t elements = 0;
        };
        const auto reads = [](Side& side, const DiffNodeRef& ref) {
            std::vector<Read> list;
            const Graph& g = side.graphOf(ref);
            const Node& node = side.nodeOf(ref);
            for (const std::size_t e : side.adjacencyOf(ref).in[node.id.index()]) {
                const Edge& edge = g.edges[e];
                const Node& source = g.node(edge.from);
                if (source.kind != NodeKind::Constant && source.kind != NodeKind::State
                    && source.kind != NodeKind::View)
                    continue;
                std::uint64_t elements = 1;
                for (const std::int64_t size : edge.meta.shape)
                    elements *= static_cast<std::uint64_t>(std::max<std::int64_t>(size, 0));
                list.push_back({ ref.inner ? DiffNodeRef { ref.node, source.id } : DiffNodeRef { source.id, {} },
                    edge.meta.known() ? elements : 0 });
            }
            return list;
        };
        const std::vector<Read> readsA = reads(m_a, a);
        std::vector<Read> readsB = reads(m_b, b);
        const bool moved = a.inner.has_value() != b.inner.has_value();
        // Argument order differs between an operator and the backend node it became (addmm reads
        // bias, input, weight; XNNFullyConnected input, filter, bias): pair reads of the same
        // element count first, then the rest in order.
        for (const bool sameSize : { true, false }) {
            for (const Read& readA : readsA) {
                if (m_a.isUsed(readA.ref))
                    continue;
                const auto partner = std::find_if(readsB.begin(), readsB.end(), [&](const Read& readB) {
                    return !m_b.isUsed(readB.ref) && (!sameSize || readB.elements == readA.elements);
                });
                if (partner == readsB.end())
                    continue;
                if (!moved) {
                    add(readA.ref, partner->ref);
                    continue;
                }
                const Movement direction = a.inner ? Movement::OutOfDelegate : Movement::IntoDelegate;
                const Node& owner = a.inner ? m_a.graph->node(a.node) : m_b.graph->node(b.node);
                add(readA.ref, partner->ref, direction,
                    std::string(direction == Movement::IntoDelegate ? "moved into " : "moved out of ") + owner.label);
            }
        }
    }

    /// Every node without a partner: only in its side (top level and decoded delegate insides).
    void leftovers()
    {
        const auto sweep = [&](Side& side, MatchStatus status) {
            if (!side.graph)
                return;
            for (const Node& node : side.graph->nodes) {
                const DiffNodeRef ref { node.id, {} };
                if (!side.used[node.id.index()])
                    push(ref, status);
                if (node.kind != NodeKind::Delegate || !node.subgraph)
                    continue;
                for (const Node& inner : node.subgraph->nodes)
                    if (!side.isUsed({ node.id, inner.id }))
                        push({ node.id, inner.id }, status);
            }
        };
        sweep(m_a, MatchStatus::OnlyInA);
        sweep(m_b, MatchStatus::OnlyInB);
    }

    void push(const DiffNodeRef& ref, MatchStatus status)
    {
        NodeMatch match;
        (status == MatchStatus::OnlyInA ? match.a : match.b) = ref;
        match.status = status;
        m_out.matches.push_back(std::move(match));
    }

    const DiffOptions& m_options;
    MethodDiff& m_out;
    Side m_a, m_b;
    std::vector<std::pair<DiffNodeRef, DiffNodeRef>> m_pairs;
    std::map<std::int32_t, std::map<std::string, std::deque<NodeId>>> m_familiesA, m_familiesB;
};

void summarise(MethodDiff& diff, const Graph* graphA, const Graph* graphB)
{
    std::map<std::string, OperatorDiffRow> rows;
    for (const OperatorRow& row : diff.tableA.rows) {
        OperatorDiffRow& r = rows[row.opType];
        r.opType = row.opType;
        r.delegatedA = row.delegated;
        r.nonDelegatedA = row.nonDelegated;
    }
    for (const OperatorRow& row : diff.tableB.rows) {
        OperatorDiffRow& r = rows[row.opType];
        r.opType = row.opType;
        r.delegatedB = row.delegated;
        r.nonDelegatedB = row.nonDelegated;
    }
    for (auto& [type, row] : rows)
        diff.operators.push_back(std::move(row));

    const auto nodeOf = [](const Graph* graph, const DiffNodeRef& ref) -> const Node& {
        return ref.inner ? graph->node(ref.node).subgraph->node(*ref.inner) : graph->node(ref.node);
    };
    const auto label = [&](const Graph* graph, const DiffNodeRef& ref) {
        const Node& top = graph->node(ref.node);
        std::string text = top.instruction.valid() ? "#" + std::to_string(top.instruction.value) + " " : std::string();
        text += top.label;
        if (ref.inner)
            text += " › " + nodeOf(graph, ref).label + " (node " + std::to_string(ref.inner->value) + ")";
        return text;
    };
    std::map<std::tuple<Movement, std::string, std::string, std::string>, int> moved;
    for (NodeMatch& match : diff.matches) {
        if (match.a)
            match.labelA = label(graphA, *match.a);
        if (match.b)
            match.labelB = label(graphB, *match.b);
        switch (match.status) {
        case MatchStatus::Same:
            ++diff.same;
            break;
        case MatchStatus::Changed:
            ++diff.changed;
            break;
        case MatchStatus::OnlyInA:
            ++diff.onlyInA;
            break;
        case MatchStatus::OnlyInB:
            ++diff.onlyInB;
            break;
        }
        if (match.movement == Movement::None || !match.a || !match.b)
            continue;
        const bool into = match.movement == Movement::IntoDelegate;
        const Node& top = into ? nodeOf(graphA, *match.a) : nodeOf(graphB, *match.b);
        if (top.kind != NodeKind::Operator)
            continue; // constants follow their readers; only operators are counted
        const DiffNodeRef& delegated = into ? *match.b : *match.a;
        const Graph* delegatedGraph = into ? graphB : graphA;
        const Node& delegate = delegatedGraph->node(delegated.node);
        const std::string reached = delegated.inner ? nodeOf(delegatedGraph, delegated).opType : delegate.label;
        ++moved[{ match.movement, into ? top.opType : reached, into ? reached : top.opType, delegate.label }];
        ++(into ? diff.movedIntoDelegates : diff.movedOutOfDelegates);
    }
    for (const auto& [key, count] : moved) {
        const auto& [movement, from, to, backend] = key;
        diff.moved.push_back({ movement, from, to, backend, count });
    }
}

std::uint64_t uniqueBytes(std::vector<ByteRange> ranges)
{
    std::sort(ranges.begin(), ranges.end(), [](const ByteRange& x, const ByteRange& y) {
        return std::pair(x.offset, x.size) < std::pair(y.offset, y.size);
    });
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < ranges.size(); ++i)
        if (i == 0 || ranges[i].offset != ranges[i - 1].offset || ranges[i].size != ranges[i - 1].size)
            total += ranges[i].size;
    return total;
}

struct SizeFacts {
    std::uint64_t file = 0, program = 0, segments = 0, segmentBytes = 0, constants = 0, delegateBytes = 0,
                  inlineDelegateBytes = 0, namedData = 0;
};

/// Distinct payload ranges in file order (one range per shared segment).
std::vector<ByteRange> distinctRanges(std::vector<ByteRange> ranges)
{
    std::sort(ranges.begin(), ranges.end(), [](const ByteRange& x, const ByteRange& y) {
        return std::pair(x.offset, x.size) < std::pair(y.offset, y.size);
    });
    ranges.erase(std::unique(ranges.begin(), ranges.end(),
                     [](const ByteRange& x, const ByteRange& y) { return x.offset == y.offset && x.size == y.size; }),
        ranges.end());
    return ranges;
}

/// Compares one backend's stored payloads of A and B byte by byte when they have the same sizes
/// in file order: two builds whose FlatBuffers are identical can still carry different
/// payloads (a QNN context binary rebuilt), and sizes alone call them the same.
void comparePayloadContent(const Program& programA, std::vector<ByteRange> rangesA, const Program& programB,
    std::vector<ByteRange> rangesB, BackendDiff& backend)
{
    rangesA = distinctRanges(std::move(rangesA));
    rangesB = distinctRanges(std::move(rangesB));
    if (rangesA.size() != rangesB.size())
        return;
    std::vector<std::pair<std::span<const std::uint8_t>, std::span<const std::uint8_t>>> pairs;
    for (std::size_t r = 0; r < rangesA.size(); ++r) {
        const auto a = programA.bytes(rangesA[r]), b = programB.bytes(rangesB[r]);
        if (rangesA[r].size != rangesB[r].size || a.size() != rangesA[r].size || b.size() != rangesB[r].size)
            return; // sizes differ, or a range lies outside its file
        pairs.emplace_back(a, b);
    }
    for (std::size_t r = 0; r < pairs.size(); ++r) {
        const ByteDifference difference = differingBytes(pairs[r].first, pairs[r].second);
        backend.differingBytes += difference.count;
        if (!backend.firstDifferenceA && difference.first)
            backend.firstDifferenceA = rangesA[r].offset + *difference.first;
    }
}

SizeFacts sizeFacts(const Program& program)
{
    SizeFacts facts;
    facts.file = program.file ? program.file->size() : 0;
    facts.program = program.header ? program.header->programSize : program.region.size;
    facts.segments = program.segments.size();
    for (const ByteRange& segment : program.segments)
        facts.segmentBytes += segment.size;
    if (program.hasConstantSegment && program.constantSegment.segmentIndex < program.segments.size())
        facts.constants += program.segments[program.constantSegment.segmentIndex].size;
    for (const ByteRange& buffer : program.legacyConstantBuffers)
        facts.constants += buffer.size;
    std::vector<ByteRange> payloads;
    for (const Method& method : program.methods)
        for (const DelegateRef& ref : method.delegates)
            payloads.push_back(ref.payload);
    facts.delegateBytes = uniqueBytes(payloads);
    for (const ByteRange& data : program.inlineDelegateData)
        facts.inlineDelegateBytes += data.size;
    std::vector<ByteRange> named;
    for (const NamedDataEntry& entry : program.namedData)
        named.push_back(entry.data);
    facts.namedData = uniqueBytes(named);
    return facts;
}

} // namespace

Result<ProgramDiff> diffPrograms(const Document& a, const Document& b, const DiffOptions& options)
{
    for (const Document* document : { &a, &b })
        if (!document->program)
            return makeError(Error::Code::Usage, document->path,
                "is not a program (" + std::string(fileKindName(document->kind))
                    + "); diff compares .pte and .bpte files");
    const Program& pa = *a.program;
    const Program& pb = *b.program;
    ProgramDiff diff;
    diff.pathA = a.path;
    diff.pathB = b.path;

    std::set<std::string> names;
    for (const Method& m : pa.methods)
        names.insert(m.name);
    for (const Method& m : pb.methods)
        names.insert(m.name);
    for (const std::string& name : names) {
        const bool inA = pa.method(name) != nullptr, inB = pb.method(name) != nullptr;
        (inA && inB ? diff.commonMethods : inA ? diff.methodsOnlyInA : diff.methodsOnlyInB).push_back(name);
    }
    std::vector<std::string> compared;
    if (!options.method.empty()) {
        if (!names.count(options.method))
            return makeError(
                Error::Code::Usage, a.path + ", " + b.path, "neither file has a method named '" + options.method + "'");
        compared.push_back(options.method);
    } else {
        compared.assign(names.begin(), names.end());
    }

    std::map<std::string, BackendDiff> backends;
    std::map<std::string, std::pair<std::vector<ByteRange>, std::vector<ByteRange>>> payloadRanges;
    for (const std::string& name : compared) {
        MethodDiff method;
        method.name = name;
        const Method* ma = pa.method(name);
        const Method* mb = pb.method(name);
        method.inA = ma != nullptr;
        method.inB = mb != nullptr;
        if (!ma || !mb)
            diff.notes.push_back("method '" + name + "' is only in " + (ma ? "A (" + a.path : "B (" + b.path) + ")");
        const MethodAnalysis* aa = ma ? a.analysis(*ma) : nullptr;
        const MethodAnalysis* ab = mb ? b.analysis(*mb) : nullptr;
        const Graph* ga = aa && aa->graph ? aa->graph.get() : nullptr;
        const Graph* gb = ab && ab->graph ? ab->graph.get() : nullptr;
        if (ga)
            method.tableA = computeOperatorTable(*ga);
        if (gb)
            method.tableB = computeOperatorTable(*gb);
        MethodMatcher(ma, ga, mb, gb, options, method).withPrograms(pa, pb).run();
        summarise(method, ga, gb);
        for (const auto& [m, side] : { std::pair(ma, 0), std::pair(mb, 1) }) {
            if (!m)
                continue;
            for (const DelegateRef& ref : m->delegates) {
                BackendDiff& backend = backends[ref.backendId];
                backend.backend = ref.backendId;
                ++(side == 0 ? backend.countA : backend.countB);
                auto& ranges = payloadRanges[ref.backendId];
                (side == 0 ? ranges.first : ranges.second).push_back(ref.payload);
            }
        }
        diff.methods.push_back(std::move(method));
    }
    for (auto& [id, backend] : backends) {
        auto& [rangesA, rangesB] = payloadRanges[id];
        backend.bytesA = uniqueBytes(rangesA);
        backend.bytesB = uniqueBytes(rangesB);
        if (pa.file && pb.file)
            comparePayloadContent(pa, std::move(rangesA), pb, std::move(rangesB), backend);
        diff.backends.push_back(std::move(backend));
    }

    const SizeFacts sa = sizeFacts(pa), sb = sizeFacts(pb);
    if (pa.file && pb.file) {
        const auto bytesA = pa.file->bytes(), bytesB = pb.file->bytes();
        diff.identicalBytes = std::equal(bytesA.begin(), bytesA.end(), bytesB.begin(), bytesB.end());
    }
    diff.sizes = {
        { "file", sa.file, sb.file },
        { "program (FlatBuffer and header)", sa.program, sb.program },
        { "segments", sa.segments, sb.segments, true },
        { "segment bytes", sa.segmentBytes, sb.segmentBytes },
        { "constant data", sa.constants, sb.constants },
        { "delegate payloads", sa.delegateBytes, sb.delegateBytes },
        { "inline delegate data", sa.inlineDelegateBytes, sb.inlineDelegateBytes },
        { "named data", sa.namedData, sb.namedData },
    };
    return diff;
}

} // namespace etscope::core
